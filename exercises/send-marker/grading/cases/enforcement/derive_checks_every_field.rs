//! Proves enforcement: `#[derive(Sendable)]` checks every field wherever it
//! stands: the first field of a tuple struct, and the first of a struct
//! whose other fields are all `Sendable`. A derive that skipped a field, by
//! position or by kind, would let a raw pointer or a shared `Cell` through.
use send_marker::Sendable;
use std::cell::Cell;

#[derive(Sendable)]
struct Lease(*mut u8, usize);

#[derive(Sendable)]
struct Note<'a> {
    hits: &'a Cell<u32>,
    text: String,
    pages: u16,
}

// Each error points at its field or, on some compilers, at the derive:
// either way it names the field's type.
//~? ERROR E0277 "*mut u8"
//~? ERROR E0277 "Cell<u32>"

fn main() {
    let lease = Lease(std::ptr::null_mut(), 0);
    let hits = Cell::new(1);
    let note = Note {
        hits: &hits,
        text: String::from("tea"),
        pages: 2,
    };
    println!(
        "{:?} {} {} {} {}",
        lease.0,
        lease.1,
        note.hits.get(),
        note.text,
        note.pages
    );
}
