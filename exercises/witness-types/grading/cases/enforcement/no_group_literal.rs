//! Proves enforcement: code outside the crate cannot wrap an address it did
//! not check as a `MulticastAddr`: no struct literal of it compiles, whether
//! the field is private (E0451), private under another name (E0560), or the
//! type has private fields the literal cannot give (an error without a
//! code). A literal refused only for a type mismatch does not pass.
use std::net::Ipv6Addr;
use witness_types::MulticastAddr;

fn main() {
    let group = MulticastAddr { addr: Ipv6Addr::LOCALHOST }; //~ ERROR "field" "MulticastAddr"
    println!("{group:?}");
}
