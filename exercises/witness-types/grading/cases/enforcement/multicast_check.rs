//! Proves enforcement: `MulticastAddr::new` accepts exactly `ff00::/8`, on
//! the edges of the class and on addresses of every kind drawn at random;
//! `get` gives back what it accepted, and `ALL_NODES` is `ff02::1`.
use crate::support::{ALL_NODES, addresses_of_every_kind, is_multicast};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each input, what `get` gave back, or `None` if refused.
    answers: Vec<Option<String>>,
    /// `MulticastAddr::ALL_NODES.get()`.
    all_nodes: String,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use witness_types::MulticastAddr;
    Seen {
        answers: addresses_of_every_kind(seed, 4)
            .into_iter()
            .map(|addr| MulticastAddr::new(addr).map(|group| group.get().to_string()))
            .collect(),
        all_nodes: MulticastAddr::ALL_NODES.get().to_string(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let inputs = addresses_of_every_kind(seed, 4);
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
                "MulticastAddr::new({addr}) must refuse {addr}: it is not in ff00::/8"
            );
        }
    }
    assert_eq!(
        seen.all_nodes,
        ALL_NODES.to_string(),
        "MulticastAddr::ALL_NODES must be ff02::1"
    );
}
