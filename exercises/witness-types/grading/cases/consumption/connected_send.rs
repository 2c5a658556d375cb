//! Proves consumption: a connected socket knows its peer for certain:
//! `peer()` and `local()` return an `Endpoint`, and `send` goes to the peer.
use crate::support::endpoint;
use witness_types::{Datagram, Network};

#[test]
fn connected_socket_sends_to_its_peer() {
    let net = Network::new();
    let mut socket = net.socket().bind(endpoint(1, 4000)).connect(endpoint(9, 80));
    assert_eq!(socket.local(), endpoint(1, 4000));
    assert_eq!(socket.peer(), endpoint(9, 80));
    assert_eq!(socket.send(b"GET /"), 5);
    assert_eq!(socket.send(b"\r\n"), 2);
    let sent = net.sent();
    assert_eq!(sent.len(), 2);
    assert!(sent.iter().all(|d| d.from == endpoint(1, 4000) && d.to == endpoint(9, 80)));
    assert_eq!(
        sent[0],
        Datagram { from: endpoint(1, 4000), to: endpoint(9, 80), payload: b"GET /".to_vec() }
    );
}
