//! Proves the definition: the three states are types, so a function says in
//! its signature which state of socket it needs, and a new socket is a
//! `Socket<Unbound>`; each witness prints as the value it wraps (a
//! `UnicastAddr` and a `MulticastAddr` as their address, a `Port` as its
//! number).
use crate::support::Draw;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// The last path segment of the state type of `Network::socket()`.
    new_socket_state: String,
    /// How `MulticastAddr::ALL_NODES` displays.
    all_nodes: String,
    /// How a `UnicastAddr` of the drawn host displays.
    host: String,
    /// How a `Port` of the drawn number displays.
    port: String,
}

/// A host and a port number, drawn from the seed.
fn drawn(seed: Seed) -> (std::net::Ipv6Addr, u16) {
    let mut draw = Draw::new(seed, 1);
    (draw.hosts(1)[0], draw.ports(1)[0])
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use witness_types::{
        Bound, Connected, MulticastAddr, Network, Port, Socket, Unbound, UnicastAddr,
    };

    fn state_name<S>(_: &Socket<S>) -> String {
        let name = std::any::type_name::<S>();
        name.rsplit("::").next().unwrap_or(name).to_owned()
    }

    // Compiles only if each state is a type that `Socket` takes.
    fn _takes_each_state(_: Socket<Unbound>, _: &Socket<Bound>, _: &mut Socket<Connected>) {}

    let (addr, number) = drawn(seed);
    // The unchecked constructor (of a unicast address): this case is about
    // the definition, which the starter already has, checks or not.
    #[allow(unused_unsafe)]
    // SAFETY: the drawn host is unicast (`Draw::hosts`).
    let host = unsafe { UnicastAddr::new_unchecked(addr) };
    let net = Network::new();
    let socket: Socket<Unbound> = net.socket();
    Seen {
        new_socket_state: state_name(&socket),
        all_nodes: MulticastAddr::ALL_NODES.to_string(),
        host: host.to_string(),
        port: Port::new(number)
            .map(|port| port.to_string())
            .unwrap_or_default(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (addr, number) = drawn(seed);
    assert_eq!(
        seen.new_socket_state, "Unbound",
        "Network::socket() must return a Socket<Unbound>"
    );
    assert_eq!(
        seen.all_nodes, "ff02::1",
        "MulticastAddr::ALL_NODES must display as the address it wraps"
    );
    assert_eq!(
        seen.host,
        addr.to_string(),
        "a UnicastAddr must display as the address it wraps"
    );
    assert_eq!(
        seen.port,
        number.to_string(),
        "a Port must display as its number"
    );
}
