//! Witnesses for the two classes of IPv4 address the network uses.
//!
//! **Invariant.** A [`UnicastAddr`] holds an address that is not
//! `0.0.0.0` and whose first octet is below 224 (so neither multicast, nor
//! reserved, nor the broadcast address). A [`MulticastAddr`] holds an
//! address whose first octet is in `224..=239` (`224.0.0.0/4`).
//!
//! This module is meant to be the only code that builds either type, so
//! that holding one is proof that its address was checked. Today it is not:
//! the fields are public, `new` does not check yet, and `new_unchecked` is
//! an ordinary safe function.

use std::fmt;
use std::net::Ipv4Addr;

/// An IPv4 address a datagram can be sent to: one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnicastAddr {
    // TODO(enforcement): a public field lets anyone wrap any address. Make
    // it private.
    /// The address.
    pub addr: Ipv4Addr,
}

impl UnicastAddr {
    /// `addr` as a unicast address, or `None` if it is `0.0.0.0`, multicast,
    /// reserved or the broadcast address.
    pub fn new(addr: Ipv4Addr) -> Option<Self> {
        // TODO(enforcement): the check of the module's invariant.
        let _ = addr;
        todo!()
    }

    /// `addr` as a unicast address, without the check.
    // TODO(enforcement): anyone can call this with any address. Make it an
    // `unsafe fn` and write its `# Safety` section.
    pub const fn new_unchecked(addr: Ipv4Addr) -> Self {
        UnicastAddr { addr }
    }

    /// The address.
    pub const fn get(self) -> Ipv4Addr {
        self.addr
    }
}

impl fmt::Display for UnicastAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.addr.fmt(f)
    }
}

/// An IPv4 multicast group address (`224.0.0.0/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MulticastAddr {
    // TODO(enforcement): make it private.
    /// The address.
    pub addr: Ipv4Addr,
}

impl MulticastAddr {
    /// The group of all hosts on the local network, `224.0.0.1`.
    pub const ALL_HOSTS: MulticastAddr = MulticastAddr {
        addr: Ipv4Addr::new(224, 0, 0, 1),
    };

    /// `addr` as a multicast group, or `None` if it is not in `224.0.0.0/4`.
    pub fn new(addr: Ipv4Addr) -> Option<Self> {
        // TODO(enforcement): the check of the module's invariant.
        let _ = addr;
        todo!()
    }

    /// `addr` as a multicast group, without the check.
    // TODO(enforcement): make it an `unsafe fn` with a `# Safety` section.
    pub const fn new_unchecked(addr: Ipv4Addr) -> Self {
        MulticastAddr { addr }
    }

    /// The address.
    pub const fn get(self) -> Ipv4Addr {
        self.addr
    }
}

impl fmt::Display for MulticastAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.addr.fmt(f)
    }
}
