//! Proves enforcement: code outside the crate cannot wrap an address it did
//! not check: the field `addr` of `UnicastAddr` and of `MulticastAddr` must
//! be private.
use std::net::Ipv4Addr;
use witness_types::{MulticastAddr, UnicastAddr};

fn main() {
    let host = UnicastAddr { addr: Ipv4Addr::BROADCAST }; //~ ERROR E0451
    let group = MulticastAddr { addr: Ipv4Addr::LOCALHOST }; //~ ERROR E0451
    println!("{host:?} {group:?}");
}
