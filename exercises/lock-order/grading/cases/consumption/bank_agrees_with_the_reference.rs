//! Proves consumption: the bank answers as the reference solution's does,
//! call by call. The same fixed scripts run on the learner's bank
//! (observed) and on the reference solution's (in the judge), and the
//! judge compares every answer: each `transfer`'s result, `balance` of
//! every account and of one past the last, and `audit`, with the values
//! the bank's types show in `{:?}` and `{:#?}` and their clones. The
//! accounts and amounts come from a small set so that they repeat: a
//! transfer from an account to itself, an amount of zero, an amount equal
//! to the whole balance or one more, an account that does not exist on
//! either side, balances that add up to `u64::MAX`, a bank with no
//! account. The calls use the root token, and, where the crate has
//! `LockToken::fork`, a fork of it. A `Debug` of the bank, if the crate has
//! one, must return in both modes. The values come from the judge's seed;
//! the scripts' shapes are fixed.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Seconds formatting the bank may take: it takes microseconds.
const PATIENCE: u64 = 5;

/// One call of a script.
#[derive(Debug, Clone, Copy)]
enum Call {
    Transfer(usize, usize, u64),
    Balance(usize),
    Audit,
}

/// The scripts: the starting balances and the calls, from the seed.
fn scripts(seed: Seed) -> Vec<(Vec<u64>, Vec<Call>)> {
    let mut rng = seed.rng();
    let mut scripts = Vec::new();
    // Small banks with small amounts: accounts and amounts repeat.
    for accounts in [1_usize, 2, 3] {
        let start: Vec<u64> = (0..accounts).map(|_| rng.u64(0..6)).collect();
        let calls = (0..40)
            .map(|i| match i % 5 {
                0..=2 => Call::Transfer(
                    rng.usize(0..=accounts),
                    if i % 7 == 0 {
                        usize::MAX
                    } else {
                        rng.usize(0..=accounts)
                    },
                    rng.u64(0..7),
                ),
                3 => Call::Balance(rng.usize(0..=accounts)),
                _ => Call::Audit,
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
            Call::Transfer(0, 0, 0),
            Call::Audit,
            Call::Transfer(1, 0, 0),
            Call::Transfer(0, 1, balance),
            Call::Transfer(0, 1, 1),
            Call::Transfer(1, 1, balance),
            Call::Audit,
        ],
    ));
    // Balances that add up to `u64::MAX`.
    let low = rng.u64(..1_000);
    scripts.push((
        vec![u64::MAX - low, low],
        vec![
            Call::Transfer(0, 1, u64::MAX - low),
            Call::Transfer(0, 0, 1),
            Call::Transfer(1, 1, 0),
            Call::Balance(1),
            Call::Transfer(1, 0, low),
            Call::Audit,
        ],
    ));
    // No account at all.
    scripts.push((
        Vec::new(),
        vec![
            Call::Transfer(0, 0, 0),
            Call::Transfer(usize::MAX, 0, rng.u64(..10)),
            Call::Balance(0),
            Call::Audit,
        ],
    ));
    scripts
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Every answer, in order: `(script, call, what the bank answered)`.
    answers: Vec<(usize, String, String)>,
    /// Whether formatting the bank returned, in each mode (`None`: the
    /// bank has no `Debug`).
    bank_debug: Vec<Option<bool>>,
}

