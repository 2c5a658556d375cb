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
//! This module is the only code that builds either type: the fields are
//! private, `new` checks, and `new_unchecked` is `unsafe`, so a caller that
//! skips the check has to say so and take over the proof obligation.

use std::fmt;
use std::net::Ipv6Addr;

/// An IPv6 address a datagram can be sent to: one interface.
///
/// It can only be built by [`UnicastAddr::new`], which checks, or by the
/// `unsafe` [`UnicastAddr::new_unchecked`]; so holding one is proof that the
/// address is unicast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnicastAddr {
    addr: Ipv6Addr,
}

/// Whether `addr` is in the unicast class of this module's invariant.
const fn is_unicast(addr: Ipv6Addr) -> bool {
    !addr.is_unspecified() && !addr.is_multicast() && addr.to_ipv4_mapped().is_none()
}

/// Whether `addr` is in `ff00::/8`.
const fn is_multicast(addr: Ipv6Addr) -> bool {
    addr.octets()[0] == 0xff
}

impl UnicastAddr {
    /// `addr` as a unicast address, or `None` if it is `::`, multicast or
    /// IPv4-mapped.
    pub fn new(addr: Ipv6Addr) -> Option<Self> {
        if is_unicast(addr) {
            Some(UnicastAddr { addr })
        } else {
            None
        }
    }

    /// `addr` as a unicast address, without the check.
    ///
    /// # Safety
    ///
    /// `addr` must pass the check of [`UnicastAddr::new`]: not `::`, not in
    /// `ff00::/8`, not in `::ffff:0:0/96`. Code that receives a
    /// `UnicastAddr` relies on it without checking again.
    pub const unsafe fn new_unchecked(addr: Ipv6Addr) -> Self {
        debug_assert!(is_unicast(addr));
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
///
/// It can only be built by [`MulticastAddr::new`], which checks, or by the
/// `unsafe` [`MulticastAddr::new_unchecked`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MulticastAddr {
    addr: Ipv6Addr,
}

impl MulticastAddr {
    /// The group of all nodes on the local link, `ff02::1`.
    // SAFETY: the first octet, 0xff, puts it in ff00::/8.
    pub const ALL_NODES: MulticastAddr =
        unsafe { MulticastAddr::new_unchecked(Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1)) };

    /// `addr` as a multicast group, or `None` if it is not in `ff00::/8`.
    pub fn new(addr: Ipv6Addr) -> Option<Self> {
        if is_multicast(addr) {
            Some(MulticastAddr { addr })
        } else {
            None
        }
    }

    /// `addr` as a multicast group, without the check.
    ///
    /// # Safety
    ///
    /// The first octet of `addr` must be `0xff`, as [`MulticastAddr::new`]
    /// checks.
    pub const unsafe fn new_unchecked(addr: Ipv6Addr) -> Self {
        debug_assert!(is_multicast(addr));
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
