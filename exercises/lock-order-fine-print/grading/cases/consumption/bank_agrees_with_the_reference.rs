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
//! side, a bank with no account. The scripts of small banks are drawn with
//! proptest from the judge's seed; the other scripts' shapes are fixed,
//! their values from the seed. The scripts run on a thread of their own: a
//! call that has not answered after a few seconds (a transfer that waits
//! for the lock it holds) ends the observation. When a drawn script goes
//! wrong (and none waited), the message also shows the smallest script
//! that proptest's shrinking finds going wrong against the cases' own
//! model of the bank, checked by the judge against the reference before it
//! is told.
use serde::{Deserialize, Serialize};
use xsafe_case::proptest::collection::vec;
use xsafe_case::proptest::prelude::*;
use xsafe_case::proptest::strategy::ValueTree;
use xsafe_case::{Seed, shrink};

/// Seconds a call may take before the observation ends: calls take
/// microseconds, and a call that waits for its own lock waits for ever.
const PATIENCE: u64 = 4;

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
    History,
    /// `history` with a token at `Accounts`.
    HistoryUnderAccounts,
    Size,
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
            4 => (0..=accounts, account(), 0u64..7)
                .prop_map(|(from, to, amount)| Call::Transfer(from, to, amount)),
            1 => (0..=accounts).prop_map(Call::Balance),
            1 => Just(Call::History),
            1 => Just(Call::HistoryUnderAccounts),
            1 => Just(Call::Size),
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
    /// For the first drawn script that went wrong, the smallest script
    /// shrinking found going wrong, and its answers (only for the message:
    /// the verdict comes from `answers`).
    smaller: Option<(usize, Script, Vec<Answer>)>,
}

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
/// `lock_order_fine_print` in the observing program, and `xsafe_reference`
/// in the judge.
macro_rules! runner {
    ($krate:ident) => {
        use super::{Answer, Call};
        use std::sync::mpsc;
        use $krate::bank::{Accounts, Bank, Transfer};
        use $krate::{Lock, OrderedMutex, with_token};

        fn call(bank: &Bank, level: &OrderedMutex<Accounts, u64>, call: Call) -> String {
            with_token(|token| match call {
                Call::Transfer(from, to, amount) => {
                    let transfer = Transfer { from, to, amount };
                    let result = bank.transfer(token, transfer);
                    super::transfer_answer(&transfer, result)
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

/// The judge's model, which decides. Only the judge links the reference.
#[cfg(xsafe_judge)]
mod reference {
    runner!(xsafe_reference);
}

/// The bank as the chapter describes it, written for the cases and
/// independent of the reference solution: balances kept in `u128`, so no
/// step of the model can overflow, and types that show as the crate's do.
/// The observing program shrinks a failing drawn script against it (never
/// a verdict: the judge checks a shrunk script against the reference).
#[cfg(not(xsafe_judge))]
mod model {
    use super::{Answer, Call, Script, transfer_answer};

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Transfer {
        from: usize,
        to: usize,
        amount: u64,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum TransferError {
        NoSuchAccount(usize),
        SameAccount(usize),
        InsufficientFunds { account: usize, balance: u64 },
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
            let mut history = Vec::new();
            for (number, &step) in calls.iter().enumerate() {
                let answer = match step {
                    Call::Transfer(from, to, amount) => {
                        let transfer = Transfer { from, to, amount };
                        let outcome = if from >= balances.len() {
                            Err(TransferError::NoSuchAccount(from))
                        } else if to >= balances.len() {
                            Err(TransferError::NoSuchAccount(to))
                        } else if from == to {
                            Err(TransferError::SameAccount(from))
                        } else if balances[from] < u128::from(amount) {
                            Err(TransferError::InsufficientFunds {
                                account: from,
                                balance: narrow(balances[from]),
                            })
                        } else {
                            balances[from] -= u128::from(amount);
                            balances[to] += u128::from(amount);
                            history.push(transfer);
                            Ok(())
                        };
                        transfer_answer(&transfer, outcome)
                    }
                    Call::Balance(account) => {
                        format!("{:?}", balances.get(account).copied().map(narrow))
                    }
                    Call::History => format!("{history:?}"),
                    Call::HistoryUnderAccounts => format!("{history:?} | {history:#?}"),
                    Call::Size => format!(
                        "len {}, is_empty {}",
                        balances.len(),
                        balances.is_empty()
                    ),
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
        let (sink, answers) = std::sync::mpsc::channel();
        reference::run(scripts, &sink);
        answers.try_iter().collect()
    }
    #[cfg(not(xsafe_judge))]
    model::run(scripts)
}

/// Checks `got`, the answers to `scripts`, against the reference's: a
/// failed assertion is the verdict "failed". `label` names a script.
fn check(label: &dyn Fn(usize) -> String, scripts: &[Script], got: &[Answer], stalled: bool) {
    let expected = expected(scripts);
    for (index, (script, step, answer)) in expected.iter().enumerate() {
        let starting = &scripts[*script].0;
        let name = label(*script);
        let Some(got) = got.get(index) else {
            if stalled {
                panic!(
                    "{name} (a bank with balances {starting:?}), {step}: no answer after {PATIENCE} s: does the bank wait for a lock it holds?"
                );
            }
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

/// The answers of one script, renumbered as a script of its own.
fn answers_of(answers: &[Answer], script: usize) -> Vec<Answer> {
    answers
        .iter()
        .filter(|answer| answer.0 == script)
        .map(|(_, step, answer)| (0, step.clone(), answer.clone()))
        .collect()
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    let scripts = scripts(seed);
    let (sink, answers) = mpsc::channel();
    let all = scripts.clone();
    let runner = thread::spawn(move || learner::run(&all, &sink));
    let mut seen = Vec::new();
    loop {
        match answers.recv_timeout(Duration::from_secs(PATIENCE)) {
            Ok(answer) => seen.push(answer),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                if let Err(panic) = runner.join() {
                    std::panic::resume_unwind(panic);
                }
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Seen {
                    answers: seen,
                    stalled: true,
                    smaller: None,
                };
            }
        }
    }
    // The judge's own check, script by script, run here against the cases'
    // model only to know when to shrink. Shrinking runs the bank on
    // scripts that may make it panic, or that fail the check: both
    // quietly. A smaller script whose call waits (a transfer to oneself
    // that shrinking made) ends the shrinking where it is: the scripts
    // run on a thread of their own, and one that waits is left waiting.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let label = |_| "script".to_owned();
    let wrong = |script: &Script, got: &[Answer]| {
        catch_unwind(AssertUnwindSafe(|| {
            check(&label, std::slice::from_ref(script), got, false);
        }))
        .is_err()
    };
    let waited = std::cell::Cell::new(false);
    let alone = |script: &Script| -> Option<Vec<Answer>> {
        if waited.get() {
            return None;
        }
        let (sink, answers) = mpsc::channel();
        let one = vec![script.clone()];
        let runner = thread::spawn(move || learner::run(&one, &sink));
        let mut got = Vec::new();
        loop {
            match answers.recv_timeout(Duration::from_secs(PATIENCE)) {
                Ok(answer) => got.push(answer),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return runner.join().ok().map(|()| got);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    waited.set(true);
                    return None;
                }
            }
        }
    };
    let mut smaller = None;
    for (number, tree) in drawn(seed).into_iter().enumerate() {
        if !wrong(&tree.current(), &answers_of(&seen, number)) {
            continue;
        }
        let script = shrink::smallest_failing(tree, SHRINK_BUDGET, |script| {
            alone(script).is_some_and(|got| wrong(script, &got))
        });
        waited.set(false);
        smaller = alone(&script).map(|got| (number, script, got));
        break;
    }
    std::panic::set_hook(hook);
    Seen {
        answers: seen,
        stalled: false,
        smaller,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

    let scripts = scripts(seed);
    let label = |script| format!("script {script}");
    let Err(failure) = catch_unwind(AssertUnwindSafe(|| {
        check(&label, &scripts, &seen.answers, seen.stalled);
    })) else {
        return;
    };
    // The verdict is this failure. A smaller script that the check also
    // fails, if the observation has one for a drawn script that went
    // wrong, is told after it.
    if let Some((of, script, got)) = &seen.smaller
        && !seen.stalled
        && let Some(full) = scripts.get(*of).filter(|_| *of < 3 * DRAWN)
    {
        let shrunk = |_| format!("the shrunk script of script {of}");
        let fails = |script: &Script, got: &[Answer]| {
            catch_unwind(AssertUnwindSafe(|| {
                check(&shrunk, std::slice::from_ref(script), got, false);
            }))
        };
        if fails(full, &answers_of(&seen.answers, *of)).is_err()
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
                "{}\nThe smallest script shrinking found going wrong (from script {of}), on a new bank with balances {:?}: {:?}\nThere: {}",
                text(&*failure),
                script.0,
                script.1,
                text(&*small)
            );
        }
    }
    resume_unwind(failure);
}
