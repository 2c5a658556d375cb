//! Proves consumption: `spawn` moves the payload to a new thread and runs the
//! work there, and `join` brings the result back to the caller: one job with
//! a derived payload and result, then several jobs at once, each on a thread
//! of its own. The payloads come from the judge's seed.
use crate::support::drawn;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// How many jobs run at once.
const JOBS: usize = 6;

/// What one job gave back: its result, and whether it ran on the thread
/// that called `spawn`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ran<T> {
    result: T,
    on_the_caller: bool,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `None`: the payload or the result was not `Sendable`, so nothing
    /// could be spawned.
    order: Option<Ran<(u32, usize)>>,
    /// The squares, and how many different threads computed them.
    squares: Option<(Vec<Ran<u64>>, usize)>,
}

fn order_id(seed: Seed) -> u32 {
    drawn(seed, 0x07de, 1 << 30)
}

fn item_count(seed: Seed) -> usize {
    drawn(seed, 0x17e5, 12) as usize
}

fn bases(seed: Seed) -> Vec<u64> {
    (0..JOBS as u64)
        .map(|job| u64::from(drawn(seed, 0xba5e + job, 1 << 20)))
        .collect()
}

#[cfg(not(xsafe_judge))]
mod work {
    use crate::support::current_thread;
    use send_marker::Sendable;

    #[derive(Sendable)]
    pub struct Order {
        pub id: u32,
        pub items: Vec<String>,
    }

    #[derive(Sendable)]
    pub struct Receipt {
        pub id: u32,
        pub count: usize,
        pub worker: String,
    }

    pub fn process(order: Order) -> Receipt {
        Receipt {
            id: order.id,
            count: order.items.len(),
            worker: current_thread(),
        }
    }

    pub fn square(n: u64) -> (u64, String) {
        (n * n, current_thread())
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{current_thread, spawn_sendable};
    use std::collections::HashSet;
    use work::{Order, process, square};

    let caller = current_thread();
    let order = Order {
        id: order_id(seed),
        items: (0..item_count(seed))
            .map(|item| format!("item {item}"))
            .collect(),
    };
    let order = spawn_sendable!(order, process).map(|handle| {
        let receipt = handle.join();
        Ran {
            result: (receipt.id, receipt.count),
            on_the_caller: receipt.worker == caller,
        }
    });
    let handles: Option<Vec<_>> = bases(seed)
        .into_iter()
        .map(|n| spawn_sendable!(n, square))
        .collect();
    let squares = handles.map(|handles| {
        let mut workers = HashSet::new();
        let squares = handles
            .into_iter()
            .map(|handle| {
                let (result, worker) = handle.join();
                let on_the_caller = worker == caller;
                workers.insert(worker);
                Ran {
                    result,
                    on_the_caller,
                }
            })
            .collect();
        (squares, workers.len())
    });
    Seen { order, squares }
}

pub fn judge(seed: Seed, seen: Seen) {
    let order = seen
        .order
        .expect("could not spawn a job whose payload and result derive `Sendable`: derive it and implement it for `u32`, `usize`, `String` and `Vec<T>` first");
    assert_eq!(
        order.result,
        (order_id(seed), item_count(seed)),
        "join must return the result of the work on the payload"
    );
    assert!(
        !order.on_the_caller,
        "the work ran on the thread that called spawn, not on a new one"
    );
    let (squares, threads) = seen
        .squares
        .expect("could not spawn a job on a `u64`: `u64`, `String` and tuples must be `Sendable`");
    assert_eq!(squares.len(), JOBS, "every job must be joined");
    for (ran, n) in squares.iter().zip(bases(seed)) {
        assert_eq!(
            ran.result,
            n * n,
            "join must return the result of its own job"
        );
        assert!(
            !ran.on_the_caller,
            "a job ran on the thread that called spawn"
        );
    }
    assert_eq!(
        threads, JOBS,
        "{JOBS} jobs started at once must run on {JOBS} threads"
    );
}
