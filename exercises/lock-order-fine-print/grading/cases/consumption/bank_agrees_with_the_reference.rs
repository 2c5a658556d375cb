//! Proves consumption: the bank answers as the reference solution's does,
//! call by call. The same fixed scripts run on the learner's bank
//! (observed) and on the reference solution's (in the judge), and the
//! judge compares every answer: each `transfer`'s result, `balance` of
//! every account and of one past the last, `history` (also with a token at
//! `Accounts`, from a mutex of the case's own at that level), `len` and
//! `is_empty`, with the values the bank's types show in `{:?}` and `{:#?}`
//! and their clones. The accounts and amounts come from a small set so that
//! they repeat: a transfer from an account to itself (refused as
//! `SameAccount`, never a deadlock), an amount of zero, an amount equal to
//! the whole balance or one more, an account that does not exist on either
//! side, a bank with no account. The values come from the judge's seed; the
//! scripts' shapes are fixed. The scripts run on a thread of their own: a
//! call that has not answered after a few seconds (a transfer that waits
//! for the lock it holds) ends the observation.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Seconds a call may take before the observation ends: calls take
/// microseconds, and a call that waits for its own lock waits for ever.
const PATIENCE: u64 = 4;

/// One call of a script.
#[derive(Debug, Clone, Copy)]
enum Call {
    Transfer(usize, usize, u64),
    Balance(usize),
    History,
    /// `history` with a token at `Accounts`.
    HistoryUnderAccounts,
    Size,
}

/// The scripts: the starting balances and the calls, from the seed.
fn scripts(seed: Seed) -> Vec<(Vec<u64>, Vec<Call>)> {
    let mut rng = seed.rng();
    let mut scripts = Vec::new();
    // Small banks with small amounts: accounts and amounts repeat.
    for accounts in [1_usize, 2, 3] {
        let start: Vec<u64> = (0..accounts).map(|_| rng.u64(0..6)).collect();
        let calls = (0..40)
            .map(|i| match i % 8 {
                0..=3 => Call::Transfer(
                    rng.usize(0..=accounts),
                    if i % 9 == 0 {
                        usize::MAX
                    } else {
                        rng.usize(0..=accounts)
                    },
                    rng.u64(0..7),
                ),
                4 => Call::Balance(rng.usize(0..=accounts)),
                5 => Call::History,
                6 => Call::HistoryUnderAccounts,
                _ => Call::Size,
            })
            .collect();
        scripts.push((start, calls));
    }
    // Transfers to oneself, of the whole balance and of one more.
    let balance = rng.u64(1..1_000);
    scripts.push((
        vec![balance, rng.u64(0..1_000)],
        vec![
            Call::Transfer(0, 0, balance),
            Call::Transfer(0, 0, balance + 1),
            Call::Transfer(1, 1, 0),
            Call::Transfer(2, 2, 0),
            Call::History,
            Call::Transfer(1, 0, 0),
            Call::Transfer(0, 1, balance),
            Call::Transfer(0, 1, 1),
            Call::Transfer(1, 1, balance),
            Call::Balance(0),
            Call::Balance(1),
            Call::HistoryUnderAccounts,
        ],
    ));
    // No account at all.
    scripts.push((
        Vec::new(),
        vec![
            Call::Size,
            Call::Transfer(0, 0, 0),
            Call::Transfer(usize::MAX, 0, rng.u64(..10)),
            Call::Balance(0),
            Call::History,
        ],
    ));
    scripts
}

/// One answer: `(script, call, what the bank answered)`.
type Answer = (usize, String, String);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    answers: Vec<Answer>,
    /// Whether the scripts stopped answering before their end.
    stalled: bool,
}

/// The scripts' runner, written once for both crates: `$krate` is
/// `lock_order_fine_print` in the observing program and `xsafe_reference`
/// in the judge.
macro_rules! runner {
    ($krate:ident) => {
        use super::{Answer, Call};
        use std::fmt::Debug;
        use std::sync::mpsc;
        use $krate::bank::{Accounts, Bank, Transfer};
        use $krate::{Lock, OrderedMutex, with_token};

        /// A value in both modes and its clone's, and whether they agree.
        fn shown<T: Debug + Clone + PartialEq>(value: &T) -> String {
            let copy = value.clone();
            format!(
                "{value:?} | {value:#?} | clone equal: {}, clone shows {copy:?}",
                copy == *value
            )
        }

        fn call(bank: &Bank, level: &OrderedMutex<Accounts, u64>, call: Call) -> String {
            with_token(|token| match call {
                Call::Transfer(from, to, amount) => {
                    let transfer = Transfer { from, to, amount };
                    let result = bank.transfer(token, transfer);
                    format!(
                        "{} -> {}",
                        shown(&transfer),
                        match result {
                            Ok(()) => "Ok(())".to_owned(),
                            Err(error) => format!("Err({})", shown(&error)),
                        }
                    )
                }
                Call::Balance(account) => format!("{:?}", bank.balance(token, account)),
                Call::History => format!("{:?}", bank.history(token)),
                Call::HistoryUnderAccounts => {
                    let (_held, mut at_accounts) = level.lock(token);
                    let history = bank.history(&mut at_accounts);
                    format!("{history:?} | {history:#?}")
                }
                Call::Size => format!("len {}, is_empty {}", bank.len(), bank.is_empty()),
            })
        }

        pub fn run(scripts: &[(Vec<u64>, Vec<Call>)], sink: &mpsc::Sender<Answer>) {
            let level = OrderedMutex::<Accounts, u64>::new(0);
            for (index, (start, calls)) in scripts.iter().enumerate() {
                let bank = Bank::new(start.clone());
                for (number, &step) in calls.iter().enumerate() {
                    let answer = call(&bank, &level, step);
                    let _ = sink.send((index, format!("call {number}: {step:?}"), answer));
                }
            }
        }
    };
}

#[cfg(not(xsafe_judge))]
mod learner {
    runner!(lock_order_fine_print);
}

#[cfg(xsafe_judge)]
mod reference {
    runner!(xsafe_reference);
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    let scripts = scripts(seed);
    let (sink, answers) = mpsc::channel();
    let runner = thread::spawn(move || learner::run(&scripts, &sink));
    let mut seen = Vec::new();
    loop {
        match answers.recv_timeout(Duration::from_secs(PATIENCE)) {
            Ok(answer) => seen.push(answer),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                if let Err(panic) = runner.join() {
                    std::panic::resume_unwind(panic);
                }
                return Seen {
                    answers: seen,
                    stalled: false,
                };
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Seen {
                    answers: seen,
                    stalled: true,
                };
            }
        }
    }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    let scripts = scripts(seed);
    let (sink, answers) = std::sync::mpsc::channel();
    reference::run(&scripts, &sink);
    let expected: Vec<Answer> = answers.try_iter().collect();
    for (index, (script, step, answer)) in expected.iter().enumerate() {
        let starting = &scripts[*script].0;
        let Some(got) = seen.answers.get(index) else {
            if seen.stalled {
                panic!(
                    "script {script} (a bank with balances {starting:?}), {step}: no answer after {PATIENCE} s: does the bank wait for a lock it holds?"
                );
            }
            panic!("script {script} (a bank with balances {starting:?}) stopped before {step}");
        };
        assert_eq!(
            got.1, *step,
            "script {script} (a bank with balances {starting:?}): the calls"
        );
        assert_eq!(
            got.2, *answer,
            "script {script}, a bank that started with balances {starting:?}, {step}: your bank answered the left, the reference solution the right"
        );
    }
    assert_eq!(seen.answers.len(), expected.len(), "the number of answers");
}
