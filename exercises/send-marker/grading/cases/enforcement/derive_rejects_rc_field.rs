//! Proves enforcement: `#[derive(Sendable)]` checks every field. A struct
//! that holds an `Rc` does not derive, and the error points at the field
//! that stops it.
use send_marker::Sendable;
use std::rc::Rc;

#[derive(Sendable)]
struct Session {
    id: u32,
    cache: Rc<String>,
}

// The error points at the field or, on some compilers, at the derive:
// either way it names the field's type.
//~? ERROR E0277 "Rc<String>"

fn main() {
    let session = Session {
        id: 1,
        cache: Rc::new(String::from("warm")),
    };
    println!("{} {}", session.id, session.cache);
}
