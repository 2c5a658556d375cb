//! Proves consumption: a connected socket knows its peer for certain:
//! `peer()` and `local()` return an `Endpoint`, and `send` carries each
//! payload from the local endpoint to the peer and returns its length.
use crate::support::{DatagramSeen, Draw, EndpointSeen};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    local: EndpointSeen,
    peer: EndpointSeen,
    returned: Vec<usize>,
    sent: Vec<DatagramSeen>,
}

fn inputs(seed: Seed) -> (EndpointSeen, EndpointSeen, Vec<Vec<u8>>) {
    let mut draw = Draw::new(seed, 1);
    let mut endpoints = draw.endpoints(2);
    let peer = endpoints.remove(1);
    let local = endpoints.remove(0);
    let payloads = (0..3).map(|_| {
        let len = draw.usize(1..=64);
        draw.payload(len)
    });
    (local, peer, payloads.collect())
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{endpoint, seen, sent};
    use witness_types::Network;

    let (local, peer, payloads) = inputs(seed);
    let net = Network::new();
    let mut socket = net.socket().bind(endpoint(&local)).connect(endpoint(&peer));
    let returned = payloads
        .iter()
        .map(|payload| socket.send(payload))
        .collect();
    Seen {
        local: seen(socket.local()),
        peer: seen(socket.peer()),
        returned,
        sent: sent(&net),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (local, peer, payloads) = inputs(seed);
    assert_eq!(
        seen.local, local,
        "local() of a connected socket must be the endpoint it was bound to"
    );
    assert_eq!(
        seen.peer, peer,
        "peer() must be the endpoint the socket connected to"
    );
    let lengths: Vec<usize> = payloads.iter().map(Vec::len).collect();
    assert_eq!(
        seen.returned, lengths,
        "send must return the number of bytes sent"
    );
    let expected: Vec<DatagramSeen> = payloads
        .into_iter()
        .map(|payload| DatagramSeen {
            from: local.clone(),
            to: peer.clone(),
            payload,
        })
        .collect();
    assert_eq!(
        seen.sent, expected,
        "send must carry each payload, in order, from the local endpoint to the peer"
    );
}