/// The scripts' runner, written once for both crates: `$krate` is
/// `lock_order` in the observing program and `xsafe_reference` in the
/// judge.
macro_rules! runner {
    ($krate:ident) => {
        use super::{Call, PATIENCE};
        use std::fmt::Debug;
        use std::marker::PhantomData;
        use std::sync::mpsc;
        use std::thread;
        use std::time::Duration;
        use $krate::LockToken;
        use $krate::bank::{Bank, Transfer};

        /// What a method the crate lacks returns.
        pub struct Absent;

        // Inherent methods come before trait methods: this answers only
        // where the crate has no `fork`.
        #[allow(dead_code)]
        pub trait NoFork {
            fn fork(&mut self) -> Absent {
                Absent
            }
        }
        impl<L> NoFork for LockToken<'_, L> {}

        pub trait Forked<'a, L> {
            fn forked(self) -> Option<LockToken<'a, L>>;
        }
        impl<'a, L> Forked<'a, L> for LockToken<'a, L> {
            fn forked(self) -> Option<LockToken<'a, L>> {
                Some(self)
            }
        }
        impl<'a, L> Forked<'a, L> for Absent {
            fn forked(self) -> Option<LockToken<'a, L>> {
                None
            }
        }

        pub struct Probe<T>(PhantomData<T>);
        pub fn probe<T>() -> Probe<T> {
            Probe(PhantomData)
        }
        pub trait HasDebug<T> {
            fn formatter(&self) -> Option<fn(&T, bool) -> String>;
        }
        impl<T: Debug> HasDebug<T> for Probe<T> {
            fn formatter(&self) -> Option<fn(&T, bool) -> String> {
                Some(|value, pretty| {
                    if pretty {
                        format!("{value:#?}")
                    } else {
                        format!("{value:?}")
                    }
                })
            }
        }
        #[allow(dead_code)]
        pub trait NoDebug<T> {
            fn formatter(&self) -> Option<fn(&T, bool) -> String> {
                None
            }
        }
        impl<T> NoDebug<T> for &Probe<T> {}

        /// A value in both modes and its clone's, and whether they agree.
        fn shown<T: Debug + Clone + PartialEq>(value: &T) -> String {
            let copy = value.clone();
            format!(
                "{value:?} | {value:#?} | clone equal: {}, clone shows {copy:?}",
                copy == *value
            )
        }

        fn call<H: $krate::LockBefore<$krate::bank::Accounts>>(
            bank: &Bank,
            token: &mut LockToken<'_, H>,
            call: Call,
        ) -> String {
            match call {
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
                Call::Audit => {
                    let audit = bank.audit(token);
                    format!("{} / counters {}", shown(&audit), shown(&audit.counters))
                }
            }
        }

        pub fn run(
            scripts: &[(Vec<u64>, Vec<Call>)],
        ) -> (Vec<(usize, String, String)>, Vec<Option<bool>>) {
            let mut answers = Vec::new();
            let mut root = LockToken::new();
            let mut bank_debug = Vec::new();
            for (index, (start, calls)) in scripts.iter().enumerate() {
                let bank = Bank::new(start.clone());
                for (number, &step) in calls.iter().enumerate() {
                    let answer = if number % 3 == 2 {
                        let forked: Option<LockToken<'_, $krate::Unlocked>> =
                            Forked::forked(root.fork());
                        match forked {
                            Some(mut fork) => call(&bank, &mut fork, step),
                            None => call(&bank, &mut root, step),
                        }
                    } else {
                        call(&bank, &mut root, step)
                    };
                    answers.push((index, format!("call {number}: {step:?}"), answer));
                }
                if index == 0 {
                    let format = (&probe::<Bank>()).formatter();
                    for pretty in [false, true] {
                        bank_debug.push(format.map(|format| {
                            thread::scope(|scope| {
                                let (done, finished) = mpsc::channel();
                                let bank = &bank;
                                scope.spawn(move || {
                                    let _ = done.send(format(bank, pretty));
                                });
                                finished.recv_timeout(Duration::from_secs(PATIENCE)).is_ok()
                            })
                        }));
                    }
                }
            }
            (answers, bank_debug)
        }
    };
}

#[cfg(not(xsafe_judge))]
mod learner {
    runner!(lock_order);
}

#[cfg(xsafe_judge)]
mod reference {
    runner!(xsafe_reference);
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    let (answers, bank_debug) = learner::run(&scripts(seed));
    Seen {
        answers,
        bank_debug,
    }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    let scripts = scripts(seed);
    let (expected, _) = reference::run(&scripts);
    for (index, want) in expected.iter().enumerate() {
        let (script, step, answer) = want;
        let starting = &scripts[*script].0;
        let Some(got) = seen.answers.get(index) else {
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
    for (mode, returned) in ["{:?}", "{:#?}"].iter().zip(&seen.bank_debug) {
        assert!(
            *returned != Some(false),
            "formatting the bank with {mode} waited for {PATIENCE} s: Debug must not wait for the bank's locks"
        );
    }
}
