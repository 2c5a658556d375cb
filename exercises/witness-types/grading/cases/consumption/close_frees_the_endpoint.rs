//! Proves consumption: closing a socket, bound or connected, frees its
//! endpoint on the network and leaves the other sockets' endpoints bound.
use crate::support::{Draw, EndpointSeen, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `bound()` after three binds, after closing the second (connected)
    /// socket, after closing the first, and after closing the third.
    bound: Vec<Vec<EndpointSeen>>,
}

fn endpoints(seed: Seed) -> Vec<EndpointSeen> {
    Draw::new(seed, 1).endpoints(4)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{bound, endpoint};
    use witness_types::Network;

    let ends = endpoints(seed);
    let net = Network::new();
    let first = net.socket().bind(endpoint(&ends[0]));
    let second = net
        .socket()
        .bind(endpoint(&ends[1]))
        .connect(endpoint(&ends[3]));
    let third = net.socket().bind(endpoint(&ends[2]));
    let mut seen = vec![bound(&net)];
    second.close();
    seen.push(bound(&net));
    first.close();
    seen.push(bound(&net));
    third.close();
    seen.push(bound(&net));
    Seen { bound: seen }
}

pub fn judge(seed: Seed, seen: Seen) {
    let ends = endpoints(seed);
    assert_eq!(seen.bound.len(), 4);
    assert_eq!(
        sorted(&seen.bound[0]),
        sorted(&ends[..3]),
        "each bind must record its endpoint as bound"
    );
    assert_eq!(
        sorted(&seen.bound[1]),
        sorted(&[ends[0].clone(), ends[2].clone()]),
        "closing a connected socket must free its local endpoint, and only it"
    );
    assert_eq!(
        sorted(&seen.bound[2]),
        vec![ends[2].clone()],
        "closing a bound socket must free its endpoint, and only it"
    );
    assert!(
        seen.bound[3].is_empty(),
        "once every socket is closed, no endpoint is bound"
    );
}
