//! Proves consumption: a transfer is one indivisible step for every other
//! thread, at every point where the case can stop it, so what other calls
//! return fits one sequential order of the calls (linearizable). Checked
//! without relying on timing: the case builds the bank in memory whose
//! every access traps (`xsafe_case::pages`), runs one transfer on a thread
//! that stops just before its k-th access to the bank's memory, for k = 1,
//! 2, ... until it finishes without stopping, and at each stop runs other
//! calls one after another: `balance` of the paying and of the receiving
//! account, `history`, a
//! `{:?}` of the bank where it has `Debug`, a transfer that drains the
//! paying account, a transfer between two other accounts, `history` and
//! `balance` again; a refused transfer is stopped the same way, with
//! `history`, a deposit into the account that refused it, `history` and
//! `balance` as the other calls. Each either returns while the
//! transfer is stopped or waits (seen spinning through the traps, or
//! asleep in the kernel through `/proc` where there is one; what shows
//! neither within a bound is taken to wait, so the case fails only on what
//! returned calls show); then the transfer goes on and every call must
//! end.
//!
//! The judge replays the calls on a sequential model: the calls that
//! returned during the stop keep their real-time order, the stopped
//! transfer and the calls that waited may fall anywhere after they
//! started, and some such order must give every answer, the balances and
//! history at the end included. So a history written after the accounts
//! are released (a `balance` shows the money moved, a `history` after it
//! does not show the transfer), or a balance checked before the accounts
//! are locked (the drain empties the account between the check and the
//! move, and the transfer then moves money that is not there), a history
//! copied out and stored back (the transfer between the other accounts,
//! made meanwhile, is lost), or a history entry written before the
//! transfer is known to be made (a refused transfer shows in a `history`
//! made during its stop), is seen on every run: the stop that splits it is
//! one of the k tried. A call still
//! running 4 s after the stopped one was let go is a deadlock.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// How many accesses the case tries to stop each call before; a call of
/// a bank this small makes well under a hundred.
const MOST_STOPS: usize = 1_500;

/// How long a call may take after the stopped call is let go before it is
/// taken to be deadlocked: far above what it takes (microseconds), and
/// below the grader's time limit of the case.
const PATIENCE_SECONDS: u64 = 4;

/// `(from, to, amount)`.
type Move = (usize, usize, u64);

/// What `Bank::transfer` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Made,
    NoSuchAccount(usize),
    SameAccount(usize),
    InsufficientFunds(usize, u64),
}

/// One call to the bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Call {
    Transfer(usize, usize, u64),
    Balance(usize),
    History,
    Debug,
}

/// The balances and the history, read after every call ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Books {
    balances: Vec<u64>,
    history: Vec<Move>,
}

/// What a call gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    Transfer(Outcome),
    Balance(Option<u64>),
    History(Vec<Move>),
    /// `{:?}` returned (what it shows is the crate's own business).
    Shown,
    /// The bank has no `Debug`: nothing was called.
    NoDebug,
    Panicked,
    /// Not returned within `PATIENCE_SECONDS` after the stopped call went on.
    Hung,
}

/// One call made while the first was stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    call: Call,
    /// Whether it returned while the first call was still stopped.
    returned_in_stop: bool,
    answer: Answer,
}

/// One stop: the stopped call's answer and the others'.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    scenario: usize,
    /// The access the call was stopped before.
    stop: usize,
    stopped: Answer,
    probes: Vec<Probe>,
    /// The books after every call ended (`None`: a call hung).
    last: Option<Books>,
}

#[derive(Debug, Serialize, Deserialize)]
pub enum Seen {
    /// Accesses cannot be trapped here (another system, or Miri).
    NotMeasured,
    Rounds {
        rounds: Vec<Round>,
        /// Scenarios whose call still stopped at `MOST_STOPS`.
        unfinished: Vec<usize>,
    },
}

/// The starting balances, a transfer made before any stop (so the history
/// is not empty), and the amount the stopped transfer moves from account 0
/// (less than all it holds).
struct Inputs {
    start: Vec<u64>,
    before: Move,
    amount: u64,
    /// What account 3 pays account 2 during the stop (no more than it
    /// holds from the start, so it is made in every order).
    other: u64,
    /// A deposit into account 0 from account 3, and a transfer from
    /// account 0 that is refused before the deposit and made after it.
    deposit: u64,
    over: u64,
}

