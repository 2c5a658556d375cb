//! Proves enforcement: code outside the crate cannot write a struct literal
//! of `UnicastAddr`, so it cannot wrap an address it did not check. The
//! literal here is `UnicastAddr { ..host }`: it names no field, so it has no
//! type error whatever the private fields are (their names, their types, how
//! many), and rustc refuses it for the one reason that matters, a private
//! field (E0451). With every field public it compiles, and the case fails.
//! (rustc reports privacy errors only once no type error is left, so a
//! literal that gave a field a value could fail for its type instead.)
use std::net::Ipv6Addr;
use witness_types::UnicastAddr;

fn main() {
    let host = UnicastAddr::new(Ipv6Addr::LOCALHOST).expect("::1 is a host");
    let copy = UnicastAddr { ..host }; //~ ERROR E0451
    println!("{copy:?}");
}
