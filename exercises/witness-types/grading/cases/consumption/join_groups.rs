//! Proves consumption: `join_group` takes a `MulticastAddr`, so it has
//! nothing to refuse; joining the same group twice is joining it once.
use crate::support::{endpoint, group};
use witness_types::{MulticastAddr, Network};

#[test]
fn a_bound_socket_joins_groups() {
    let net = Network::new();
    let mut socket = net.socket().bind(endpoint(1, 5353));
    assert!(socket.groups().is_empty());
    socket.join_group(group(224, 0, 0, 251));
    socket.join_group(MulticastAddr::ALL_HOSTS);
    socket.join_group(group(224, 0, 0, 251));
    assert_eq!(socket.groups(), [group(224, 0, 0, 251), MulticastAddr::ALL_HOSTS]);
    assert!(net.sent().is_empty(), "joining a group sends nothing");
}
