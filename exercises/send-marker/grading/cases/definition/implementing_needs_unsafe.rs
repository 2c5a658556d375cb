//! Proves the definition: `Sendable` is an `unsafe trait`, so granting it is
//! a promise that must be written `unsafe impl`. A plain `impl` is refused,
//! so nobody grants the property by accident.
use send_marker::Sendable;

/// A type whose author did not stop to check the contract.
struct Counter {
    count: u32,
}

impl Sendable for Counter {} //~ ERROR E0200

fn main() {
    let counter = Counter { count: 1 };
    println!("{}", counter.count);
}
