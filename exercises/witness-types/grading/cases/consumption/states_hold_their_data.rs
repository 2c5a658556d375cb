//! Proves consumption: each state type holds what its state has, and the
//! socket keeps no run-time record of its state besides: an unbound socket
//! is only a handle to its network, and a connected one is no bigger than
//! the network handle and two endpoints.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    unbound: usize,
    network: usize,
    connected: usize,
    network_and_two_endpoints: usize,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    use std::mem::size_of;
    use witness_types::{Connected, Endpoint, Network, Socket, Unbound};
    Seen {
        unbound: size_of::<Socket<Unbound>>(),
        network: size_of::<Network>(),
        connected: size_of::<Socket<Connected>>(),
        network_and_two_endpoints: size_of::<(Network, Endpoint, Endpoint)>(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_eq!(
        seen.unbound, seen.network,
        "a Socket<Unbound> must hold nothing but its Network: no Option fields, no flags"
    );
    assert!(
        seen.connected <= seen.network_and_two_endpoints,
        "a Socket<Connected> must hold its Network, its local endpoint and its peer, and nothing more ({} bytes, at most {})",
        seen.connected,
        seen.network_and_two_endpoints
    );
}