fn inputs(seed: Seed) -> Inputs {
    let mut rng = seed.rng();
    let start: Vec<u64> = (0..4).map(|_| rng.u64(1_000..1_000_000)).collect();
    let before = (2, 3, rng.u64(1..=start[2]));
    let amount = rng.u64(1..start[0]);
    let other = rng.u64(1..=start[3] / 2);
    let deposit = rng.u64(1..=start[3] / 2);
    let over = start[0] + rng.u64(1..=deposit);
    Inputs {
        start,
        before,
        amount,
        other,
        deposit,
        over,
    }
}

/// Each scenario: the call stopped, and the calls made at each stop, one
/// after another. Account 0 starts with `start[0]`, which the drain takes
/// whole: of the stopped transfer and the drain, exactly one is made in
/// any sequential order.
fn scenarios(inputs: &Inputs) -> Vec<(Call, Vec<Call>)> {
    let transfer = Call::Transfer(0, 1, inputs.amount);
    let drain = Call::Transfer(0, 2, inputs.start[0]);
    vec![
        (
            transfer,
            vec![
                Call::Balance(0),
                Call::Balance(1),
                Call::History,
                Call::Debug,
                drain,
                // Other accounts: nothing of the stopped transfer's holds
                // it up, but a history stored back over it would lose it.
                Call::Transfer(3, 2, inputs.other),
                Call::History,
                Call::Balance(0),
            ],
        ),
        // A refusal is one step too: nothing of it shows in the history,
        // at any point of it.
        (
            Call::Transfer(0, 1, inputs.over),
            vec![
                Call::History,
                Call::Transfer(3, 0, inputs.deposit),
                Call::History,
                Call::Balance(0),
            ],
        ),
    ]
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order_fine_print::bank::{Bank, Transfer, TransferError};
    use lock_order_fine_print::with_token;
    use std::sync::Arc;
    use std::time::Duration;
    use xsafe_case::pages;
    use xsafe_case::watch::{Ended, Settled, Watched};

    /// `Some(formatter)` where the bank has `Debug` (an inherent-looking
    /// method on the probe beats the fallback trait's on a reference).
    struct DebugProbe<T>(std::marker::PhantomData<T>);
    trait HasDebug<T> {
        fn formatter(&self) -> Option<fn(&T) -> String>;
    }
    impl<T: std::fmt::Debug> HasDebug<T> for DebugProbe<T> {
        fn formatter(&self) -> Option<fn(&T) -> String> {
            Some(|value| format!("{value:?}"))
        }
    }
    #[allow(dead_code)]
    trait NoDebug<T> {
        fn formatter(&self) -> Option<fn(&T) -> String> {
            None
        }
    }
    impl<T> NoDebug<T> for &DebugProbe<T> {}
    let formatter: Option<fn(&Bank) -> String> =
        (&DebugProbe::<Bank>(std::marker::PhantomData)).formatter();

    fn moves(history: Vec<Transfer>) -> Vec<Move> {
        history
            .into_iter()
            .map(|transfer| (transfer.from, transfer.to, transfer.amount))
            .collect()
    }
    fn make(bank: &Bank, call: Call, formatter: Option<fn(&Bank) -> String>) -> Answer {
        with_token(|token| match call {
            Call::Transfer(from, to, amount) => {
                Answer::Transfer(match bank.transfer(token, Transfer { from, to, amount }) {
                    Ok(()) => Outcome::Made,
                    Err(TransferError::NoSuchAccount(account)) => Outcome::NoSuchAccount(account),
                    Err(TransferError::SameAccount(account)) => Outcome::SameAccount(account),
                    Err(TransferError::InsufficientFunds { account, balance }) => {
                        Outcome::InsufficientFunds(account, balance)
                    }
                })
            }
            Call::Balance(account) => Answer::Balance(bank.balance(token, account)),
            Call::History => Answer::History(moves(bank.history(token))),
            Call::Debug => match formatter {
                Some(format) => {
                    let _ = format(bank);
                    Answer::Shown
                }
                None => Answer::NoDebug,
            },
        })
    }
    fn books(bank: &Bank, accounts: usize) -> Books {
        with_token(|token| Books {
            balances: (0..accounts)
                .map(|account| bank.balance(token, account).unwrap_or(u64::MAX))
                .collect(),
            history: moves(bank.history(token)),
        })
    }
    fn ended(ended: Ended<Answer>) -> Answer {
        match ended {
            Ended::Returned(answer) => answer,
            Ended::Panicked => Answer::Panicked,
            Ended::Hung => Answer::Hung,
        }
    }
    let patience = Duration::from_secs(PATIENCE_SECONDS);

    // Can accesses be trapped here at all?
    let trial = pages::trial_access();
    if !trial.whole {
        return Seen::NotMeasured;
    }
    assert_eq!(
        trial.count, 1,
        "the case's own check: a value made inside `paged` is in the trapped arena (the observing program's global allocator must be `xsafe_case::pages::Paged`, or wrap it)"
    );
    let inputs = inputs(seed);
    let mut rounds = Vec::new();
    let mut unfinished = Vec::new();
    for (scenario, (stopped_call, calls)) in scenarios(&inputs).into_iter().enumerate() {
        let mut finished = false;
        for stop in 1..=MOST_STOPS {
            let bank = pages::paged(|| {
                let bank = Arc::new(Bank::new(inputs.start.clone()));
                let (from, to, amount) = inputs.before;
                let _ = with_token(|token| bank.transfer(token, Transfer { from, to, amount }));
                bank
            });
            let first = Watched::start({
                let bank = Arc::clone(&bank);
                move || {
                    // The token is taken before the stop is armed: only the
                    // bank's own accesses count.
                    let answer = with_token(|token| {
                        pages::paged(|| {
                            pages::stop_at_access(stop, || match stopped_call {
                                Call::Transfer(from, to, amount) => Answer::Transfer(
                                    match bank.transfer(token, Transfer { from, to, amount }) {
                                        Ok(()) => Outcome::Made,
                                        Err(TransferError::NoSuchAccount(account)) => {
                                            Outcome::NoSuchAccount(account)
                                        }
                                        Err(TransferError::SameAccount(account)) => {
                                            Outcome::SameAccount(account)
                                        }
                                        Err(TransferError::InsufficientFunds {
                                            account,
                                            balance,
                                        }) => Outcome::InsufficientFunds(account, balance),
                                    },
                                ),
                                _ => Answer::NoDebug,
                            })
                        })
                    });
                    drop(bank);
                    answer
                }
            });
            xsafe_case::watch::wait_until(|| pages::stopped() || first.is_finished());
            if !pages::stopped() {
                // It ran to its end without meeting its `stop`-th access.
                let stopped = match first.end(patience) {
                    Ended::Returned((answer, _)) => answer,
                    Ended::Panicked => Answer::Panicked,
                    Ended::Hung => Answer::Hung,
                };
                finished = true;
                // A call that did not end may hold the locks: the books
                // are not read then (this thread would wait with it).
                let last = (stopped != Answer::Hung).then(|| books(&bank, inputs.start.len()));
                rounds.push(Round {
                    scenario,
                    stop,
                    stopped,
                    probes: Vec::new(),
                    last,
                });
                break;
            }
            let mut probes = Vec::new();
            let mut waiting = Vec::new();
            for call in calls.iter().copied() {
                let watched = Watched::start({
                    let bank = Arc::clone(&bank);
                    move || make(&bank, call, formatter)
                });
                match watched.settle() {
                    Settled::Finished => probes.push(Probe {
                        call,
                        returned_in_stop: true,
                        answer: ended(watched.end(patience)),
                    }),
                    Settled::Waiting | Settled::Busy => {
                        waiting.push((probes.len(), call, watched));
                        probes.push(Probe {
                            call,
                            returned_in_stop: false,
                            answer: Answer::Hung,
                        });
                    }
                }
            }
            pages::go();
            // One bound for all: after a first call that hangs, the others
            // are not waited for again each.
            let deadline = std::time::Instant::now() + patience;
            let left = || deadline.saturating_duration_since(std::time::Instant::now());
            let stopped = match first.end(left()) {
                Ended::Returned((answer, _)) => answer,
                Ended::Panicked => Answer::Panicked,
                Ended::Hung => Answer::Hung,
            };
            let mut hung = stopped == Answer::Hung;
            for (at, _, watched) in waiting {
                let answer = ended(watched.end(left()));
                hung |= answer == Answer::Hung;
                probes[at].answer = answer;
            }
            let last = if hung {
                None
            } else {
                match Watched::start({
                    let bank = Arc::clone(&bank);
                    let accounts = inputs.start.len();
                    move || books(&bank, accounts)
                })
                .end(patience)
                {
                    Ended::Returned(books) => Some(books),
                    Ended::Panicked | Ended::Hung => None,
                }
            };
            rounds.push(Round {
                scenario,
                stop,
                stopped,
                probes,
                last,
            });
            if hung {
                // Threads are stuck: nothing after this is worth running.
                return Seen::Rounds { rounds, unfinished };
            }
        }
        if !finished {
            eprintln!(
                "scenario {scenario}: the call still met a stop at access {MOST_STOPS}; the accesses after it were not tried"
            );
            unfinished.push(scenario);
        }
    }
    Seen::Rounds { rounds, unfinished }
}

