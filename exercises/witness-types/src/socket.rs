//! Datagram sockets whose state is a type.
//!
//! **Invariant.** A socket's type says its state: a `Socket<Unbound>` has
//! no address, a `Socket<Bound>` has a local endpoint, and a
//! `Socket<Connected>` has a local endpoint and a peer. Each method exists
//! only on the states where it can succeed, and [`close`](Socket::close)
//! consumes the socket, so no code can use a closed socket.
//!
//! Today the type parameter promises nothing: every method exists in every
//! state, and checks the state at run time, in `Option` fields and a
//! `closed` flag, and panics when it is wrong.

use crate::{MulticastAddr, Port, UnicastAddr};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::rc::Rc;

/// Where a datagram comes from or goes to: one host's port.
///
/// Its fields are public, because they need no protecting once the address
/// and the port are witnesses.
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
            local: None,
            peer: None,
            groups: Vec::new(),
            closed: Cell::new(false),
            state: PhantomData,
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
}

/// A datagram socket in state `S`: [`Unbound`], [`Bound`] or [`Connected`].
#[derive(Debug)]
pub struct Socket<S> {
    // TODO(consumption): once each state is a type, these run-time records
    // of the state are not needed: let each state type hold what that
    // state has (a bound socket has a local endpoint, not an Option of one).
    net: Network,
    local: Option<Endpoint>,
    peer: Option<Endpoint>,
    groups: Vec<MulticastAddr>,
    closed: Cell<bool>,
    state: PhantomData<S>,
}

/// The state of a new socket: no address yet.
#[derive(Debug)]
pub enum Unbound {}

/// The state of a socket with a local endpoint: it can send to anyone and
/// join multicast groups.
#[derive(Debug)]
pub enum Bound {}

/// The state of a socket with a fixed peer.
#[derive(Debug)]
pub enum Connected {}

// TODO(enforcement): every method below exists in every state. Give each
// one its own `impl Socket<State>` block: `bind` for `Unbound`; `local`,
// `send_to`, `join_group`, `groups`, `connect` and `close` for `Bound`;
// `local`, `peer`, `send` and `close` for `Connected`.
impl<S> Socket<S> {
    fn check_open(&self) {
        if self.closed.get() {
            panic!("the socket is closed");
        }
    }

    fn into_state<T>(self) -> Socket<T> {
        Socket {
            net: self.net,
            local: self.local,
            peer: self.peer,
            groups: self.groups,
            closed: self.closed,
            state: PhantomData,
        }
    }

    /// Binds the socket to `local`.
    pub fn bind(mut self, local: Endpoint) -> Socket<Bound> {
        self.check_open();
        if self.local.is_some() {
            panic!("bind: the socket is bound already");
        }
        self.net.wire.borrow_mut().bound.push(local);
        self.local = Some(local);
        self.into_state()
    }

    /// The endpoint the socket is bound to.
    pub fn local(&self) -> Endpoint {
        self.local.expect("local: the socket is not bound")
    }

    /// The peer the socket sends to.
    pub fn peer(&self) -> Endpoint {
        self.peer.expect("peer: the socket is not connected")
    }

    /// Sends `payload` to `to`, and returns how many bytes were sent.
    pub fn send_to(&mut self, to: Endpoint, payload: &[u8]) -> usize {
        // TODO(consumption): record the datagram on the network, with no
        // check left: the state and the address are known.
        let _ = (to, payload);
        todo!("Socket::send_to")
    }

    /// Joins the multicast group `group`; joining a group twice is joining
    /// it once.
    pub fn join_group(&mut self, group: MulticastAddr) {
        // TODO(consumption): `group` is a `MulticastAddr`, so there is
        // nothing to check about it.
        let _ = group;
        todo!("Socket::join_group")
    }

    /// The groups joined so far, in the order they were joined.
    pub fn groups(&self) -> &[MulticastAddr] {
        &self.groups
    }

    /// Fixes the peer: the socket then sends only to `peer`.
    pub fn connect(mut self, peer: Endpoint) -> Socket<Connected> {
        self.check_open();
        if self.local.is_none() {
            panic!("connect: bind the socket first");
        }
        if self.peer.is_some() {
            panic!("connect: the socket is connected already");
        }
        self.peer = Some(peer);
        self.into_state()
    }

    /// Sends `payload` to the peer, and returns how many bytes were sent.
    pub fn send(&mut self, payload: &[u8]) -> usize {
        // TODO(consumption): send to the peer, which a connected socket
        // always has.
        let _ = payload;
        todo!("Socket::send")
    }

    /// Closes the socket and frees its endpoint.
    // TODO(enforcement): take the socket by value (`close(self)`), so that
    // nothing can use it afterwards; the `closed` flag can then go.
    pub fn close(&self) {
        self.check_open();
        self.closed.set(true);
        // TODO(consumption): free the endpoint on the network.
    }
}
