//! Proves enforcement: `MulticastAddr::new` accepts exactly `224.0.0.0/4`,
//! first octet 224 to 239, edges included, on the edges and on addresses of
//! every class drawn at random; `get` gives back what it accepted, and
//! `ALL_HOSTS` is `224.0.0.1`.
use crate::support::{Draw, is_multicast};
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each input, what `get` gave back, or `None` if refused.
    answers: Vec<Option<String>>,
    /// `MulticastAddr::ALL_HOSTS.get()`.
    all_hosts: String,
}

/// The edges of every class, then random addresses of each class.
fn inputs(seed: Seed) -> Vec<Ipv4Addr> {
    let mut draw = Draw::new(seed, 1);
    let mut inputs = vec![
        Ipv4Addr::UNSPECIFIED,
        Ipv4Addr::new(10, 0, 0, 1),
        Ipv4Addr::new(223, 255, 255, 255),
        Ipv4Addr::new(224, 0, 0, 0),
        Ipv4Addr::new(224, 0, 0, 1),
        Ipv4Addr::new(239, 255, 255, 255),
        Ipv4Addr::new(240, 0, 0, 0),
        Ipv4Addr::BROADCAST,
    ];
    for first in [0..=223, 224..=239, 240..=255] {
        for _ in 0..4 {
            inputs.push(draw.addr_in(first.clone()));
        }
    }
    inputs
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use witness_types::MulticastAddr;
    Seen {
        answers: inputs(seed)
            .into_iter()
            .map(|addr| MulticastAddr::new(addr).map(|group| group.get().to_string()))
            .collect(),
        all_hosts: MulticastAddr::ALL_HOSTS.get().to_string(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let inputs = inputs(seed);
    assert_eq!(seen.answers.len(), inputs.len());
    for (addr, answer) in inputs.iter().zip(&seen.answers) {
        if is_multicast(*addr) {
            assert_eq!(
                answer.as_deref(),
                Some(addr.to_string().as_str()),
                "MulticastAddr::new({addr}) must accept {addr} and keep it"
            );
        } else {
            assert_eq!(
                *answer, None,
                "MulticastAddr::new({addr}) must refuse {addr}: it is not in 224.0.0.0/4"
            );
        }
    }
    assert_eq!(
        seen.all_hosts, "224.0.0.1",
        "MulticastAddr::ALL_HOSTS must be 224.0.0.1"
    );
}
