//! Proves enforcement: `UnicastAddr::new` accepts exactly the unicast
//! addresses, up to the edges of the class (not `0.0.0.0`, first octet
//! below 224), on the edges and on addresses of every class drawn at random;
//! what it accepts, `get` gives back unchanged.
use crate::support::{Draw, is_unicast};
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each input, what `get` gave back, or `None` if refused.
    answers: Vec<Option<String>>,
}

/// The edges of every class, then random addresses of each class.
fn inputs(seed: Seed) -> Vec<Ipv4Addr> {
    let mut draw = Draw::new(seed, 1);
    let mut inputs = vec![
        Ipv4Addr::UNSPECIFIED,
        Ipv4Addr::new(0, 0, 0, 1),
        Ipv4Addr::new(1, 0, 0, 0),
        Ipv4Addr::LOCALHOST,
        Ipv4Addr::new(223, 255, 255, 255),
        Ipv4Addr::new(224, 0, 0, 0),
        Ipv4Addr::new(224, 0, 0, 1),
        Ipv4Addr::new(239, 255, 255, 255),
        Ipv4Addr::new(240, 0, 0, 0),
        Ipv4Addr::BROADCAST,
    ];
    for first in [1..=223, 224..=239, 240..=255] {
        for _ in 0..4 {
            inputs.push(draw.addr_in(first.clone()));
        }
    }
    inputs
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use witness_types::UnicastAddr;
    Seen {
        answers: inputs(seed)
            .into_iter()
            .map(|addr| UnicastAddr::new(addr).map(|host| host.get().to_string()))
            .collect(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let inputs = inputs(seed);
    assert_eq!(seen.answers.len(), inputs.len());
    for (addr, answer) in inputs.iter().zip(&seen.answers) {
        if is_unicast(*addr) {
            assert_eq!(
                answer.as_deref(),
                Some(addr.to_string().as_str()),
                "UnicastAddr::new({addr}) must accept {addr} and keep it"
            );
        } else {
            assert_eq!(
                *answer, None,
                "UnicastAddr::new({addr}) must refuse {addr}: it is not unicast"
            );
        }
    }
}
