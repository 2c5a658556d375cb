//! Proves consumption: the work is a function pointer, `fn(T) -> R`, so it
//! cannot carry data past the `Sendable` check by capturing it. A closure
//! that captures an `Rc` is not a function pointer; only the payload
//! travels, and the payload is checked.
use std::rc::Rc;

fn main() {
    let shared = Rc::new(5u32);
    let work: fn(u32) -> u32 = move |n| n + *shared; //~ ERROR E0308
    let handle = send_marker::spawn(1u32, work);
    println!("{}", handle.join());
}
