//! Witnesses for the two classes of IPv4 address the network uses.
//!
//! **Invariant.** A [`UnicastAddr`] holds an address that is not
//! `0.0.0.0` and whose first octet is below 224 (so neither multicast, nor
//! reserved, nor the broadcast address). A [`MulticastAddr`] holds an
//! address whose first octet is in `224..=239` (`224.0.0.0/4`).
//!
//! This module is the only code that builds either type: the fields are
//! private, `new` checks, and `new_unchecked` is `unsafe`, so a caller that
//! skips the check has to say so and take over the proof obligation.

use std::fmt;
use std::net::Ipv4Addr;

/// An IPv4 address a datagram can be sent to: one host.
///
/// It can only be built by [`UnicastAddr::new`], which checks, or by the
/// `unsafe` [`UnicastAddr::new_unchecked`]; so holding one is proof that the
/// address is unicast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnicastAddr {
    addr: Ipv4Addr,
}

/// Whether `addr` is in the unicast class of this module's invariant.
const fn is_unicast(addr: Ipv4Addr) -> bool {
    let [first, ..] = addr.octets();
    first < 224 && !addr.is_unspecified()
}

/// Whether `addr` is in `224.0.0.0/4`.
const fn is_multicast(addr: Ipv4Addr) -> bool {
    let [first, ..] = addr.octets();
    224 <= first && first <= 239
}

impl UnicastAddr {
    /// `addr` as a unicast address, or `None` if it is `0.0.0.0`, multicast,
    /// reserved or the broadcast address.
    pub fn new(addr: Ipv4Addr) -> Option<Self> {
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
    /// `addr` must satisfy the check of [`UnicastAddr::new`]: not
    /// `0.0.0.0`, and a first octet below 224. Code that receives a
    /// `UnicastAddr` relies on it without checking again.
    pub const unsafe fn new_unchecked(addr: Ipv4Addr) -> Self {
        debug_assert!(is_unicast(addr));
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
///
/// It can only be built by [`MulticastAddr::new`], which checks, or by the
/// `unsafe` [`MulticastAddr::new_unchecked`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MulticastAddr {
    addr: Ipv4Addr,
}

impl MulticastAddr {
    /// The group of all hosts on the local network, `224.0.0.1`.
    // SAFETY: the first octet, 224, is in 224..=239.
    pub const ALL_HOSTS: MulticastAddr =
        unsafe { MulticastAddr::new_unchecked(Ipv4Addr::new(224, 0, 0, 1)) };

    /// `addr` as a multicast group, or `None` if it is not in `224.0.0.0/4`.
    pub fn new(addr: Ipv4Addr) -> Option<Self> {
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
    /// The first octet of `addr` must be in `224..=239`, as
    /// [`MulticastAddr::new`] checks.
    pub const unsafe fn new_unchecked(addr: Ipv4Addr) -> Self {
        debug_assert!(is_multicast(addr));
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
