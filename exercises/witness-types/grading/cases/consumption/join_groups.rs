//! Proves consumption: `join_group` takes a `MulticastAddr`, so it has
//! nothing to refuse; `groups()` lists the groups joined, in order, and
//! joining the same group twice is joining it once, however many groups it
//! holds (a second socket joins 150, then three of them again: a list that
//! stops at 64, or forgets joins far apart, is seen); joining sends nothing.
use crate::support::Draw;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `groups()` before any join, then after each join.
    groups: Vec<Vec<String>>,
    /// `groups()` of the second socket after its 150 joins and 3 repeats.
    many: Vec<String>,
    sent: usize,
}

/// The second socket's 150 groups, in the order it joins them.
fn many_groups(seed: Seed) -> Vec<String> {
    Draw::new(seed, 3)
        .groups(150)
        .into_iter()
        .map(|group| group.to_string())
        .collect()
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
    let other = Draw::new(seed, 4).endpoints(1).remove(0);
    let mut second = net.socket().bind(endpoint(&other));
    let many = many_groups(seed);
    for joined in many.iter().chain([&many[0], &many[70], &many[149]]) {
        second.join_group(group(joined.parse().expect("a drawn group")));
    }
    Seen {
        groups,
        many: list(&second),
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
    assert_eq!(
        seen.many,
        many_groups(seed),
        "a socket that joins 150 groups, then three of them again, must list the 150, once each, in the order joined"
    );
    assert_eq!(seen.sent, 0, "joining a group sends nothing");
}
