//! Proves the definition: the three states are types, so a function says in
//! its signature which state of socket it needs, and a new socket is a
//! `Socket<Unbound>`; a witness prints as the address it wraps.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// The last path segment of the state type of `Network::socket()`.
    new_socket_state: String,
    /// How `MulticastAddr::ALL_NODES` displays.
    all_nodes: String,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    use witness_types::{Bound, Connected, MulticastAddr, Network, Socket, Unbound};

    fn state_name<S>(_: &Socket<S>) -> String {
        let name = std::any::type_name::<S>();
        name.rsplit("::").next().unwrap_or(name).to_owned()
    }

    // Compiles only if each state is a type that `Socket` takes.
    fn _takes_each_state(_: Socket<Unbound>, _: &Socket<Bound>, _: &mut Socket<Connected>) {}

    let net = Network::new();
    let socket: Socket<Unbound> = net.socket();
    Seen {
        new_socket_state: state_name(&socket),
        all_nodes: MulticastAddr::ALL_NODES.to_string(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_eq!(
        seen.new_socket_state, "Unbound",
        "Network::socket() must return a Socket<Unbound>"
    );
    assert_eq!(
        seen.all_nodes, "ff02::1",
        "MulticastAddr::ALL_NODES must display as the address it wraps"
    );
}
