//! Proves consumption: `join_group` takes a `MulticastAddr`, so it has
//! nothing to refuse; `groups()` lists the groups joined, in order, and
//! joining the same group twice is joining it once; joining sends nothing.
use crate::support::Draw;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `groups()` before any join, then after each join.
    groups: Vec<Vec<String>>,
    sent: usize,
}

/// The groups joined, in order: a drawn group, `ff02::1`, another drawn
/// group, then the first one again.
fn joins(seed: Seed) -> Vec<String> {
    let groups = Draw::new(seed, 1).groups(2);
    vec![
        groups[0].to_string(),
        "ff02::1".to_owned(),
        groups[1].to_string(),
        groups[0].to_string(),
    ]
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{endpoint, group};
    use witness_types::{MulticastAddr, Network};

    let local = Draw::new(seed, 2).endpoints(1).remove(0);
    let net = Network::new();
    let mut socket = net.socket().bind(endpoint(&local));
    let list = |socket: &witness_types::Socket<witness_types::Bound>| {
        socket
            .groups()
            .iter()
            .map(|group| group.get().to_string())
            .collect::<Vec<_>>()
    };
    let mut groups = vec![list(&socket)];
    for joined in joins(seed) {
        let joined = if joined == "ff02::1" {
            MulticastAddr::ALL_NODES
        } else {
            group(joined.parse().expect("a drawn group"))
        };
        socket.join_group(joined);
        groups.push(list(&socket));
    }
    Seen {
        groups,
        sent: net.sent().len(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let joins = joins(seed);
    let mut expected: Vec<Vec<String>> = vec![Vec::new()];
    for count in 1..=3 {
        expected.push(joins[..count].to_vec());
    }
    expected.push(joins[..3].to_vec());
    assert_eq!(
        seen.groups, expected,
        "groups() must list each group joined once, in the order joined (joining {} twice is joining it once)",
        joins[0]
    );
    assert_eq!(seen.sent, 0, "joining a group sends nothing");
}
