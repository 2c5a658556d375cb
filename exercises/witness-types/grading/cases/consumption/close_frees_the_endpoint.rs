//! Proves consumption: closing a socket, bound or connected, frees its
//! endpoint on the network and leaves the other sockets alone.
use crate::support::endpoint;
use witness_types::Network;

#[test]
fn close_frees_exactly_its_endpoint() {
    let net = Network::new();
    let first = net.socket().bind(endpoint(1, 1000));
    let second = net.socket().bind(endpoint(1, 2000)).connect(endpoint(2, 80));
    let third = net.socket().bind(endpoint(1, 3000));
    assert_eq!(net.bound().len(), 3);
    second.close();
    let mut left = net.bound();
    left.sort_by_key(|end| end.port);
    assert_eq!(left, vec![endpoint(1, 1000), endpoint(1, 3000)]);
    first.close();
    third.close();
    assert!(net.bound().is_empty());
}
