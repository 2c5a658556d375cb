//! Proves enforcement: a derived generic type is `Sendable` exactly when its
//! parameter is, at compile time: `Labeled<u32>` is accepted where a
//! `Sendable` type is required, and `Labeled<Rc<u32>>` is refused.
use send_marker::Sendable;
use std::rc::Rc;

// Reports a type that is not `Sendable` in this file's words.
#[diagnostic::on_unimplemented(message = "`{Self}` is not `Sendable`", label = "not `Sendable`")]
trait MustBeSendable: Sendable {}

#[diagnostic::do_not_recommend]
impl<T: ?Sized + Sendable> MustBeSendable for T {}

fn assert_sendable<T: MustBeSendable>(value: T) -> T {
    value
}

#[derive(Sendable)]
struct Labeled<T> {
    label: String,
    value: T,
}

fn main() {
    let number = assert_sendable(Labeled {
        label: String::from("number"),
        value: 7u32,
    });
    let shared = assert_sendable(Labeled {
        label: String::from("shared"),
        value: Rc::new(7u32), //~ ERROR E0277
    });
    println!(
        "{} {} {} {}",
        number.label, number.value, shared.label, shared.value
    );
}
