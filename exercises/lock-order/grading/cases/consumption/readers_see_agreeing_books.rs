//! Proves consumption: while transfers run on several threads, every
//! reader sees books that agree. Each `audit` taken during the transfers
//! is one moment of the bank: its balances add up to the bank's total, its
//! ledger replayed from the starting balances never overdraws an account
//! and ends at its balances, and its counters count its ledger (transfers
//! made, the sum moved). A `balance` of an account that exists is never
//! `None`, however busy the bank, and formatting the bank (`{:?}`, when
//! it has `Debug`) never waits forever for a lock a transfer holds.
//!
//! Books written after the locks are released (counters updated under a
//! second, later lock), an audit that reads the parts one lock at a time,
//! a `balance` that gives up when the lock is busy, or a `Debug` that takes
//! the locks in another order are each seen by some reader: the readers
//! take thousands of looks while about 4,500 transfers run.
use crate::support::{AuditView, Move};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const ACCOUNTS: usize = 5;
const WRITERS: usize = 3;
const TRANSFERS: usize = 1_500;
/// The most looks each reader takes (audits; `balance` calls): as many as
/// there are transfers, and more. A reader that looked without end, while
/// writers that a busy machine runs slowly went on, used seconds of the
/// case's processor time (an audit copies the whole ledger).
const MOST_LOOKS: usize = 2 * WRITERS * TRANSFERS;

struct Inputs {
    start: Vec<u64>,
    requests: Vec<Vec<Move>>,
}

fn inputs(seed: Seed) -> Inputs {
    let mut rng = seed.rng();
    let start: Vec<u64> = (0..ACCOUNTS).map(|_| rng.u64(100..1_000)).collect();
    let requests = (0..WRITERS)
        .map(|_| {
            (0..TRANSFERS)
                .map(|_| {
                    let from = rng.usize(0..ACCOUNTS);
                    let to = (from + rng.usize(1..ACCOUNTS)) % ACCOUNTS;
                    (from, to, rng.u64(1..=300))
                })
                .collect()
        })
        .collect();
    Inputs { start, requests }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Audits taken while transfers ran: the 1st, 2nd, 4th, 8th... and
    /// the last.
    audits: Vec<AuditView>,
    /// How many audits were taken in all.
    audits_taken: usize,
    /// `balance` calls made during the transfers, and those that said
    /// `None` for an account that exists.
    balances_asked: usize,
    balances_missing: usize,
    /// Whether the bank has `Debug`, and how many formats finished.
    has_debug: bool,
    formats: usize,
    /// Whether everything finished (no reader or writer waited forever).
    finished: bool,
}

#[cfg(not(xsafe_judge))]
mod observing {
    use std::marker::PhantomData;

    /// `{:?}` of a value, if its type has `Debug` (see `Probe` elsewhere:
    /// method lookup on `&Probe<T>` tries the impl that needs the trait
    /// first).
    pub struct Probe<T>(PhantomData<T>);
    impl<T> Probe<T> {
        pub fn of() -> Self {
            Probe(PhantomData)
        }
    }
    pub trait ByDebug<T> {
        fn format(&self, value: &T) -> Option<String>;
    }
    impl<T: std::fmt::Debug> ByDebug<T> for Probe<T> {
        fn format(&self, value: &T) -> Option<String> {
            Some(format!("{value:?}"))
        }
    }
    pub trait NoDebug<T> {
        fn format(&self, _: &T) -> Option<String> {
            None
        }
    }
    impl<T> NoDebug<T> for &Probe<T> {}
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use lock_order::LockToken;
    use lock_order::bank::{Bank, Transfer};
    use observing::{ByDebug as _, NoDebug as _, Probe};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;

