//! Datagram sockets whose state is a type.
//!
//! **Invariant.** A socket's type says its state: a `Socket<Unbound>` has
//! no address, a `Socket<Bound>` has a local endpoint, and a
//! `Socket<Connected>` has a local endpoint and a peer. Each method exists
//! only on the states where it can succeed, and [`close`](Socket::close)
//! consumes the socket, so no code can use a closed socket.
//!
//! This module is the only code that builds a socket or a state: their
//! fields are private, and the only way from one state to the next is a
//! method that takes the socket by value.

use crate::{MulticastAddr, Port, UnicastAddr};
use std::cell::RefCell;
use std::rc::Rc;

/// Where a datagram comes from or goes to: one host's port.
///
/// Its fields are public, because they need no protecting: each one is a
/// witness already, so every `Endpoint` anyone can write is valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// The host.
    pub addr: UnicastAddr,
    /// The port on that host.
    pub port: Port,
}

/// A datagram the network carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Datagram {
    /// The sending socket's local endpoint.
    pub from: Endpoint,
    /// The destination.
    pub to: Endpoint,
    /// What was sent.
    pub payload: Vec<u8>,
}

/// A simulated network: it records every datagram sent and every endpoint
/// bound. Clones share the same network.
#[derive(Debug, Clone, Default)]
pub struct Network {
    wire: Rc<RefCell<Wire>>,
}

#[derive(Debug, Default)]
struct Wire {
    sent: Vec<Datagram>,
    bound: Vec<Endpoint>,
}

impl Network {
    /// A network with no sockets.
    pub fn new() -> Self {
        Network::default()
    }

    /// A new socket on this network, not bound to any address yet.
    pub fn socket(&self) -> Socket<Unbound> {
        Socket {
            net: self.clone(),
            state: Unbound { _private: () },
        }
    }

    /// Every datagram sent so far, oldest first.
    pub fn sent(&self) -> Vec<Datagram> {
        self.wire.borrow().sent.clone()
    }

    /// The local endpoints of the sockets that are bound and not closed.
    pub fn bound(&self) -> Vec<Endpoint> {
        self.wire.borrow().bound.clone()
    }

    fn carry(&self, from: Endpoint, to: Endpoint, payload: &[u8]) -> usize {
        self.wire.borrow_mut().sent.push(Datagram {
            from,
            to,
            payload: payload.to_vec(),
        });
        payload.len()
    }

    fn release(&self, local: Endpoint) {
        let mut wire = self.wire.borrow_mut();
        if let Some(index) = wire.bound.iter().position(|bound| *bound == local) {
            wire.bound.swap_remove(index);
        }
    }
}

/// A datagram socket in state `S`: [`Unbound`], [`Bound`] or [`Connected`].
#[derive(Debug)]
pub struct Socket<S> {
    net: Network,
    state: S,
}

/// The state of a new socket: no address yet.
#[derive(Debug)]
pub struct Unbound {
    _private: (),
}

/// The state of a socket with a local endpoint: it can send to anyone and
/// join multicast groups.
#[derive(Debug)]
pub struct Bound {
    local: Endpoint,
    groups: Vec<MulticastAddr>,
}

/// The state of a socket with a fixed peer.
#[derive(Debug)]
pub struct Connected {
    local: Endpoint,
    peer: Endpoint,
}

impl Socket<Unbound> {
    /// Binds the socket to `local`.
    pub fn bind(self, local: Endpoint) -> Socket<Bound> {
        self.net.wire.borrow_mut().bound.push(local);
        Socket {
            net: self.net,
            state: Bound {
                local,
                groups: Vec::new(),
            },
        }
    }
}

impl Socket<Bound> {
    /// The endpoint the socket is bound to.
    pub fn local(&self) -> Endpoint {
        self.state.local
    }

    /// Sends `payload` to `to`, and returns how many bytes were sent.
    pub fn send_to(&mut self, to: Endpoint, payload: &[u8]) -> usize {
        self.net.carry(self.state.local, to, payload)
    }

    /// Joins the multicast group `group`; joining a group twice is joining
    /// it once.
    pub fn join_group(&mut self, group: MulticastAddr) {
        if !self.state.groups.contains(&group) {
            self.state.groups.push(group);
        }
    }

    /// The groups joined so far, in the order they were joined.
    pub fn groups(&self) -> &[MulticastAddr] {
        &self.state.groups
    }

    /// Fixes the peer: the socket then sends only to `peer`.
    pub fn connect(self, peer: Endpoint) -> Socket<Connected> {
        Socket {
            net: self.net,
            state: Connected {
                local: self.state.local,
                peer,
            },
        }
    }

    /// Closes the socket and frees its endpoint.
    pub fn close(self) {
        self.net.release(self.state.local);
    }
}

impl Socket<Connected> {
    /// The endpoint the socket is bound to.
    pub fn local(&self) -> Endpoint {
        self.state.local
    }

    /// The peer the socket sends to.
    pub fn peer(&self) -> Endpoint {
        self.state.peer
    }

    /// Sends `payload` to the peer, and returns how many bytes were sent.
    pub fn send(&mut self, payload: &[u8]) -> usize {
        self.net.carry(self.state.local, self.state.peer, payload)
    }

    /// Closes the socket and frees its endpoint.
    pub fn close(self) {
        self.net.release(self.state.local);
    }
}
