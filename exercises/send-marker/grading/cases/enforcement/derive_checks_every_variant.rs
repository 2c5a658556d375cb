//! Proves enforcement: the derive checks the fields of every variant of an
//! enum, not only the first one: a raw pointer in the last variant stops it.
use send_marker::Sendable;

#[derive(Sendable)]
enum Packet {
    Ping,
    Data { bytes: Vec<u8> },
    Borrowed(*const u8, usize),
}

// The error points at the field or, on some compilers, at the derive:
// either way it names the field's type.
//~? ERROR E0277 "*const u8"

fn main() {
    let packets = [
        Packet::Ping,
        Packet::Data { bytes: vec![1, 2] },
        Packet::Borrowed(std::ptr::null(), 0),
    ];
    for packet in &packets {
        match packet {
            Packet::Ping => println!("ping"),
            Packet::Data { bytes } => println!("{} bytes", bytes.len()),
            Packet::Borrowed(start, len) => println!("{len} bytes at {start:?}"),
        }
    }
}
