//! Proves consumption: transfers between the same two accounts, made in
//! both directions from four threads at once, all finish, move money
//! without making or losing any, and are each in the history once, in the
//! order each thread made them, while a reader reads the history (which
//! only grows). The bank is built on `lock_both`, so the case first checks,
//! the same way in every run, that `lock_both` locks in address order (see
//! `support::pair_probe`): if it does not, transfers both ways can
//! deadlock, and they are not started. The balances and amounts come from
//! the seed; each amount says which thread made it and when.
use crate::support::{Ended, PairOrder, judge_pair_probe, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const THREADS: usize = 4;
const TRANSFERS: usize = 5_000;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    pair: Vec<PairOrder>,
    /// `None` when the pair probe failed and the transfers were not run.
    run: Option<Ended<Run>>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Run {
    /// Per thread, the index and error of its first refused transfer.
    refused: Vec<Option<(usize, String)>>,
    /// The lengths of the history, as the reader read it while the
    /// transfers ran.
    reader: Vec<usize>,
    /// The balances afterwards.
    balances: (Option<u64>, Option<u64>),
    /// The history afterwards: `(from, amount)` (to the other account).
    history: Vec<(usize, u64)>,
}

/// The starting balances and the smallest amount.
fn inputs(seed: Seed) -> ([u64; 2], u64) {
    let v = values(seed, 0x7a2f, 3, 1 << 30);
    ([(1 << 40) + v[0], (1 << 40) + v[1]], 1 + v[2] % 1000)
}

/// Thread `worker` pays from account `worker % 2`, transfer `index`
/// moves this amount: distinct for every transfer, and it names both.
fn amount(base: u64, worker: usize, index: usize) -> u64 {
    base + (worker + THREADS * index) as u64
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{pair_probe, watch};
    use lock_order_fine_print::bank::{Bank, Transfer};
    use lock_order_fine_print::with_token;
    use std::sync::{Arc, Barrier};
    use std::thread;
    use std::time::Duration;

    let pair = pair_probe(seed);
    if judge_pair_probe(seed, &pair).is_err() {
        return Seen { pair, run: None };
    }
    let (start, base) = inputs(seed);
    let mut run = watch(move || {
        let bank = Arc::new(Bank::new(start.to_vec()));
        // The reader and the workers start together, so that everything overlaps.
        let go = Arc::new(Barrier::new(THREADS + 1));
        let reader = {
            let (bank, go) = (Arc::clone(&bank), Arc::clone(&go));
            thread::spawn(move || {
                go.wait();
                with_token(|token| {
                    (0..50)
                        .map(|_| bank.history(token).len())
                        .collect::<Vec<_>>()
                })
            })
        };
        let workers: Vec<_> = (0..THREADS)
            .map(|worker| {
                let (bank, go) = (Arc::clone(&bank), Arc::clone(&go));
                thread::spawn(move || {
                    go.wait();
                    let (from, to) = (worker % 2, 1 - worker % 2);
                    with_token(|token| {
                        (0..TRANSFERS).find_map(|index| {
                            let transfer = Transfer {
                                from,
                                to,
                                amount: amount(base, worker, index),
                            };
                            bank.transfer(token, transfer)
                                .err()
                                .map(|err| (index, format!("{err:?}")))
                        })
                    })
                })
            })
            .collect();
        let refused = workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|_| Some((0, "the thread panicked".to_owned())))
            })
            .collect();
        let reader = reader.join().unwrap_or_default();
        with_token(|token| Run {
            refused,
            reader,
            balances: (bank.balance(token, 0), bank.balance(token, 1)),
            history: bank
                .history(token)
                .into_iter()
                .map(|transfer| (transfer.from, transfer.amount))
                .collect(),
        })
    });
    Seen {
        pair,
        run: Some(run.ended_within(Duration::from_secs(7))),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    if let Err(why) = judge_pair_probe(seed, &seen.pair) {
        panic!(
            "transfers both ways cannot all be sure to finish on this lock_both, so they were not started: {why} (enforcement/pair_locks_the_lower_address_first checks the same)"
        );
    }
    let run = match seen.run {
        Some(Ended::Returned(run)) => run,
        Some(Ended::Waiting) => {
            panic!("the transfers did not finish within 7 s: do two of them wait for each other?")
        }
        Some(Ended::Panicked(message)) => panic!("the transfers panicked: {message}"),
        None => panic!("the transfers were not run"),
    };
    let (start, base) = inputs(seed);
    for (worker, refused) in run.refused.iter().enumerate() {
        assert_eq!(
            refused, &None,
            "thread {worker}'s transfers were refused, but the accounts hold enough for all of them"
        );
    }
    assert_eq!(
        run.history.len(),
        THREADS * TRANSFERS,
        "every transfer is in the history once"
    );
    let mut next = [0_usize; THREADS];
    let mut balances = start;
    for &(from, amount) in &run.history {
        let offset = amount.checked_sub(base).map(|offset| offset as usize);
        let Some((worker, index)) = offset.map(|offset| (offset % THREADS, offset / THREADS))
        else {
            panic!("the history holds a transfer of {amount}, which no thread made");
        };
        assert!(
            from == worker % 2 && index < TRANSFERS,
            "the history holds a transfer of {amount} from account {from}, which no thread made"
        );
        assert_eq!(
            index, next[worker],
            "thread {worker}'s transfer number {index} is in the history where its number {} belongs: every transfer is recorded once, in the order it was made",
            next[worker]
        );
        next[worker] += 1;
        balances[from] -= amount;
        balances[1 - from] += amount;
    }
    assert_eq!(
        run.balances,
        (Some(balances[0]), Some(balances[1])),
        "replaying the history must give the balances: transfers neither make nor lose money"
    );
    assert!(
        run.reader.windows(2).all(|pair| pair[0] <= pair[1])
            && run.reader.iter().all(|&len| len <= THREADS * TRANSFERS),
        "the history only grows while transfers run (the reader saw lengths {:?})",
        run.reader
    );
}
