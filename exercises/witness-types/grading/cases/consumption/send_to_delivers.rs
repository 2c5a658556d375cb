//! Proves consumption: a bound socket sends to any endpoint with no check
//! left to fail: `send_to` returns the number of bytes, and the network
//! carries each datagram, in order, from the socket's endpoint to the one
//! given, every one of them (150 here: a network that keeps only the
//! latest few loses some); binding records the endpoint as bound.
use crate::support::{DatagramSeen, Draw, EndpointSeen};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    local: EndpointSeen,
    bound: Vec<EndpointSeen>,
    returned: Vec<usize>,
    sent: Vec<DatagramSeen>,
}

/// The local endpoint, then 150 destinations, each with its payload (the
/// third one empty).
fn inputs(seed: Seed) -> (EndpointSeen, Vec<(EndpointSeen, Vec<u8>)>) {
    let mut draw = Draw::new(seed, 1);
    let mut endpoints = draw.endpoints(151);
    let local = endpoints.remove(0);
    let mut sends = Vec::new();
    for (index, to) in endpoints.into_iter().enumerate() {
        let len = if index == 2 { 0 } else { draw.usize(1..=64) };
        sends.push((to, draw.payload(len)));
    }
    (local, sends)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{bound, endpoint, seen, sent};
    use witness_types::Network;

    let (local, sends) = inputs(seed);
    let net = Network::new();
    let mut socket = net.socket().bind(endpoint(&local));
    let bound_now = bound(&net);
    let returned = sends
        .iter()
        .map(|(to, payload)| socket.send_to(endpoint(to), payload))
        .collect();
    Seen {
        local: seen(socket.local()),
        bound: bound_now,
        returned,
        sent: sent(&net),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (local, sends) = inputs(seed);
    assert_eq!(
        seen.local, local,
        "local() must be the endpoint the socket was bound to"
    );
    assert_eq!(
        seen.bound,
        vec![local.clone()],
        "binding must record the endpoint as bound"
    );
    let lengths: Vec<usize> = sends.iter().map(|(_, payload)| payload.len()).collect();
    assert_eq!(
        seen.returned, lengths,
        "send_to must return the number of bytes sent"
    );
    let expected: Vec<DatagramSeen> = sends
        .into_iter()
        .map(|(to, payload)| DatagramSeen {
            from: local.clone(),
            to,
            payload,
        })
        .collect();
    assert_eq!(
        seen.sent, expected,
        "the network must carry each datagram, in order, from the local endpoint to the destination"
    );
}
