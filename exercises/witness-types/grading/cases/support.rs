//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! Every address, port and payload a case uses is drawn from the judge's
//! seed ([`Draw`]), so the values change from run to run while every case
//! runs the same scenario. The observing program records what the learner's
//! code returned as plain data (addresses as text, ports as numbers,
//! datagrams as [`DatagramSeen`]); the judge checks that data against the
//! seed with its own reading of the invariants ([`is_unicast`],
//! [`is_multicast`]), never with the learner's.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;
use xsafe_case::{Rng, Seed};

/// Whether `addr` is in the unicast class of the exercise: not `0.0.0.0`,
/// first octet below 224. The judge's own reading of the invariant.
pub fn is_unicast(addr: Ipv4Addr) -> bool {
    !addr.is_unspecified() && addr.octets()[0] < 224
}

/// Whether `addr` is in `224.0.0.0/4`.
pub fn is_multicast(addr: Ipv4Addr) -> bool {
    (224..=239).contains(&addr.octets()[0])
}

/// Draws the inputs of a case from its seed. The observing program and
/// the judge make the same draws in the same order, so they see the same
/// values.
pub struct Draw(Rng);

impl Draw {
    /// The draws of `seed`; `stream` tells apart independent draws of one
    /// case.
    pub fn new(seed: Seed, stream: u64) -> Draw {
        Draw(Rng::with_seed(
            seed.0 ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        ))
    }

    /// An address whose first octet is in `first`.
    pub fn addr_in(&mut self, first: std::ops::RangeInclusive<u8>) -> Ipv4Addr {
        Ipv4Addr::new(
            self.0.u8(first),
            self.0.u8(..),
            self.0.u8(..),
            self.0.u8(1..=254),
        )
    }

    /// `count` distinct unicast addresses of one host each.
    pub fn hosts(&mut self, count: usize) -> Vec<Ipv4Addr> {
        let mut hosts: Vec<Ipv4Addr> = Vec::new();
        while hosts.len() < count {
            let host = self.addr_in(1..=223);
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
        hosts
    }

    /// `count` distinct multicast groups other than `224.0.0.1`.
    pub fn groups(&mut self, count: usize) -> Vec<Ipv4Addr> {
        let mut groups: Vec<Ipv4Addr> = Vec::new();
        while groups.len() < count {
            let group = self.addr_in(224..=239);
            if !groups.contains(&group) && group != Ipv4Addr::new(224, 0, 0, 1) {
                groups.push(group);
            }
        }
        groups
    }

    /// `count` distinct port numbers, none zero.
    pub fn ports(&mut self, count: usize) -> Vec<u16> {
        let mut ports: Vec<u16> = Vec::new();
        while ports.len() < count {
            let port = self.0.u16(1..);
            if !ports.contains(&port) {
                ports.push(port);
            }
        }
        ports
    }

    /// `count` distinct endpoints.
    pub fn endpoints(&mut self, count: usize) -> Vec<EndpointSeen> {
        let hosts = self.hosts(count);
        let ports = self.ports(count);
        hosts
            .into_iter()
            .zip(ports)
            .map(|(host, port)| (host.to_string(), port))
            .collect()
    }

    /// A payload of `len` random bytes.
    pub fn payload(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.0.u8(..)).collect()
    }

    /// A number in `range`.
    pub fn usize(&mut self, range: std::ops::RangeInclusive<usize>) -> usize {
        self.0.usize(range)
    }

    /// The generator itself, for draws this helper does not offer.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.0
    }
}

/// An endpoint as recorded: the address as text, and the port.
pub type EndpointSeen = (String, u16);

/// A datagram as the network recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatagramSeen {
    /// The sender's endpoint.
    pub from: EndpointSeen,
    /// The destination.
    pub to: EndpointSeen,
    /// What was sent.
    pub payload: Vec<u8>,
}

/// `endpoints`, sorted, to compare lists whose order does not matter.
pub fn sorted(endpoints: &[EndpointSeen]) -> Vec<EndpointSeen> {
    let mut endpoints = endpoints.to_vec();
    endpoints.sort();
    endpoints
}

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs: the learner's crate.
#[cfg(not(xsafe_judge))]
mod observe {
    use super::{DatagramSeen, EndpointSeen};
    use witness_types::{Endpoint, MulticastAddr, Network, Port, UnicastAddr};

    /// The endpoint `(address, port)` as the learner's types; panics, with
    /// what was refused, if `new` refuses a valid address or port.
    pub fn endpoint((addr, port): &EndpointSeen) -> Endpoint {
        let parsed = addr.parse().expect("the case draws valid addresses");
        Endpoint {
            addr: UnicastAddr::new(parsed)
                .unwrap_or_else(|| panic!("UnicastAddr::new refused the unicast address {addr}")),
            port: Port::new(*port).unwrap_or_else(|| panic!("Port::new refused the port {port}")),
        }
    }

    /// The multicast group `addr`; panics if `MulticastAddr::new` refuses it.
    pub fn group(addr: std::net::Ipv4Addr) -> MulticastAddr {
        MulticastAddr::new(addr)
            .unwrap_or_else(|| panic!("MulticastAddr::new refused the group {addr}"))
    }

    /// An endpoint as recorded.
    pub fn seen(endpoint: Endpoint) -> EndpointSeen {
        (endpoint.addr.get().to_string(), endpoint.port.get())
    }

    /// Every datagram the network carried, as recorded.
    pub fn sent(net: &Network) -> Vec<DatagramSeen> {
        net.sent()
            .into_iter()
            .map(|datagram| DatagramSeen {
                from: seen(datagram.from),
                to: seen(datagram.to),
                payload: datagram.payload,
            })
            .collect()
    }

    /// The endpoints the network says are bound, as recorded.
    pub fn bound(net: &Network) -> Vec<EndpointSeen> {
        net.bound().into_iter().map(seen).collect()
    }
}
