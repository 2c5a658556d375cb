//! Proves consumption: a bound socket sends to any endpoint with no check
//! left to fail: `send_to` returns the number of bytes, and the network
//! carries each datagram from the socket's endpoint to the one given.
use crate::support::endpoint;
use witness_types::{Datagram, Network};

#[test]
fn send_to_carries_every_datagram() {
    let net = Network::new();
    let mut socket = net.socket().bind(endpoint(1, 4000));
    assert_eq!(socket.local(), endpoint(1, 4000));
    assert_eq!(net.bound(), vec![endpoint(1, 4000)]);
    assert_eq!(socket.send_to(endpoint(2, 53), b"query"), 5);
    assert_eq!(socket.send_to(endpoint(3, 123), b""), 0);
    assert_eq!(
        net.sent(),
        vec![
            Datagram { from: endpoint(1, 4000), to: endpoint(2, 53), payload: b"query".to_vec() },
            Datagram { from: endpoint(1, 4000), to: endpoint(3, 123), payload: Vec::new() },
        ]
    );
}
