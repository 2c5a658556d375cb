//! Proves consumption (and enforcement): on fixed sequences of operations
//! over the whole public API (`Network::{new, default, clone, socket,
//! bound, sent}`, `bind`, `connect`, `local`, `peer`, `send_to`, `send`,
//! `join_group`, `groups`, `close` in every state, the witnesses' `new`,
//! `get`, `ALL_NODES` and `Display`, `Port::new`, `get`, parsing and
//! `Display`, `PortError`'s `Debug` and `Display`), with inputs that
//! repeat (one endpoint bound by two sockets, on one network and on two;
//! one closed while the other stays; the endpoint bound again after it was
//! freed; the same send, join or bind twice), the learner's crate answers,
//! step by step, what the reference solution answers, and its networks
//! record the same endpoints as bound (in any order) and the same
//! datagrams (in order).
use crate::support::Draw;
use serde::{Deserialize, Serialize};
use std::net::Ipv6Addr;
use xsafe_case::Seed;

/// An operation; networks, sockets, endpoints and groups by index (the
/// `n`-th made, the `n`-th drawn; group `GROUPS` is `ALL_NODES`).
#[derive(Debug, Clone, Copy)]
pub enum Op {
    Net,
    NetDefault,
    /// A clone of network `n`, which shares it.
    NetClone(usize),
    /// `socket()` on network `n`.
    Socket(usize),
    /// Socket `s` binds endpoint `e`.
    Bind(usize, usize),
    Connect(usize, usize),
    /// Socket `s` sends `len` bytes to endpoint `e`.
    SendTo(usize, usize, usize),
    /// Socket `s` sends `len` bytes to its peer.
    Send(usize, usize),
    Join(usize, usize),
    Groups(usize),
    Local(usize),
    Peer(usize),
    Close(usize),
    /// `bound()` of network `n` (in any order).
    Bound(usize),
    /// `sent()` of network `n` (oldest first).
    Sent(usize),
    /// The witnesses' `new`, `get` and `Display` on addresses of every class.
    Addresses,
    /// `Port::new`, `get`, `parse` and `Display`; `PortError`.
    Ports,
}

use Op::*;

const ENDPOINTS: usize = 4;
const GROUPS: usize = 2;

const SEQUENCES: [(&str, &[Op]); 4] = [
    (
        "two sockets, one endpoint",
        &[
            Net,
            Socket(0),
            Socket(0),
            Bind(0, 0),
            Bind(1, 0),
            Bound(0),
            Local(0),
            Close(0),
            Bound(0),
            Local(1),
            SendTo(1, 1, 5),
            Close(1),
            Bound(0),
            Socket(0),
            Bind(2, 0),
            Bound(0),
            SendTo(2, 1, 5),
            Close(2),
            Bound(0),
            Sent(0),
        ],
    ),
    (
        "bind, connect and close interleaved",
        &[
            Net,
            Socket(0),
            Socket(0),
            Socket(0),
            Socket(0),
            Bind(0, 0),
            Bind(1, 1),
            Bind(2, 2),
            Bind(3, 1),
            Bound(0),
            Connect(1, 3),
            Close(0),
            Bound(0),
            Send(1, 4),
            Send(1, 4),
            Peer(1),
            Local(1),
            Close(2),
            Bound(0),
            Close(1),
            Bound(0),
            Socket(0),
            Bind(4, 2),
            Connect(4, 2),
            Send(4, 0),
            Bound(0),
            Close(3),
            Bound(0),
            Close(4),
            Bound(0),
            Sent(0),
        ],
    ),
    (
        "groups, and networks shared by clones",
        &[
            Net,
            NetClone(0),
            NetDefault,
            Socket(0),
            Socket(1),
            Socket(2),
            Bind(0, 0),
            Bind(1, 0),
            Bind(2, 0),
            Bound(0),
            Bound(1),
            Bound(2),
            Join(0, 0),
            Join(0, 1),
            Join(0, 0),
            Join(0, GROUPS),
            Groups(0),
            Join(1, 1),
            Groups(1),
            SendTo(0, 2, 0),
            SendTo(0, 2, 0),
            SendTo(1, 3, 7),
            SendTo(2, 0, 2),
            Sent(0),
            Sent(1),
            Sent(2),
            Groups(0),
            Connect(0, 1),
            Send(0, 3),
            Close(0),
            Bound(1),
            Close(1),
            Bound(0),
            Bound(2),
            Close(2),
            Bound(2),
            Sent(1),
        ],
    ),
    ("addresses and ports", &[Addresses, Ports]),
];

/// The drawn inputs: endpoints, groups, and bytes to send.
#[derive(Debug, Clone)]
pub struct Inputs {
    endpoints: Vec<(Ipv6Addr, u16)>,
    groups: Vec<Ipv6Addr>,
    bytes: Vec<u8>,
}

