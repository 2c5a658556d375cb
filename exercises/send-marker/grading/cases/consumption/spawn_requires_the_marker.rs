//! Proves consumption: `send_marker::spawn` itself, called directly, asks
//! for the marker on both what goes and what comes back. A payload that std
//! would let move but that nobody declared `Sendable` is refused, as `spawn`
//! relies on the marker and not on std's `Send`; and so is a result that
//! holds an `Rc`, which would come back to this thread while the worker's
//! clone stayed behind. A `spawn` that dropped a bound, and a wrapper that
//! is `Send` whatever it holds, would accept them.
use std::rc::Rc;

/// Plain numbers: std's `Send` holds, but nobody declared it `Sendable`.
struct Point {
    x: u32,
    y: u32,
}

fn norm(point: Point) -> u32 {
    point.x + point.y
}

fn share(words: String) -> Rc<String> {
    Rc::new(words)
}

fn main() {
    let norm = send_marker::spawn(Point { x: 3, y: 4 }, norm); //~ ERROR E0277 "Point"
    let shared = send_marker::spawn(String::from("tea"), share); //~ ERROR E0277 "Rc<String>"
    println!("{} {}", norm.join(), shared.join());
}
