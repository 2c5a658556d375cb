//! Proves consumption: a transfer keeps the balances locked until its
//! ledger entry is written, so no reader can see money moved that the
//! ledger does not record yet. Checked without relying on timing: the case
//! stops one transfer at a known point inside the bank (its first memory
//! allocation, which in a bank whose ledger starts empty is the ledger's
//! push) and looks at what a second transfer and a reader can do
//! meanwhile. The bank lives in memory whose every access traps
//! (`xsafe_case::pages`), so a thread that waits for one of its locks
//! spins through the traps and is seen waiting by its count of accesses,
//! not by time (`xsafe_case::watch`). The case fails only on proof (the
//! reader returned a balance the second transfer had already changed); a
//! bank that holds its locks as it should passes however slowly the
//! machine runs.
//!
//! With the locks held as the chapter says, the stopped transfer holds the
//! balances, so the second transfer and the reader both wait. A transfer
//! that lets go of the balances before it takes the ledger lets the second
//! transfer move money and then wait for the ledger, and the reader then
//! sees that money gone with no entry for it. A bank whose transfer does
//! not allocate while it holds a lock (a ledger made with spare capacity)
//! cannot be stopped this way, and passes this case.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// What the case could arrange, and what it saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seen {
    /// The first transfer never allocated: nothing to stop.
    NotStopped,
    /// The second transfer did not wait while the first was stopped: the
    /// first held no lock it needed (it stopped before taking any).
    SecondDidNotWait,
    /// The second transfer waited; what the reader's `balance(2)` did
    /// meanwhile.
    SecondWaited(Reader),
    /// A transfer panicked.
    Panicked,
}

/// What `balance(2)` did while the second transfer waited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reader {
    /// It waited too.
    Waited,
    /// It returned this.
    Returned(Option<u64>),
}

/// The starting balances, the first transfer's amount (0 to 1) and the
/// second's (2 to 3).
fn inputs(seed: Seed) -> ([u64; 4], u64, u64) {
    let mut rng = seed.rng();
    let start: [u64; 4] = std::array::from_fn(|_| rng.u64(1_000..1_000_000));
    let first = rng.u64(1..=start[0]);
    let second = rng.u64(1..=start[2]);
    (start, first, second)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order::LockToken;
    use lock_order::bank::{Bank, Transfer};
    use std::sync::Arc;
    use std::thread;
    use std::time::Duration;
    use xsafe_case::pages;
    use xsafe_case::watch::{Ended, Settled, Watched};

    /// Far above what a transfer or a `balance` that waits for nothing
    /// takes (microseconds, milliseconds through the traps).
    const PATIENCE: Duration = Duration::from_secs(4);

    let (start, first, second) = inputs(seed);
    // The bank's memory, its locks' words included, in the trapped arena:
    // a thread that waits for one of its locks spins through the traps,
    // and `Watched::settle` sees it by its count of accesses, not by time.
    let bank = pages::paged(|| Arc::new(Bank::new(start.to_vec())));
    let first_thread = {
        let bank = Arc::clone(&bank);
        thread::spawn(move || {
            let mut token = LockToken::new();
            // A refused transfer first: whatever the bank sets up on a
            // thread's first call is set up before the case arms the stop,
            // and the ledger (no entry yet) stays empty.
            let refused = Transfer {
                from: 0,
                to: 1,
                amount: start[0] + 1,
            };
            let _ = bank.transfer(&mut token, refused);
            let made = Transfer {
                from: 0,
                to: 1,
                amount: first,
            };
            // Every access to the arena traps during this session (it
            // never stops by count); the stop is the allocator's.
            pages::stop_at_access(usize::MAX, || {
                crate::support::stop::arm();
                let _ = bank.transfer(&mut token, made);
                crate::support::stop::disarm();
            });
        })
    };
    xsafe_case::watch::wait_until(|| crate::support::stop::stopped() || first_thread.is_finished());
    if !crate::support::stop::stopped() {
        return match first_thread.join() {
            Ok(()) => Seen::NotStopped,
            Err(_) => Seen::Panicked,
        };
    }
    let second_thread = Watched::start({
        let bank = Arc::clone(&bank);
        move || {
            let made = Transfer {
                from: 2,
                to: 3,
                amount: second,
            };
            let _ = bank.transfer(&mut LockToken::new(), made);
        }
    });
    let seen = match second_thread.settle() {
        // Busy: no sign of a wait (where accesses cannot be trapped and
        // `/proc` is hidden): taken as not waiting, which fails nothing.
        Settled::Finished | Settled::Busy => Seen::SecondDidNotWait,
        Settled::Waiting => {
            let reader = Watched::start({
                let bank = Arc::clone(&bank);
                move || bank.balance(&mut LockToken::new(), 2)
            });
            let saw = match reader.settle() {
                Settled::Waiting | Settled::Busy => None,
                Settled::Finished => Some(reader),
            };
            crate::support::stop::release();
            match saw {
                Some(reader) => match reader.end(PATIENCE) {
                    Ended::Returned(balance) => Seen::SecondWaited(Reader::Returned(balance)),
                    Ended::Panicked | Ended::Hung => Seen::Panicked,
                },
                None => Seen::SecondWaited(Reader::Waited),
            }
        }
    };
    crate::support::stop::release();
    let first_ended = first_thread.join();
    let second_ended = second_thread.end(PATIENCE);
    if first_ended.is_err() || !matches!(second_ended, Ended::Returned(())) {
        return Seen::Panicked;
    }
    seen
}

pub fn judge(seed: Seed, seen: Seen) {
    let (start, _, second) = inputs(seed);
    assert_ne!(seen, Seen::Panicked, "a transfer that the bank can make panicked");
    if let Seen::SecondWaited(Reader::Returned(Some(balance))) = seen {
        assert!(
            balance != start[2] - second,
            "while one transfer was inside the bank (writing its ledger entry), a second transfer took {second} out of account 2 and then waited, and `balance(2)` already showed {balance}: the second transfer let go of the balances before it had the ledger, so an audit at that moment would find money moved with no ledger entry. Keep the balances' guard until the ledger and the counters are written"
        );
    }
}
