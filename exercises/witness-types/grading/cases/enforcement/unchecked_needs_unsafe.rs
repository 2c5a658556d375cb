//! Proves enforcement: the constructors that skip the check are `unsafe`,
//! so safe code cannot call them; a caller must write `unsafe` and take over
//! the proof that the address is of the right class.
use std::net::Ipv6Addr;
use witness_types::{MulticastAddr, UnicastAddr};

fn main() {
    let host = UnicastAddr::new_unchecked(Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1)); //~ ERROR E0133
    let group = MulticastAddr::new_unchecked(Ipv6Addr::LOCALHOST); //~ ERROR E0133
    println!("{host:?} {group:?}");
}
