//! Proves consumption: the compiler relies on the port invariant too. A
//! `Port` is a `NonZeroU16` inside, so `Option<Port>` uses zero for `None`
//! and is as small as a `u16`.
use std::mem::size_of;
use witness_types::Port;

#[test]
fn option_of_port_costs_nothing() {
    assert_eq!(size_of::<Port>(), size_of::<u16>());
    assert_eq!(size_of::<Option<Port>>(), size_of::<u16>(), "Option<Port> must be 2 bytes: keep the number in a NonZeroU16");
}
