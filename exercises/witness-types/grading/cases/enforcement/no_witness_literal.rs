//! Proves enforcement: code outside the crate cannot wrap an address it did
//! not check as a `UnicastAddr`: no struct literal of it compiles. The
//! literal may be refused because the field is private (E0451), because the
//! private field has another name (E0560), or because the type has private
//! fields the literal cannot give (an error without a code): the annotation
//! asks for an error about a field of `UnicastAddr`, so a literal refused
//! only for a type mismatch (a public field of another type) does not pass.
//! Each witness has its own case: rustc reports privacy errors only once
//! every other error of the program is gone, so one literal's error could
//! hide the other's.
use std::net::Ipv6Addr;
use witness_types::UnicastAddr;

fn main() {
    let host = UnicastAddr { addr: Ipv6Addr::UNSPECIFIED }; //~ ERROR "field" "UnicastAddr"
    println!("{host:?}");
}
