//! Proves the definition: the check happens at the boundary and may refuse.
//! `UnicastAddr::new` returns an `Option`, so an address that was not
//! checked cannot be taken for a unicast one.
use std::net::Ipv6Addr;
use witness_types::UnicastAddr;

fn main() {
    let host: UnicastAddr = UnicastAddr::new(Ipv6Addr::LOCALHOST); //~ ERROR E0308
    println!("{host:?}");
}