fn inputs(seed: Seed) -> Inputs {
    let mut draw = Draw::new(seed, 22);
    let hosts = draw.hosts(ENDPOINTS);
    let ports = draw.ports(ENDPOINTS);
    Inputs {
        endpoints: hosts.into_iter().zip(ports).collect(),
        groups: draw.groups(GROUPS),
        bytes: draw.payload(64),
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each sequence, each step's "result => state".
    traces: Vec<Vec<String>>,
}

/// The replay, written once for either crate.
macro_rules! replay_on {
    ($krate:ident) => {
        use super::{ENDPOINTS, GROUPS, Inputs, Op};
        use ::$krate::{
            Bound, Connected, Endpoint, MulticastAddr, Network, Port, Socket, Unbound, UnicastAddr,
        };

        enum Slot {
            Gone,
            Unbound(Socket<Unbound>),
            Bound(Socket<Bound>),
            Connected(Socket<Connected>),
        }

        pub struct Model {
            nets: Vec<Network>,
            slots: Vec<Slot>,
            inputs: Inputs,
        }

        fn show(endpoint: Endpoint) -> String {
            format!("[{}]:{}", endpoint.addr.get(), endpoint.port.get())
        }

        fn sorted(endpoints: Vec<Endpoint>) -> String {
            let mut shown: Vec<String> = endpoints.into_iter().map(show).collect();
            shown.sort();
            format!("[{}]", shown.join(", "))
        }

        fn groups(groups: &[MulticastAddr]) -> String {
            let shown: Vec<String> = groups.iter().map(|group| group.get().to_string()).collect();
            format!("[{}]", shown.join(", "))
        }

        impl Model {
            pub fn new(inputs: Inputs) -> Self {
                Model {
                    nets: Vec::new(),
                    slots: Vec::new(),
                    inputs,
                }
            }

            fn endpoint(&self, index: usize) -> Endpoint {
                let (addr, port) = self.inputs.endpoints[index % ENDPOINTS];
                Endpoint {
                    addr: UnicastAddr::new(addr).unwrap_or_else(|| {
                        panic!("UnicastAddr::new refused the unicast address {addr}")
                    }),
                    port: Port::new(port)
                        .unwrap_or_else(|| panic!("Port::new refused the port {port}")),
                }
            }

            fn group(&self, index: usize) -> MulticastAddr {
                match self.inputs.groups.get(index) {
                    Some(&addr) => MulticastAddr::new(addr)
                        .unwrap_or_else(|| panic!("MulticastAddr::new refused the group {addr}")),
                    None => MulticastAddr::ALL_NODES,
                }
            }

            fn payload(&self, step: usize, len: usize) -> &[u8] {
                let start = step % 16;
                &self.inputs.bytes[start..start + len]
            }

            /// Every network's bound endpoints (in any order) and how many
            /// datagrams it carried.
            pub fn state(&self) -> String {
                let nets: Vec<String> = self
                    .nets
                    .iter()
                    .map(|net| format!("bound {} sent {}", sorted(net.bound()), net.sent().len()))
                    .collect();
                nets.join("; ")
            }

            /// Applies `op` (the `step`-th) and says what it returned.
            pub fn apply(&mut self, step: usize, op: Op) -> String {
                let wrong = |what: &str| format!("(socket not {what}: a fault of the case)");
                match op {
                    Op::Net => {
                        self.nets.push(Network::new());
                        String::new()
                    }
                    Op::NetDefault => {
                        self.nets.push(Network::default());
                        String::new()
                    }
                    Op::NetClone(net) => {
                        let copy = self.nets[net].clone();
                        self.nets.push(copy);
                        String::new()
                    }
                    Op::Socket(net) => {
                        let socket = self.nets[net].socket();
                        self.slots.push(Slot::Unbound(socket));
                        String::new()
                    }
                    Op::Bind(socket, at) => {
                        let local = self.endpoint(at);
                        match std::mem::replace(&mut self.slots[socket], Slot::Gone) {
                            Slot::Unbound(unbound) => {
                                let bound = unbound.bind(local);
                                let local = show(bound.local());
                                self.slots[socket] = Slot::Bound(bound);
                                format!("local {local}")
                            }
                            other => {
                                self.slots[socket] = other;
                                wrong("unbound")
                            }
                        }
                    }
                    Op::Connect(socket, to) => {
                        let peer = self.endpoint(to);
                        match std::mem::replace(&mut self.slots[socket], Slot::Gone) {
                            Slot::Bound(bound) => {
                                let connected = bound.connect(peer);
                                let seen = format!(
                                    "local {} peer {}",
                                    show(connected.local()),
                                    show(connected.peer())
                                );
                                self.slots[socket] = Slot::Connected(connected);
                                seen
                            }
                            other => {
                                self.slots[socket] = other;
                                wrong("bound")
                            }
                        }
                    }
                    Op::SendTo(socket, to, len) => {
                        let to = self.endpoint(to);
                        let payload = self.payload(step, len).to_vec();
                        match &mut self.slots[socket] {
                            Slot::Bound(bound) => format!("{}", bound.send_to(to, &payload)),
                            _ => wrong("bound"),
                        }
                    }
                    Op::Send(socket, len) => {
                        let payload = self.payload(step, len).to_vec();
                        match &mut self.slots[socket] {
                            Slot::Connected(connected) => format!("{}", connected.send(&payload)),
                            _ => wrong("connected"),
                        }
                    }
                    Op::Join(socket, group) => {
                        let group = self.group(group);
                        match &mut self.slots[socket] {
                            Slot::Bound(bound) => {
                                bound.join_group(group);
                                groups(bound.groups())
                            }
                            _ => wrong("bound"),
                        }
                    }
                    Op::Groups(socket) => match &self.slots[socket] {
                        Slot::Bound(bound) => groups(bound.groups()),
                        _ => wrong("bound"),
                    },
                    Op::Local(socket) => match &self.slots[socket] {
                        Slot::Bound(bound) => show(bound.local()),
                        Slot::Connected(connected) => show(connected.local()),
                        _ => wrong("bound or connected"),
                    },
                    Op::Peer(socket) => match &self.slots[socket] {
                        Slot::Connected(connected) => show(connected.peer()),
                        _ => wrong("connected"),
                    },
                    Op::Close(socket) => {
                        match std::mem::replace(&mut self.slots[socket], Slot::Gone) {
                            Slot::Bound(bound) => {
                                bound.close();
                                String::new()
                            }
                            Slot::Connected(connected) => {
                                connected.close();
                                String::new()
                            }
                            other => {
                                self.slots[socket] = other;
                                wrong("bound or connected")
                            }
                        }
                    }
                    Op::Bound(net) => sorted(self.nets[net].bound()),
                    Op::Sent(net) => {
                        let sent: Vec<String> = self.nets[net]
                            .sent()
                            .into_iter()
                            .map(|datagram| {
                                format!(
                                    "{} -> {} {:?}",
                                    show(datagram.from),
                                    show(datagram.to),
                                    datagram.payload
                                )
                            })
                            .collect();
                        format!("[{}]", sent.join(", "))
                    }
                    Op::Addresses => {
                        let mut seen = Vec::new();
                        for addr in crate::support::edges() {
                            let unicast =
                                UnicastAddr::new(addr).map(|host| format!("{} {host}", host.get()));
                            let multicast = MulticastAddr::new(addr)
                                .map(|group| format!("{} {group}", group.get()));
                            seen.push(format!(
                                "{addr}: unicast {unicast:?}, multicast {multicast:?}"
                            ));
                        }
                        let all = MulticastAddr::ALL_NODES;
                        seen.push(format!("ALL_NODES {} {all}", all.get()));
                        seen.join("; ")
                    }
                    Op::Ports => {
                        let mut seen = Vec::new();
                        for number in [0, 1, 80, 65535] {
                            let port =
                                Port::new(number).map(|port| format!("{} {port}", port.get()));
                            seen.push(format!("new({number}): {port:?}"));
                        }
                        for text in ["", "0", "80", "65535", "65536", "x1", "99999"] {
                            let parsed = match text.parse::<Port>() {
                                Ok(port) => format!("Ok({} {port})", port.get()),
                                Err(err) => format!("Err({err:?}: {err})"),
                            };
                            seen.push(format!("parse({text:?}): {parsed}"));
                        }
                        seen.join("; ")
                    }
                }
            }
        }
    };
}

/// The replay on the learner's crate.
#[cfg(not(xsafe_judge))]
mod learner {
    replay_on!(witness_types);
}

/// The replay on the reference solution.
#[cfg(xsafe_judge)]
mod reference {
    replay_on!(xsafe_reference);
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    let traces = SEQUENCES
        .iter()
        .map(|(_, ops)| {
            let mut model = learner::Model::new(inputs(seed));
            ops.iter()
                .enumerate()
                .map(|(step, &op)| {
                    let result = model.apply(step, op);
                    format!("{result} => {}", model.state())
                })
                .collect()
        })
        .collect();
    Seen { traces }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    assert_eq!(seen.traces.len(), SEQUENCES.len(), "one trace per sequence");
    let drawn = inputs(seed);
    for ((name, ops), trace) in SEQUENCES.iter().zip(&seen.traces) {
        assert_eq!(
            trace.len(),
            ops.len(),
            "sequence \"{name}\": one record per step"
        );
        let mut model = reference::Model::new(drawn.clone());
        for ((step, &op), got) in ops.iter().enumerate().zip(trace) {
            let result = model.apply(step, op);
            let expected = format!("{result} => {}", model.state());
            assert_eq!(
                got, &expected,
                "sequence \"{name}\" (endpoints {:?}, groups {:?}), step {step}, {op:?}: the learner's answer and networks (left) differ from the reference's (right)",
                drawn.endpoints, drawn.groups
            );
        }
    }
}
