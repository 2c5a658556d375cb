//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the behaviour tests.
#![allow(dead_code)]

use std::net::Ipv4Addr;
use witness_types::{Endpoint, MulticastAddr, Port, UnicastAddr};

/// The unicast address `a.b.c.d`; panics if it is not one.
pub fn unicast(a: u8, b: u8, c: u8, d: u8) -> UnicastAddr {
    UnicastAddr::new(Ipv4Addr::new(a, b, c, d))
        .unwrap_or_else(|| panic!("UnicastAddr::new refused the unicast address {a}.{b}.{c}.{d}"))
}

/// The multicast group `a.b.c.d`; panics if it is not one.
pub fn group(a: u8, b: u8, c: u8, d: u8) -> MulticastAddr {
    MulticastAddr::new(Ipv4Addr::new(a, b, c, d))
        .unwrap_or_else(|| panic!("MulticastAddr::new refused the multicast address {a}.{b}.{c}.{d}"))
}

/// The endpoint `10.0.0.HOST:PORT`.
pub fn endpoint(host: u8, port: u16) -> Endpoint {
    Endpoint {
        addr: unicast(10, 0, 0, host),
        port: Port::new(port).unwrap_or_else(|| panic!("Port::new refused the port {port}")),
    }
}
