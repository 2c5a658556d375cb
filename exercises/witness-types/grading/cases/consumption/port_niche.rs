//! Proves consumption: the compiler relies on the port invariant too. A
//! `Port` is a `NonZeroU16` inside, so `Option<Port>` uses zero for `None`
//! and is as small as a `u16`.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    port: usize,
    option_of_port: usize,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    use std::mem::size_of;
    use witness_types::Port;
    Seen {
        port: size_of::<Port>(),
        option_of_port: size_of::<Option<Port>>(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_eq!(seen.port, 2, "a Port must be as small as a u16");
    assert_eq!(
        seen.option_of_port, 2,
        "Option<Port> must be 2 bytes: keep the number in a NonZeroU16"
    );
}