    let Inputs { start, requests } = inputs(seed);
    let bank = Arc::new(Bank::new(start));
    let has_debug = (&Probe::<Bank>::of()).format(&bank).is_some();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::support::within(8, {
            let bank = Arc::clone(&bank);
            move || {
                let done = Arc::new(AtomicBool::new(false));
                let writers: Vec<_> = requests
                    .into_iter()
                    .map(|requests| {
                        let bank = Arc::clone(&bank);
                        thread::spawn(move || {
                            let mut token = LockToken::new();
                            for (from, to, amount) in requests {
                                let _ = bank.transfer(&mut token, Transfer { from, to, amount });
                                // Room for the readers between transfers,
                                // on a machine with fewer cores than threads.
                                thread::yield_now();
                            }
                        })
                    })
                    .collect();
                let auditor = {
                    let (bank, done) = (Arc::clone(&bank), Arc::clone(&done));
                    thread::spawn(move || {
                        let mut token = LockToken::new();
                        let (mut kept, mut taken) = (Vec::new(), 0usize);
                        let mut last = None;
                        // At least one look, however fast the writers are.
                        while taken == 0 || (!done.load(Ordering::SeqCst) && taken < MOST_LOOKS) {
                            let audit = view(bank.audit(&mut token));
                            taken += 1;
                            // Every audit is checked in the judge only if
                            // kept: the 1st, 2nd, 4th, 8th... and the last
                            // few, so the observation stays small.
                            if taken.is_power_of_two() {
                                kept.push(audit);
                            } else {
                                last = Some(audit);
                            }
                            // Room for the writers, as they leave room for it.
                            thread::yield_now();
                        }
                        kept.extend(last);
                        (kept, taken)
                    })
                };
                let reader = {
                    let (bank, done) = (Arc::clone(&bank), Arc::clone(&done));
                    thread::spawn(move || {
                        let mut token = LockToken::new();
                        let (mut asked, mut missing, mut formats) = (0usize, 0usize, 0usize);
                        let mut account = 0;
                        while asked == 0 || (!done.load(Ordering::SeqCst) && asked < 8 * MOST_LOOKS) {
                            asked += 1;
                            if bank.balance(&mut token, account).is_none() {
                                missing += 1;
                            }
                            account = (account + 1) % ACCOUNTS;
                            if asked % 16 == 0 && (&Probe::<Bank>::of()).format(&bank).is_some() {
                                formats += 1;
                            }
                        }
                        (asked, missing, formats)
                    })
                };
                for writer in writers {
                    writer.join().expect("a writer finished");
                }
                done.store(true, Ordering::SeqCst);
                let (audits, audits_taken) = auditor.join().expect("the auditor finished");
                let (balances_asked, balances_missing, formats) =
                    reader.join().expect("the reader finished");
                (audits, audits_taken, balances_asked, balances_missing, formats)
            }
        })
    }));
    match result {
        Ok((audits, audits_taken, balances_asked, balances_missing, formats)) => Seen {
            audits,
            audits_taken,
            balances_asked,
            balances_missing,
            has_debug,
            formats,
            finished: true,
        },
        Err(_) => Seen {
            audits: Vec::new(),
            audits_taken: 0,
            balances_asked: 0,
            balances_missing: 0,
            has_debug,
            formats: 0,
            finished: false,
        },
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let Inputs { start, .. } = inputs(seed);
    assert!(
        seen.finished,
        "the transfers, audits, balances{} did not finish within 8 s: a reader and a writer wait for each other (a deadlock), or a thread panicked",
        if seen.has_debug { " and formats of the bank" } else { "" }
    );
    let total: u64 = start.iter().sum();
    for (number, audit) in seen.audits.iter().enumerate() {
        let sum: u64 = audit.balances.iter().sum();
        assert_eq!(
            sum, total,
            "audit {number} taken during the transfers: its balances add up to {sum}, not the bank's {total}: an audit must read the balances at one moment"
        );
        let mut balances = start.clone();
        for (at, &(from, to, amount)) in audit.ledger.iter().enumerate() {
            assert!(
                balances[from] >= amount,
                "audit {number}: ledger entry {at} ({from} pays {amount} to {to}) overdraws account {from}, which holds {} by the entries before it: the ledger must hold the transfers in the order they were made",
                balances[from]
            );
            balances[from] -= amount;
            balances[to] += amount;
        }
        assert_eq!(
            balances, audit.balances,
            "audit {number}: its ledger, replayed from the starting balances, does not end at its balances: the audit saw a transfer's ledger entry without its balances, or the other way"
        );
        let moved: u64 = audit.ledger.iter().map(|&(_, _, amount)| amount).sum();
        let (transfers, _, counted) = audit.counters;
        assert_eq!(
            (transfers, counted),
            (audit.ledger.len() as u64, moved),
            "audit {number}: the counters say {transfers} transfers moving {counted} where its ledger holds {} moving {moved}: the counters must be written with the ledger, under the same locks",
            audit.ledger.len()
        );
    }
    assert_eq!(
        seen.balances_missing, 0,
        "`balance` said None {} times out of {} for accounts that exist: it must wait for a busy lock, not give up",
        seen.balances_missing, seen.balances_asked
    );
}
