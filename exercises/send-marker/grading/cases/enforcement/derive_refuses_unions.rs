//! Proves enforcement: `#[derive(Sendable)]` refuses a union with an error
//! of its own. Which field a union holds is known only to the code that
//! wrote it, so no check of "every field" can say its value may move: the
//! author must write the `unsafe impl` and say why. A derive that checks
//! the union's fields like a struct's would grant the property to a type
//! whose actual contents it cannot see. The error may be on any line, and
//! needs to say what it refuses ("union", or the trait's name).
use send_marker::Sendable;

#[derive(Sendable)]
union Bits {
    whole: u32,
    halves: [u16; 2],
}
//~? ERROR "union"|"Union"|"Sendable"

fn main() {
    let bits = Bits { whole: 7 };
    // SAFETY: `whole` was written, and every bit pattern is a `u32`.
    let _ = unsafe { bits.whole };
}
