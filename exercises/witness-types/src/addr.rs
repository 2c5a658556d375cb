//! Witnesses for the two kinds of IPv6 address the network uses.
//!
//! **Invariant.** A [`UnicastAddr`] holds an IPv6 address of one interface:
//! not the unspecified address `::`, not a multicast address (`ff00::/8`),
//! and not an IPv4-mapped address (`::ffff:0:0/96`), which stands for an
//! IPv4 address. A [`MulticastAddr`] holds an address in `ff00::/8`.
//!
//! Each property is decided by the address alone, which is what lets a
//! witness promise it. That is why the addresses are IPv6: whether an IPv4
//! address such as `192.168.1.255` names one host or a whole subnet (its
//! directed broadcast) depends on the subnet it is used in, which the
//! address does not say; an IPv4-mapped address carries the same doubt.
//!
//! This module is meant to be the only code that builds either type, so
//! that holding one is proof that its address was checked. Today it is not:
//! the fields are public, `new` does not check yet, and `new_unchecked` is
//! an ordinary safe function.

use std::fmt;
use std::net::Ipv6Addr;

/// An IPv6 address a datagram can be sent to: one interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnicastAddr {
    // TODO(enforcement): a public field lets anyone wrap any address. Make
    // it private.
    /// The address.
    pub addr: Ipv6Addr,
}

impl UnicastAddr {
    /// `addr` as a unicast address, or `None` if it is `::`, multicast or
    /// IPv4-mapped.
    pub fn new(addr: Ipv6Addr) -> Option<Self> {
        // TODO(enforcement): the check of the module's invariant.
        let _ = addr;
        todo!()
    }

    /// `addr` as a unicast address, without the check.
    // TODO(enforcement): anyone can call this with any address. Make it an
    // `unsafe fn` and write its `# Safety` section.
    pub const fn new_unchecked(addr: Ipv6Addr) -> Self {
        UnicastAddr { addr }
    }

    /// The address.
    pub const fn get(self) -> Ipv6Addr {
        self.addr
    }
}

impl fmt::Display for UnicastAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.addr.fmt(f)
    }
}

/// An IPv6 multicast group address (`ff00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MulticastAddr {
    // TODO(enforcement): make it private.
    /// The address.
    pub addr: Ipv6Addr,
}

impl MulticastAddr {
    /// The group of all nodes on the local link, `ff02::1`.
    pub const ALL_NODES: MulticastAddr = MulticastAddr {
        addr: Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1),
    };

    /// `addr` as a multicast group, or `None` if it is not in `ff00::/8`.
    pub fn new(addr: Ipv6Addr) -> Option<Self> {
        // TODO(enforcement): the check of the module's invariant.
        let _ = addr;
        todo!()
    }

    /// `addr` as a multicast group, without the check.
    // TODO(enforcement): make it an `unsafe fn` with a `# Safety` section.
    pub const fn new_unchecked(addr: Ipv6Addr) -> Self {
        MulticastAddr { addr }
    }

    /// The address.
    pub const fn get(self) -> Ipv6Addr {
        self.addr
    }
}

impl fmt::Display for MulticastAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.addr.fmt(f)
    }
}
