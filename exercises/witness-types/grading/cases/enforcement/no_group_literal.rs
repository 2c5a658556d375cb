//! Proves enforcement: code outside the crate cannot write a struct literal
//! of `MulticastAddr`, so it cannot wrap an address it did not check. As in
//! `no_witness_literal`, the literal `MulticastAddr { ..group }` names no
//! field, so whatever the private fields' names and types it has no type
//! error, and rustc refuses it for a private field (E0451). With every field
//! public it compiles, and the case fails.
use witness_types::MulticastAddr;

fn main() {
    let group = MulticastAddr::ALL_NODES;
    let copy = MulticastAddr { ..group }; //~ ERROR E0451
    println!("{copy:?}");
}
