//! Proves consumption: the socket's methods have no panic left, and a
//! caught panic leaves nothing behind. `send_to` and `send` take payloads of
//! every size (empty, 1 byte, 65 535 and 70 000 bytes: the simulated network
//! has no size limit) and `join_group` takes 40 groups, each call run under
//! `catch_unwind` so that a panic is recorded with what the network holds
//! after it; and when the caller's own code panics between two calls,
//! unwinding through sockets in every state, the network is left as it was:
//! what was sent stays sent, the other sockets' endpoints stay bound (the
//! dropped sockets' may stay bound too, as a leaked descriptor would), and
//! later sockets bind, send and close.
use crate::support::{DatagramSeen, Draw, EndpointSeen};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The payload sizes sent by each socket.
const SIZES: [usize; 4] = [0, 1, 65_535, 70_000];

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Each call that panicked, with how many datagrams the network held
    /// after it.
    panicked: Vec<(String, usize)>,
    /// What each `send_to`, then each `send`, returned (`None` if it
    /// panicked).
    returned: Vec<Option<usize>>,
    /// How many groups `groups()` listed after 40 distinct joins.
    groups: usize,
    /// Whether the caller's panic was caught (and the program went on).
    caught: bool,
    /// The datagrams, as (from, to, payload length): a payload of 70 000
    /// bytes is not worth recording byte by byte.
    sent: Vec<(EndpointSeen, EndpointSeen, usize)>,
    /// `bound()` at the end.
    bound: Vec<EndpointSeen>,
}

/// The endpoints: 0 sends to 1 (bound, then connected to 2), 3 and 4 are
/// dropped by the caller's panic (bound, and connected to 2), 5 binds after
/// the panic.
fn endpoints(seed: Seed) -> Vec<EndpointSeen> {
    Draw::new(seed, 1).endpoints(6)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{bound, caught, endpoint, group, sent};
    use witness_types::Network;

    let ends = endpoints(seed);
    let net = Network::new();
    let mut panicked = Vec::new();
    let mut returned = Vec::new();
    let mut bound_socket = net.socket().bind(endpoint(&ends[0]));
    for size in SIZES {
        let payload = vec![0x5a; size];
        let result = caught(|| bound_socket.send_to(endpoint(&ends[1]), &payload));
        if result.is_err() {
            panicked.push((format!("send_to with {size} bytes"), net.sent().len()));
        }
        returned.push(result.ok());
    }
    let groups = Draw::new(seed, 2).groups(40);
    for joined in &groups {
        if caught(|| bound_socket.join_group(group(*joined))).is_err() {
            panicked.push((format!("join_group({joined})"), net.sent().len()));
        }
    }
    let groups = bound_socket.groups().len();
    let mut connected = net
        .socket()
        .bind(endpoint(&ends[1]))
        .connect(endpoint(&ends[2]));
    for size in SIZES {
        let payload = vec![0xa5; size];
        let result = caught(|| connected.send(&payload));
        if result.is_err() {
            panicked.push((format!("send with {size} bytes"), net.sent().len()));
        }
        returned.push(result.ok());
    }
    let caller = caught(|| {
        let _unbound = net.socket();
        let _bound = net.socket().bind(endpoint(&ends[3]));
        let mut doomed = net
            .socket()
            .bind(endpoint(&ends[4]))
            .connect(endpoint(&ends[2]));
        doomed.send(b"last words");
        panic!("the caller's own bug, caught by the case");
    });
    let mut later = net.socket().bind(endpoint(&ends[5]));
    later.send_to(endpoint(&ends[0]), b"after the panic");
    later.close();
    bound_socket.send_to(endpoint(&ends[2]), b"still here");
    Seen {
        panicked,
        returned,
        groups,
        caught: caller.is_err(),
        sent: sent(&net)
            .into_iter()
            .map(|DatagramSeen { from, to, payload }| (from, to, payload.len()))
            .collect(),
        bound: bound(&net),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let ends = endpoints(seed);
    if let Some((call, held)) = seen.panicked.first() {
        panic!(
            "{call} panicked (and the network then held {held} datagrams): a method that exists only where it can succeed has no panic left, whatever the payload"
        );
    }
    let sizes: Vec<Option<usize>> = SIZES.iter().chain(&SIZES).map(|&size| Some(size)).collect();
    assert_eq!(
        seen.returned, sizes,
        "send_to and send must return the number of bytes sent, for payloads of every size"
    );
    assert_eq!(
        seen.groups, 40,
        "40 distinct groups joined must all be listed"
    );
    assert!(
        seen.caught,
        "the caller's panic must unwind and be caught: did a drop abort the program?"
    );
    let mut expected: Vec<(EndpointSeen, EndpointSeen, usize)> = Vec::new();
    for size in SIZES {
        expected.push((ends[0].clone(), ends[1].clone(), size));
    }
    for size in SIZES {
        expected.push((ends[1].clone(), ends[2].clone(), size));
    }
    expected.push((ends[4].clone(), ends[2].clone(), b"last words".len()));
    expected.push((ends[5].clone(), ends[0].clone(), b"after the panic".len()));
    expected.push((ends[0].clone(), ends[2].clone(), b"still here".len()));
    assert_eq!(
        seen.sent, expected,
        "every datagram sent must stay recorded, in order, across the caller's panic"
    );
    for kept in [&ends[0], &ends[1]] {
        assert!(
            seen.bound.contains(kept),
            "the endpoint {kept:?} of a socket that is still open must stay bound after another's panic"
        );
    }
    for end in &seen.bound {
        assert!(
            [&ends[0], &ends[1], &ends[3], &ends[4]].contains(&end),
            "{end:?} is bound at the end, but no open socket (nor one dropped by the panic) holds it"
        );
    }
    assert!(
        !seen.bound.contains(&ends[5]),
        "a socket closed after the panic must free its endpoint"
    );
}
