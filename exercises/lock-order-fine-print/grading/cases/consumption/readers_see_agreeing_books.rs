//! Proves consumption: while transfers run on several threads, what a
//! reader sees agrees with the transfers made. Every `history()` taken
//! during the transfers, replayed from the starting balances, never
//! overdraws an account (the history holds the transfers in the order
//! they were made, because each is written while both its accounts are
//! still held); at the end, the whole history replayed gives every
//! account's `balance`; a `balance` of an account that exists is never
//! `None`, however busy its lock; and no transfer panics.
//!
//! A history written after the accounts are released, a balance checked
//! before the accounts are locked, or a `balance` that gives up when the
//! lock is busy are each seen: the reader takes thousands of looks while
//! about 4,500 transfers run.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const ACCOUNTS: usize = 5;
const WRITERS: usize = 3;
const TRANSFERS: usize = 1_500;
/// The most histories the reader takes: as many as there are transfers,
/// and more. A reader that looked without end, while writers that a busy
/// machine runs slowly went on, used seconds of the case's processor time
/// (a history is a copy of every transfer made).
const MOST_LOOKS: usize = 2 * WRITERS * TRANSFERS;

/// `(from, to, amount)`.
type Move = (usize, usize, u64);

struct Inputs {
    start: Vec<u64>,
    requests: Vec<Vec<Move>>,
}

fn inputs(seed: Seed) -> Inputs {
    let mut rng = seed.rng();
    let start: Vec<u64> = (0..ACCOUNTS).map(|_| rng.u64(1..400)).collect();
    let requests = (0..WRITERS)
        .map(|_| {
            (0..TRANSFERS)
                .map(|_| {
                    // Always to a higher account: two transfers never lock
                    // one pair in opposite orders here, so whether a pair
                    // lock can deadlock (`transfers_both_ways_finish`'s
                    // question) does not decide this case by timing.
                    let from = rng.usize(0..ACCOUNTS - 1);
                    let to = rng.usize(from + 1..ACCOUNTS);
                    (from, to, rng.u64(1..=200))
                })
                .collect()
        })
        .collect();
    Inputs { start, requests }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Histories taken while transfers ran: the 1st, 2nd, 4th, 8th... and
    /// the last.
    histories: Vec<Vec<Move>>,
    taken: usize,
    balances_asked: usize,
    balances_missing: usize,
    /// After every thread ended: the history and every balance.
    last_history: Vec<Move>,
    last_balances: Vec<Option<u64>>,
    /// Whether every thread finished without a panic, within the bound.
    finished: bool,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order_fine_print::bank::{Bank, Transfer};
    use lock_order_fine_print::with_token;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;

    let moves = |history: Vec<Transfer>| -> Vec<Move> {
        history
            .into_iter()
            .map(|transfer| (transfer.from, transfer.to, transfer.amount))
            .collect()
    };
    let Inputs { start, requests } = inputs(seed);
    let bank = Arc::new(Bank::new(start));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (done_sender, done) = std::sync::mpsc::channel();
        let work = {
            let bank = Arc::clone(&bank);
            thread::spawn(move || {
                let stop = Arc::new(AtomicBool::new(false));
                let writers: Vec<_> = requests
                    .into_iter()
                    .map(|requests| {
                        let bank = Arc::clone(&bank);
                        thread::spawn(move || {
                            with_token(|token| {
                                for (from, to, amount) in requests {
                                    let _ = bank.transfer(token, Transfer { from, to, amount });
                                    // Room for the reader between transfers,
                                    // on a machine with fewer cores than
                                    // threads.
                                    thread::yield_now();
                                }
                            })
                        })
                    })
                    .collect();
                let reader = {
                    let (bank, stop) = (Arc::clone(&bank), Arc::clone(&stop));
                    thread::spawn(move || {
                        with_token(|token| {
                            let (mut kept, mut taken) = (Vec::new(), 0usize);
                            let mut last = None;
                            let (mut asked, mut missing) = (0usize, 0usize);
                            let mut account = 0;
                            // At least one look, however fast the writers are.
                            while taken == 0 || (!stop.load(Ordering::SeqCst) && taken < MOST_LOOKS) {
                                for _ in 0..8 {
                                    asked += 1;
                                    if bank.balance(token, account).is_none() {
                                        missing += 1;
                                    }
                                    account = (account + 1) % ACCOUNTS;
                                }
                                let history = moves(bank.history(token));
                                taken += 1;
                                // Kept: the 1st, 2nd, 4th, 8th... and the
                                // last, so the observation stays small.
                                if taken.is_power_of_two() {
                                    kept.push(history);
                                } else {
                                    last = Some(history);
                                }
                                // Room for the writers, as they leave room
                                // for it.
                                thread::yield_now();
                            }
                            kept.extend(last);
                            (kept, taken, asked, missing)
                        })
                    })
                };
                let mut panicked = false;
                for writer in writers {
                    panicked |= writer.join().is_err();
                }
                stop.store(true, Ordering::SeqCst);
                let read = reader.join();
                let _ = done_sender.send(());
                (panicked, read.ok())
            })
        };
        match done.recv_timeout(std::time::Duration::from_secs(8)) {
            Ok(()) => work.join().ok(),
            Err(_) => None,
        }
    }));
    let Ok(Some((false, Some((histories, taken, balances_asked, balances_missing))))) = result
    else {
        return Seen {
            histories: Vec::new(),
            taken: 0,
            balances_asked: 0,
            balances_missing: 0,
            last_history: Vec::new(),
            last_balances: Vec::new(),
            finished: false,
        };
    };
    let (last_history, last_balances) = with_token(|token| {
        (
            moves(bank.history(token)),
            (0..ACCOUNTS).map(|account| bank.balance(token, account)).collect(),
        )
    });
    Seen {
        histories,
        taken,
        balances_asked,
        balances_missing,
        last_history,
        last_balances,
        finished: true,
    }
}

/// The balances after `history`, replayed from `start`, or the entry that
/// overdraws.
fn replay(start: &[u64], history: &[Move]) -> Result<Vec<u64>, String> {
    let mut balances = start.to_vec();
    for (at, &(from, to, amount)) in history.iter().enumerate() {
        if balances[from] < amount {
            return Err(format!(
                "entry {at} ({from} pays {amount} to {to}) overdraws account {from}, which holds {} by the entries before it",
                balances[from]
            ));
        }
        balances[from] -= amount;
        balances[to] += amount;
    }
    Ok(balances)
}

pub fn judge(seed: Seed, seen: Seen) {
    let Inputs { start, .. } = inputs(seed);
    assert!(
        seen.finished,
        "the transfers and the reader did not all finish within 8 s, or a transfer panicked: a transfer must check the balance under the accounts' locks, and never wait for a lock it cannot get"
    );
    for (number, history) in seen.histories.iter().enumerate() {
        if let Err(why) = replay(&start, history) {
            panic!(
                "history {number}, read while transfers ran: {why}: the history must hold the transfers in the order they were made, so write it before the accounts are released"
            );
        }
    }
    let end = replay(&start, &seen.last_history)
        .unwrap_or_else(|why| panic!("the final history: {why}: write the history before the accounts are released"));
    let expected: Vec<Option<u64>> = end.into_iter().map(Some).collect();
    assert_eq!(
        seen.last_balances, expected,
        "the final balances are not the final history replayed from the starting balances"
    );
    assert_eq!(
        seen.balances_missing, 0,
        "`balance` said None {} times out of {} for accounts that exist: it must wait for a busy lock, not give up",
        seen.balances_missing, seen.balances_asked
    );
}