impl Books {
    /// A transfer on the model, as the chapter specifies it.
    fn transfer(&mut self, (from, to, amount): Move) -> Outcome {
        for account in [from, to] {
            if account >= self.balances.len() {
                return Outcome::NoSuchAccount(account);
            }
        }
        if from == to {
            return Outcome::SameAccount(from);
        }
        let balance = self.balances[from];
        if balance < amount {
            return Outcome::InsufficientFunds(from, balance);
        }
        self.balances[from] -= amount;
        self.balances[to] += amount;
        self.history.push((from, to, amount));
        Outcome::Made
    }

    /// Whether `answer` is what `call` gives on these books (a read).
    fn reads(&self, call: Call, answer: &Answer) -> bool {
        match (call, answer) {
            (Call::Balance(account), Answer::Balance(balance)) => {
                self.balances.get(account).copied() == *balance
            }
            (Call::History, Answer::History(history)) => *history == self.history,
            (Call::Debug, Answer::Shown | Answer::NoDebug) => true,
            _ => false,
        }
    }
}

/// A call placed in a sequential order: fixed ones returned during the
/// stop, in their real-time order; floating ones may go anywhere after
/// the fixed calls that returned before they started.
struct Placed {
    call: Call,
    answer: Answer,
    /// How many fixed calls returned before it started.
    after: usize,
}

