//! Proves consumption: `history` takes only the read lock, so two threads
//! read the history at once. Checked without relying on timing: the case
//! builds the bank in memory whose every access traps
//! (`xsafe_case::pages`), runs one `history` on a thread that stops just
//! before its k-th access to the bank's memory, for k = 1, 2, ... until it
//! finishes without stopping, and at each stop calls `history` on another
//! thread. A second reader must return while the first is stopped: a
//! thread waiting for a lock whose word is in the trapped memory spins
//! through the traps instead of sleeping, and more than
//! `xsafe_case::pages::SPINNING` accesses without returning is a wait, the
//! same on every run. A `history` under the write lock (or under the
//! accounts' locks) makes the second reader wait at the stops where the
//! first holds it.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// How many accesses the case tries to stop the first reader before; a
/// `history` of a bank with at most one transfer makes a few dozen.
const MOST_STOPS: usize = 400;

/// How long the readers may take after the stopped one is let go before
/// they are taken to be deadlocked: far above what they take.
const PATIENCE_SECONDS: u64 = 4;

/// What one stop showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The access the first reader was stopped before.
    stop: usize,
    /// Whether the second reader returned while the first was stopped.
    returned_in_stop: bool,
    /// What went wrong once the first was let go (a reader that panicked,
    /// never ended, or read another history than one read before the
    /// stop), if anything.
    problem: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub enum Seen {
    /// Accesses cannot be trapped here (another system, or Miri).
    NotMeasured,
    Rounds {
        rounds: Vec<Round>,
        /// Whether the first reader still stopped at `MOST_STOPS`.
        unfinished: bool,
    },
}

/// The starting balances and the one transfer tried before the readers.
fn inputs(seed: Seed) -> (Vec<u64>, (usize, usize, u64)) {
    let mut rng = seed.rng();
    let start: Vec<u64> = (0..3).map(|_| rng.u64(1_000..1_000_000)).collect();
    let before = (0, 2, rng.u64(1..=start[0]));
    (start, before)
}

// The observing program's global allocator (`xsafe_case::pages::Paged`)
// is declared once for all cases, in `support.rs`;
// `pages::trial_access` below checks that it is in place.

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order_fine_print::bank::{Bank, Transfer};
    use lock_order_fine_print::with_token;
    use std::sync::Arc;
    use std::time::Duration;
    use xsafe_case::pages;
    use xsafe_case::watch::{Ended, Settled, Watched};

    fn moves(history: Vec<Transfer>) -> Vec<(usize, usize, u64)> {
        history
            .into_iter()
            .map(|transfer| (transfer.from, transfer.to, transfer.amount))
            .collect()
    }
    let patience = Duration::from_secs(PATIENCE_SECONDS);
    let trial = pages::trial_access();
    if !trial.whole {
        return Seen::NotMeasured;
    }
    assert_eq!(
        trial.count, 1,
        "the case's own check: a value made inside `paged` is in the trapped arena (the observing program's global allocator must be `xsafe_case::pages::Paged`)"
    );
    let (start, before) = inputs(seed);
    let mut rounds = Vec::new();
    for stop in 1..=MOST_STOPS {
        let bank = pages::paged(|| {
            let bank = Arc::new(Bank::new(start.clone()));
            let (from, to, amount) = before;
            // Whether the transfer is made, refused or panics is other
            // cases' business: this one reads whatever history it left.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                with_token(|token| bank.transfer(token, Transfer { from, to, amount }))
            }));
            bank
        });
        // The history as the bank holds it, read before any stop: what
        // each reader must return (whether the transfer before was made
        // is other cases' business).
        let expected = with_token(|token| moves(bank.history(token)));
        let first = Watched::start({
            let bank = Arc::clone(&bank);
            move || {
                // The token is taken before the stop is armed: only the
                // bank's own accesses count.
                let history = with_token(|token| {
                    pages::paged(|| pages::stop_at_access(stop, || moves(bank.history(token))))
                });
                drop(bank);
                history
            }
        });
        xsafe_case::watch::wait_until(|| pages::stopped() || first.is_finished());
        if !pages::stopped() {
            // It ran to its end without meeting its `stop`-th access.
            return Seen::Rounds {
                rounds,
                unfinished: false,
            };
        }
        let second = Watched::start({
            let bank = Arc::clone(&bank);
            move || with_token(|token| moves(bank.history(token)))
        });
        let returned_in_stop = second.settle() == Settled::Finished;
        pages::go();
        let read = |which: &str, ended: Ended<Vec<(usize, usize, u64)>>| match ended {
            Ended::Returned(history) if history == expected => None,
            Ended::Returned(history) => Some(format!(
                "the {which} `history` returned {history:?}, not the history {expected:?} that a `history` read before the stop"
            )),
            Ended::Panicked => Some(format!("the {which} `history` panicked")),
            Ended::Hung => Some(format!(
                "the {which} `history` had not returned {PATIENCE_SECONDS} s after the first went on"
            )),
        };
        let first = match first.end(patience) {
            Ended::Returned((history, _)) => Ended::Returned(history),
            Ended::Panicked => Ended::Panicked,
            Ended::Hung => Ended::Hung,
        };
        let problem = read("first", first).or_else(|| read("second", second.end(patience)));
        let stuck = problem.is_some();
        rounds.push(Round {
            stop,
            returned_in_stop,
            problem,
        });
        if stuck {
            // A reader is stuck or read wrong: nothing after this is worth
            // running.
            break;
        }
    }
    let unfinished = rounds.len() == MOST_STOPS;
    Seen::Rounds { rounds, unfinished }
}

pub fn judge(seed: Seed, seen: Seen) {
    let _ = inputs(seed);
    let Seen::Rounds { rounds, unfinished } = seen else {
        // Where accesses cannot be trapped, nothing was measured: the case
        // says nothing either way.
        return;
    };
    for round in &rounds {
        if let Some(problem) = &round.problem {
            panic!(
                "with one `history` stopped before its access {} to the bank's memory and another `history` called meanwhile on another thread: {problem}; two readers must both read the history, each on its own thread",
                round.stop
            );
        }
        assert!(
            round.returned_in_stop,
            "a `history` stopped before its access {} to the bank's memory made a second `history`, on another thread, wait for it: `history` must take only the read lock of the history, which readers share",
            round.stop
        );
    }
    assert!(
        !unfinished,
        "one `history` of a bank with at most one transfer still met a stop at its access {MOST_STOPS}: it reads far more than the history"
    );
}
