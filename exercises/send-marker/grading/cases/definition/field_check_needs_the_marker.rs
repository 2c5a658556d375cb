//! Proves the definition: the check that `#[derive(Sendable)]` writes for
//! each field (`FieldIsSendable`) cannot be granted on its own. It is
//! public, because the derive's code runs in its user's crate; if a crate
//! could implement it for a type of its own, a struct holding that type
//! would derive `Sendable` without anyone writing `unsafe`, whatever the
//! type holds. Every impl of it needs the marker itself.
use send_marker::__derive::FieldIsSendable;
use std::rc::Rc;

/// Holds an `Rc`: it must not move to another thread.
struct Cache {
    shared: Rc<String>,
}

impl FieldIsSendable for Cache {} //~ ERROR E0277

fn main() {
    let cache = Cache {
        shared: Rc::new(String::from("warm")),
    };
    println!("{}", cache.shared);
}