/// Whether some sequential order of the round's calls gives every answer.
fn linearizable(start: &Books, round: &Round, stopped_call: Call) -> bool {
    let mut fixed = Vec::new();
    let mut floating = vec![Placed {
        call: stopped_call,
        answer: round.stopped.clone(),
        after: 0,
    }];
    for probe in &round.probes {
        if probe.returned_in_stop {
            fixed.push((probe.call, probe.answer.clone()));
        } else {
            floating.push(Placed {
                call: probe.call,
                answer: probe.answer.clone(),
                after: fixed.len(),
            });
        }
    }
    let Some(last) = &round.last else {
        return false;
    };
    // Floating transfers change the books: try every place for each.
    // Floating reads change nothing: each needs one moment, after it
    // started, where the books give its answer.
    let writers: Vec<&Placed> = floating
        .iter()
        .filter(|placed| matches!(placed.call, Call::Transfer(..)))
        .collect();
    let readers: Vec<&Placed> = floating
        .iter()
        .filter(|placed| !matches!(placed.call, Call::Transfer(..)))
        .collect();
    // Every assignment of a place (0..=fixed.len()) and a rank to each
    // writer: at most three writers here.
    let places = fixed.len() + 1;
    let mut orders = vec![Vec::<(usize, usize)>::new()];
    for (rank, writer) in writers.iter().enumerate() {
        orders = orders
            .into_iter()
            .flat_map(|order| {
                (writer.after..places).map(move |place| {
                    let mut order = order.clone();
                    order.push((place, rank));
                    order
                })
            })
            .collect();
    }
    let permutations = |count: usize| -> Vec<Vec<usize>> {
        let mut all = vec![Vec::new()];
        for _ in 0..count {
            all = all
                .into_iter()
                .flat_map(|done: Vec<usize>| {
                    (0..count)
                        .filter(|next| !done.contains(next))
                        .map(|next| {
                            let mut done = done.clone();
                            done.push(next);
                            done
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
        }
        all
    };
    for order in &orders {
        for tie_break in permutations(writers.len()) {
            // The sequence: at each place, the writers placed there (in
            // the tie-break's order), then the fixed call of that place.
            let mut books = start.clone();
            // States seen, and for each place the first state index.
            let mut states = vec![books.clone()];
            let mut first_state_at = Vec::new();
            let mut fits = true;
            for place in 0..places {
                first_state_at.push(states.len() - 1);
                for &rank in &tie_break {
                    if order[rank].0 != place {
                        continue;
                    }
                    let Call::Transfer(from, to, amount) = writers[rank].call else {
                        continue;
                    };
                    let made = books.transfer((from, to, amount));
                    fits &= writers[rank].answer == Answer::Transfer(made);
                    states.push(books.clone());
                }
                if let Some((call, answer)) = fixed.get(place) {
                    if let Call::Transfer(from, to, amount) = *call {
                        let made = books.transfer((from, to, amount));
                        fits &= *answer == Answer::Transfer(made);
                        states.push(books.clone());
                    } else {
                        fits &= books.reads(*call, answer);
                    }
                }
            }
            fits &= books == *last;
            fits &= readers.iter().all(|reader| {
                states[first_state_at[reader.after]..]
                    .iter()
                    .any(|books| books.reads(reader.call, &reader.answer))
            });
            if fits {
                return true;
            }
        }
    }
    false
}

pub fn judge(seed: Seed, seen: Seen) {
    let Seen::Rounds { rounds, .. } = seen else {
        return;
    };
    let inputs = inputs(seed);
    let mut start = Books {
        balances: inputs.start.clone(),
        history: Vec::new(),
    };
    start.transfer(inputs.before);
    let scenarios = scenarios(&inputs);
    for round in &rounds {
        let Some((stopped_call, _)) = scenarios.get(round.scenario) else {
            panic!("an observation of a scenario the case does not have");
        };
        let what = |call: Call| match call {
            Call::Transfer(from, to, amount) => format!("transfer({from} -> {to}, {amount})"),
            Call::Balance(account) => format!("balance({account})"),
            Call::History => "history()".to_owned(),
            Call::Debug => "{:?} of the bank".to_owned(),
        };
        let calls = || {
            round
                .probes
                .iter()
                .map(|probe| {
                    format!(
                        "\n  {} {} {:?}",
                        what(probe.call),
                        if probe.returned_in_stop {
                            "returned during the stop:"
                        } else {
                            "waited, then gave"
                        },
                        probe.answer
                    )
                })
                .collect::<String>()
        };
        let all = std::iter::once((*stopped_call, &round.stopped))
            .chain(round.probes.iter().map(|probe| (probe.call, &probe.answer)));
        for (call, answer) in all {
            assert!(
                *answer != Answer::Hung,
                "with {} stopped before its access {} to the bank's memory and then let go, {} did not return within {PATIENCE_SECONDS} s: a deadlock (the calls made during the stop:{})",
                what(*stopped_call),
                round.stop,
                what(call),
                calls()
            );
            assert!(
                *answer != Answer::Panicked,
                "with {} stopped before its access {} to the bank's memory, {} panicked (the calls made during the stop:{})",
                what(*stopped_call),
                round.stop,
                what(call),
                calls()
            );
        }
        assert!(
            round.last.is_some(),
            "with {} stopped before its access {} to the bank's memory and then let go, the balances and history could not be read within {PATIENCE_SECONDS} s after every call ended (the calls made during the stop:{})",
            what(*stopped_call),
            round.stop,
            calls()
        );
        assert!(
            linearizable(&start, round, *stopped_call),
            "books that start as {:?} (history {:?}): {} was stopped just before its access {} to the bank's memory, and other calls ran meanwhile, one after another:{}\nthen it went on and gave {:?}, and the books at the end were {:?}. No order of these calls, one at a time, gives these answers: some thread saw the books halfway through a transfer (a lock let go too early, or a check made under one lock and acted on under another)",
            start.balances,
            start.history,
            what(*stopped_call),
            round.stop,
            calls(),
            round.stopped,
            round.last
        );
    }
}
