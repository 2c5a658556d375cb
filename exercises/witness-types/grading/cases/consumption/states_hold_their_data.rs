//! Proves consumption: each state type holds what its state has, and the
//! socket keeps no run-time record of its state besides: an unbound socket
//! is only a handle to its network, and a connected one is no bigger than
//! the network handle and two endpoints.
use std::mem::size_of;
use witness_types::{Connected, Endpoint, Network, Socket, Unbound};

#[test]
fn no_option_fields_for_the_state() {
    assert_eq!(
        size_of::<Socket<Unbound>>(),
        size_of::<Network>(),
        "a Socket<Unbound> must hold nothing but its Network: no Option fields, no flags"
    );
    assert!(
        size_of::<Socket<Connected>>() <= size_of::<(Network, Endpoint, Endpoint)>(),
        "a Socket<Connected> must hold its Network, its local endpoint and its peer, and nothing more"
    );
}
