//! Proves enforcement: `UnicastAddr::new` accepts exactly the unicast
//! addresses of the invariant (not `::`, not in `ff00::/8`, not
//! IPv4-mapped), on the edges of each class and on addresses of every kind
//! drawn at random (global, unique local, link-local, multicast, mapped);
//! what it accepts, `get` gives back unchanged.
use crate::support::{addresses_of_every_kind, is_unicast};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each input, what `get` gave back, or `None` if refused.
    answers: Vec<Option<String>>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use witness_types::UnicastAddr;
    Seen {
        answers: addresses_of_every_kind(seed, 4)
            .into_iter()
            .map(|addr| UnicastAddr::new(addr).map(|host| host.get().to_string()))
            .collect(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let inputs = addresses_of_every_kind(seed, 4);
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
                "UnicastAddr::new({addr}) must refuse {addr}: it is not unicast (::, multicast, or IPv4-mapped)"
            );
        }
    }
}
