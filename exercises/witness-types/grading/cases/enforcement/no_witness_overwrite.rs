//! Proves enforcement: code outside the crate cannot change the address
//! inside a checked witness: the address is not a field anyone outside can
//! write (private, E0616; or private under another name, E0609 or E0615).
use std::net::Ipv6Addr;
use witness_types::{MulticastAddr, UnicastAddr};

fn main() {
    let mut host = UnicastAddr::new(Ipv6Addr::LOCALHOST).expect("a host");
    host.addr = Ipv6Addr::UNSPECIFIED; //~ ERROR E0616|E0609|E0615
    let mut group = MulticastAddr::ALL_NODES;
    group.addr = Ipv6Addr::LOCALHOST; //~ ERROR E0616|E0609|E0615
    println!("{host} {group}");
}
