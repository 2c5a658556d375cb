//! Proves consumption: the bank answers as the reference solution's does,
//! call by call. The same scripts run on the learner's bank (observed) and
//! on the reference solution's (in the judge), and the judge compares
//! every answer: each `transfer`'s result, `balance` of every account and
//! of one past the last, and `audit`, with the values the bank's types
//! show in `{:?}` and `{:#?}` and their clones. The accounts and amounts
//! come from a small set so that they repeat: a transfer from an account
//! to itself, an amount of zero, an amount equal to the whole balance or
//! one more, an account that does not exist on either side, balances that
//! add up to `u64::MAX`, a bank with no account. The calls use the root
//! token, and, where the crate has `LockToken::fork`, a fork of it. A
//! `Debug` of the bank, if the crate has one, must return in both modes.
//! The scripts of small banks are drawn with proptest from the judge's
//! seed; the other scripts' shapes are fixed, their values from the seed.
//! When a drawn script goes wrong, the message also shows the smallest
//! script that proptest's shrinking finds going wrong against the cases'
//! own model of the bank, checked by the judge against the reference
//! before it is told.
use serde::{Deserialize, Serialize};
use xsafe_case::proptest::collection::vec;
use xsafe_case::proptest::prelude::*;
use xsafe_case::proptest::strategy::ValueTree;
use xsafe_case::{Seed, shrink};

/// Seconds formatting the bank may take: it takes microseconds.
const PATIENCE: u64 = 5;

/// How many scripts are drawn for each size of small bank, how many calls
/// each has at most (60 on average), and how many smaller scripts
/// shrinking may try.
const DRAWN: usize = 4;
const LONGEST: usize = 120;
const SHRINK_BUDGET: usize = 2_000;

/// One call of a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Call {
    Transfer(usize, usize, u64),
    Balance(usize),
    Audit,
}

/// A script: the starting balances and the calls.
type Script = (Vec<u64>, Vec<Call>);

/// The scripts of small banks with small amounts, where accounts and
/// amounts repeat, as trees that can shrink: `DRAWN` for each of 1, 2 and
/// 3 accounts, drawn from the seed.
fn drawn(seed: Seed) -> Vec<Box<dyn ValueTree<Value = Script>>> {
    let mut runner = shrink::runner(seed.0);
    let mut trees = Vec::new();
    for accounts in [1_usize, 2, 3] {
        // An account index: one of the bank's, one past the last, or one
        // far away.
        let account = || prop_oneof![9 => 0..=accounts, 1 => Just(usize::MAX)];
        let call = prop_oneof![
            3 => (0..=accounts, account(), 0u64..7)
                .prop_map(|(from, to, amount)| Call::Transfer(from, to, amount)),
            1 => (0..=accounts).prop_map(Call::Balance),
            1 => Just(Call::Audit),
        ];
        let strategy = (vec(0u64..6, accounts), vec(call, 0..=LONGEST)).boxed();
        for _ in 0..DRAWN {
            trees.push(shrink::draw(&strategy, &mut runner));
        }
    }
    trees
}

/// The scripts: the drawn ones, then the fixed shapes, with values from
/// the seed.
fn scripts(seed: Seed) -> Vec<Script> {
    let mut rng = seed.rng();
    let mut scripts: Vec<Script> = drawn(seed).iter().map(|tree| tree.current()).collect();
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
    /// For the first drawn script that went wrong, the smallest script
    /// shrinking found going wrong, and its answers (only for the message:
    /// the verdict comes from `answers`).
    smaller: Option<(usize, Script, Vec<Answer>)>,
}

/// One answer: `(script, call, what the bank answered)`.
type Answer = (usize, String, String);

/// A value in both modes and its clone's, and whether they agree: how the
/// runner and the model show every value of the bank's types.
fn shown<T: std::fmt::Debug + Clone + PartialEq>(value: &T) -> String {
    let copy = value.clone();
    format!(
        "{value:?} | {value:#?} | clone equal: {}, clone shows {copy:?}",
        copy == *value
    )
}

/// The answer to a transfer: the transfer, then its result.
fn transfer_answer<T, E>(transfer: &T, result: Result<(), E>) -> String
where
    T: std::fmt::Debug + Clone + PartialEq,
    E: std::fmt::Debug + Clone + PartialEq,
{
    format!(
        "{} -> {}",
        shown(transfer),
        match result {
            Ok(()) => "Ok(())".to_owned(),
            Err(error) => format!("Err({})", shown(&error)),
        }
    )
}

