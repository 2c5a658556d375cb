//! Proves the definition: unlike std's `Send`, `Sendable` is not an auto
//! trait. A struct of plain numbers is not `Sendable` until its author
//! derives or implements it: the property is only ever granted on purpose.
use send_marker::Sendable;

// Reports a type that is not `Sendable` in this file's words.
#[diagnostic::on_unimplemented(message = "`{Self}` is not `Sendable`", label = "not `Sendable`")]
trait MustBeSendable: Sendable {}

#[diagnostic::do_not_recommend]
impl<T: ?Sized + Sendable> MustBeSendable for T {}

fn assert_sendable<T: MustBeSendable>(value: T) -> T {
    value
}

struct Point {
    x: u32,
    y: u32,
}

fn main() {
    let point = assert_sendable(Point { x: 1, y: 2 }); //~ ERROR E0277
    println!("{} {}", point.x, point.y);
}
