//! Proves enforcement: the derive checks fields whose type mentions a type
//! parameter too. `Rc<T>` is not `Sendable` for any `T`, so a generic struct
//! that holds one does not derive, even though `T` itself may be
//! `Sendable`: bounding the parameters is not enough.
use send_marker::Sendable;
use std::rc::Rc;

#[derive(Sendable)]
struct Cached<T> {
    value: T,
    shared: Rc<T>,
}

// The error points at the field or, on some compilers, at the derive:
// either way it names the field's type.
//~? ERROR E0277 "Rc<T>"

fn main() {
    let cached = Cached {
        value: 1u8,
        shared: Rc::new(2u8),
    };
    println!("{} {}", cached.value, cached.shared);
}