/// The scripts' runner, written once for both crates: `$krate` is
/// `lock_order` in the observing program, and `xsafe_reference` in the
/// judge.
macro_rules! runner {
    ($krate:ident) => {
        use super::{Call, PATIENCE, shown};
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

        fn call<H: $krate::LockBefore<$krate::bank::Accounts>>(
            bank: &Bank,
            token: &mut LockToken<'_, H>,
            call: Call,
        ) -> String {
            match call {
                Call::Transfer(from, to, amount) => {
                    let transfer = Transfer { from, to, amount };
                    let result = bank.transfer(token, transfer);
                    super::transfer_answer(&transfer, result)
                }
                Call::Balance(account) => format!("{:?}", bank.balance(token, account)),
                Call::Audit => {
                    let audit = bank.audit(token);
                    format!("{} / counters {}", shown(&audit), shown(&audit.counters))
                }
            }
        }

        /// Runs the scripts; formats the first script's bank when `debug`.
        pub fn run(
            scripts: &[(Vec<u64>, Vec<Call>)],
            debug: bool,
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
                if index == 0 && debug {
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

/// The judge's model, which decides. Only the judge links the reference.
#[cfg(xsafe_judge)]
mod reference {
    runner!(xsafe_reference);
}

/// The bank as the chapter describes it, written for the cases and
/// independent of the reference solution: books kept in `u128`, so no sum
/// of the model can overflow, and types that show as the crate's do. The
/// observing program shrinks a failing drawn script against it (never a
/// verdict: the judge checks a shrunk script against the reference).
#[cfg(not(xsafe_judge))]
mod model {
    use super::{Answer, Call, Script, shown, transfer_answer};

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Transfer {
        from: usize,
        to: usize,
        amount: u64,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum TransferError {
        NoSuchAccount(usize),
        InsufficientFunds { account: usize, balance: u64 },
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Counters {
        transfers: u64,
        rejected: u64,
        moved: u64,
    }

    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Audit {
        balances: Vec<u64>,
        ledger: Vec<Transfer>,
        counters: Counters,
    }

    /// A balance as the crate's `u64` (the model's books never exceed
    /// what `Bank::new` accepted).
    fn narrow(value: u128) -> u64 {
        u64::try_from(value).unwrap_or(u64::MAX)
    }

    /// The answers the chapter's bank gives to `scripts`.
    pub fn run(scripts: &[Script]) -> Vec<Answer> {
        let mut answers = Vec::new();
        for (index, (start, calls)) in scripts.iter().enumerate() {
            let mut balances: Vec<u128> = start.iter().map(|&balance| u128::from(balance)).collect();
            let mut ledger = Vec::new();
            let (mut transfers, mut rejected, mut moved) = (0_u64, 0_u64, 0_u128);
            for (number, &step) in calls.iter().enumerate() {
                let answer = match step {
                    Call::Transfer(from, to, amount) => {
                        let transfer = Transfer { from, to, amount };
                        let outcome = if from >= balances.len() {
                            Err(TransferError::NoSuchAccount(from))
                        } else if to >= balances.len() {
                            Err(TransferError::NoSuchAccount(to))
                        } else if balances[from] < u128::from(amount) {
                            Err(TransferError::InsufficientFunds {
                                account: from,
                                balance: narrow(balances[from]),
                            })
                        } else {
                            balances[from] -= u128::from(amount);
                            balances[to] += u128::from(amount);
                            Ok(())
                        };
                        match outcome {
                            Ok(()) => {
                                ledger.push(transfer);
                                transfers += 1;
                                moved += u128::from(amount);
                            }
                            Err(_) => rejected += 1,
                        }
                        transfer_answer(&transfer, outcome)
                    }
                    Call::Balance(account) => {
                        format!("{:?}", balances.get(account).copied().map(narrow))
                    }
                    Call::Audit => {
                        let audit = Audit {
                            balances: balances.iter().copied().map(narrow).collect(),
                            ledger: ledger.clone(),
                            counters: Counters {
                                transfers,
                                rejected,
                                // The sum stops at u64::MAX.
                                moved: narrow(moved),
                            },
                        };
                        format!("{} / counters {}", shown(&audit), shown(&audit.counters))
                    }
                };
                answers.push((index, format!("call {number}: {step:?}"), answer));
            }
        }
        answers
    }
}

/// What the reference answers to `scripts` (in the judge), or the cases'
/// model (in the observing program, only to know when to shrink).
fn expected(scripts: &[Script]) -> Vec<Answer> {
    #[cfg(xsafe_judge)]
    {
        reference::run(scripts, false).0
    }
    #[cfg(not(xsafe_judge))]
    model::run(scripts)
}

/// Checks `got`, the answers to `scripts`, against the reference's: a
/// failed assertion is the verdict "failed". `label` names the scripts.
fn check(label: &dyn Fn(usize) -> String, scripts: &[Script], got: &[Answer]) {
    let expected = expected(scripts);
    for (index, want) in expected.iter().enumerate() {
        let (script, step, answer) = want;
        let starting = &scripts[*script].0;
        let name = label(*script);
        let Some(got) = got.get(index) else {
            panic!("{name} (a bank with balances {starting:?}) stopped before {step}");
        };
        assert_eq!(
            got.1, *step,
            "{name} (a bank with balances {starting:?}): the calls"
        );
        assert_eq!(
            got.2, *answer,
            "{name}, a bank that started with balances {starting:?}, {step}: your bank answered the left, the reference solution the right"
        );
    }
    assert_eq!(got.len(), expected.len(), "the number of answers");
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    let scripts = scripts(seed);
    let (answers, bank_debug) = learner::run(&scripts, true);
    // The judge's own check, script by script, run here against the cases'
    // model only to know when to shrink. Shrinking runs the bank on
    // scripts that may make it panic, or that fail the check: both
    // quietly.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let label = |_| "script".to_owned();
    let wrong = |script: &Script, got: &[Answer]| {
        catch_unwind(AssertUnwindSafe(|| {
            check(&label, std::slice::from_ref(script), got);
        }))
        .is_err()
    };
    let alone = |script: &Script| {
        catch_unwind(AssertUnwindSafe(|| {
            learner::run(std::slice::from_ref(script), false).0
        }))
    };
    let mut smaller = None;
    for (number, tree) in drawn(seed).into_iter().enumerate() {
        let got: Vec<Answer> = answers
            .iter()
            .filter(|answer| answer.0 == number)
            .map(|(_, step, answer)| (0, step.clone(), answer.clone()))
            .collect();
        if !wrong(&tree.current(), &got) {
            continue;
        }
        let script = shrink::smallest_failing(tree, SHRINK_BUDGET, |script| {
            alone(script).is_ok_and(|got| wrong(script, &got))
        });
        smaller = alone(&script).ok().map(|got| (number, script, got));
        break;
    }
    std::panic::set_hook(hook);
    Seen {
        answers,
        bank_debug,
        smaller,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

    let scripts = scripts(seed);
    let label = |script| format!("script {script}");
    let Err(failure) = catch_unwind(AssertUnwindSafe(|| {
        check(&label, &scripts, &seen.answers);
    })) else {
        for (mode, returned) in ["{:?}", "{:#?}"].iter().zip(&seen.bank_debug) {
            assert!(
                *returned != Some(false),
                "formatting the bank with {mode} waited for {PATIENCE} s: Debug must not wait for the bank's locks"
            );
        }
        return;
    };
    // The verdict is this failure. A smaller script that the check also
    // fails, if the observation has one for a drawn script that went
    // wrong, is told after it.
    if let Some((of, script, got)) = &seen.smaller
        && let Some(full) = scripts.get(*of).filter(|_| *of < 3 * DRAWN)
    {
        let full_got: Vec<Answer> = seen
            .answers
            .iter()
            .filter(|answer| answer.0 == *of)
            .map(|(_, step, answer)| (0, step.clone(), answer.clone()))
            .collect();
        let shrunk = |_| format!("the shrunk script of script {of}");
        let fails = |script: &Script, got: &[Answer]| {
            catch_unwind(AssertUnwindSafe(|| {
                check(&shrunk, std::slice::from_ref(script), got);
            }))
        };
        if fails(full, &full_got).is_err()
            && let Err(small) = fails(script, got)
        {
            let text = |payload: &(dyn std::any::Any + Send)| {
                payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|text| (*text).to_owned()))
                    .unwrap_or_default()
            };
            panic!(
                "{}\nThe smallest script shrinking found going wrong (from script {of}), on a new bank with balances {:?} and the root token (a fork of it at every third call, where the crate has `fork`): {:?}\nThere: {}",
                text(&*failure),
                script.0,
                script.1,
                text(&*small)
            );
        }
    }
    resume_unwind(failure);
}
