//! Proves consumption: every call a thread makes takes effect at one
//! moment between its start and its end, as if the calls ran one at a
//! time (a linearizable history). Three threads transfer while a fourth
//! audits and reads balances; each call's start and end are stamped from
//! one shared counter. The last audit's ledger fixes the order of the
//! transfers made; the judge replays it on a sequential model and checks
//! that it keeps the threads' real-time order, and that every refusal,
//! every audit and every `balance` gives what the model gives at some
//! moment inside the call's own window.
//!
//! So a bank that answers from a copy (an audit or a balance cached and
//! refreshed now and then), that refuses a transfer on a stale balance,
//! or whose counters lag its ledger, is seen, although each of its answers
//! alone looks like books that agree.
use crate::support::AuditView;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const ACCOUNTS: usize = 4;
const WRITERS: usize = 3;
const TRANSFERS: usize = 300;

/// One writer's transfers: amounts are unique in the whole case (thread
/// and position are in them), so each ledger entry names its call.
fn requests(seed: Seed) -> (Vec<u64>, Vec<Vec<(usize, usize, u64)>>) {
    let mut rng = seed.rng();
    let start: Vec<u64> = (0..ACCOUNTS).map(|_| rng.u64(20_000..60_000)).collect();
    let requests = (0..WRITERS)
        .map(|writer| {
            (0..TRANSFERS)
                .map(|at| {
                    let from = rng.usize(0..ACCOUNTS);
                    let to = (from + rng.usize(1..ACCOUNTS)) % ACCOUNTS;
                    let unique = (writer * TRANSFERS + at) as u64;
                    // Sometimes more than any account holds: a refusal.
                    let amount = if rng.usize(0..10) == 0 { 1_000_000 + unique } else { 1 + rng.u64(0..300) * 1_000 + unique };
                    (from, to, amount)
                })
                .collect()
        })
        .collect();
    (start, requests)
}

/// A call's window: the counter before it started and after it ended.
type Window = (u64, u64);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Per writer, per transfer: its window, and `None` if it was made or
    /// the refused balance if it was refused for funds.
    transfers: Vec<Vec<(Window, Result<(), Option<u64>>)>>,
    /// Audits taken while the writers ran, with their windows.
    audits: Vec<(Window, AuditView)>,
    /// `balance` calls, with their windows: account and answer.
    balances: Vec<(Window, usize, Option<u64>)>,
    /// The audit after every thread ended.
    last: Option<AuditView>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use lock_order::LockToken;
    use lock_order::bank::{Bank, Transfer, TransferError};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::thread;

    let (start, requests) = requests(seed);
    let bank = Arc::new(Bank::new(start));
    let clock = Arc::new(AtomicU64::new(0));
    let result = crate::support::within(8, {
        let bank = Arc::clone(&bank);
        move || {
            let done = Arc::new(AtomicBool::new(false));
            let writers: Vec<_> = requests
                .into_iter()
                .map(|requests| {
                    let (bank, clock) = (Arc::clone(&bank), Arc::clone(&clock));
                    thread::spawn(move || {
                        let mut token = LockToken::new();
                        requests
                            .into_iter()
                            .map(|(from, to, amount)| {
                                let before = clock.fetch_add(1, Ordering::SeqCst);
                                let outcome = bank.transfer(&mut token, Transfer { from, to, amount });
                                let after = clock.fetch_add(1, Ordering::SeqCst);
                                let outcome = match outcome {
                                    Ok(()) => Ok(()),
                                    Err(TransferError::InsufficientFunds { balance, .. }) => Err(Some(balance)),
                                    Err(_) => Err(None),
                                };
                                thread::yield_now();
                                ((before, after), outcome)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let reader = {
                let (bank, clock, done) = (Arc::clone(&bank), Arc::clone(&clock), Arc::clone(&done));
                thread::spawn(move || {
                    let mut token = LockToken::new();
                    let (mut audits, mut balances) = (Vec::new(), Vec::new());
                    let mut account = 0;
                    while audits.is_empty() || !done.load(Ordering::SeqCst) {
                        let before = clock.fetch_add(1, Ordering::SeqCst);
                        let audit = view(bank.audit(&mut token));
                        let after = clock.fetch_add(1, Ordering::SeqCst);
                        if audits.len() < 200 {
                            audits.push(((before, after), audit));
                        }
                        let before = clock.fetch_add(1, Ordering::SeqCst);
                        let balance = bank.balance(&mut token, account);
                        let after = clock.fetch_add(1, Ordering::SeqCst);
                        if balances.len() < 2_000 {
                            balances.push(((before, after), account, balance));
                        }
                        account = (account + 1) % ACCOUNTS;
                        thread::yield_now();
                    }
                    (audits, balances)
                })
            };
            let transfers: Vec<_> = writers
                .into_iter()
                .map(|writer| writer.join().expect("a writer finished"))
                .collect();
            done.store(true, Ordering::SeqCst);
            let (audits, balances) = reader.join().expect("the reader finished");
            (transfers, audits, balances)
        }
    });
    let (transfers, audits, balances) = result;
    let mut token = LockToken::new();
    let last = Some(view(bank.audit(&mut token)));
    Seen { transfers, audits, balances, last }
}

/// The model after each prefix of the ledger: balances, and the sum moved.
fn states(start: &[u64], ledger: &[(usize, usize, u64)]) -> Vec<(Vec<u64>, u64)> {
    let mut balances = start.to_vec();
    let mut moved = 0u64;
    let mut states = vec![(balances.clone(), moved)];
    for &(from, to, amount) in ledger {
        assert!(balances[from] >= amount, "the ledger overdraws account {from}: no order of these transfers is possible");
        balances[from] -= amount;
        balances[to] += amount;
        moved = moved.saturating_add(amount);
        states.push((balances.clone(), moved));
    }
    states
}

pub fn judge(seed: Seed, seen: Seen) {
    let (start, requests) = requests(seed);
    let last = seen.last.expect("the final audit");
    let ledger = &last.ledger;
    // Where each made transfer is in the ledger, and each call's window.
    let mut position = std::collections::HashMap::new();
    for (at, entry) in ledger.iter().enumerate() {
        assert!(position.insert(entry.2, at).is_none(), "the ledger lists the transfer of {} twice", entry.2);
    }
    let mut made: Vec<(Window, usize)> = Vec::new();
    let mut refused: Vec<(Window, usize, u64, u64)> = Vec::new();
    assert_eq!(seen.transfers.len(), WRITERS);
    for (calls, asked) in seen.transfers.iter().zip(&requests) {
        assert_eq!(calls.len(), asked.len());
        for ((window, outcome), &(from, _, amount)) in calls.iter().zip(asked) {
            match outcome {
                Ok(()) => {
                    let at = *position.get(&amount).unwrap_or_else(|| panic!("a transfer of {amount} was made but is not in the ledger"));
                    made.push((*window, at));
                }
                Err(balance) => {
                    assert!(!position.contains_key(&amount), "a refused transfer of {amount} is in the ledger");
                    let balance = balance.unwrap_or_else(|| panic!("a transfer between existing accounts was refused for another reason than funds"));
                    refused.push((*window, from, amount, balance));
                }
            }
        }
    }
    assert_eq!(made.len(), ledger.len(), "the ledger lists a transfer no thread made");
    let states = states(&start, ledger);
    // Real time: a transfer that ended before another started is before it.
    let mut by_end = made.clone();
    by_end.sort_by_key(|((_, end), _)| *end);
    let mut by_start = made.clone();
    by_start.sort_by_key(|((begin, _), _)| *begin);
    let mut latest = None;
    let mut ended = by_end.iter().peekable();
    for ((begin, _), at) in &by_start {
        while let Some(((_, end), done_at)) = ended.peek() {
            if end < begin {
                latest = latest.max(Some(*done_at));
                ended.next();
            } else {
                break;
            }
        }
        if let Some(latest) = latest {
            assert!(latest < *at, "the ledger puts a transfer before one that ended before it started: its order is not the order the calls took effect");
        }
    }
    // The prefixes of the ledger a call may have seen: every transfer that
    // ended before it started is in, none that started after it ended.
    let window = |(begin, end): Window| -> std::ops::RangeInclusive<usize> {
        let low = made.iter().filter(|((_, e), _)| *e < begin).map(|(_, at)| at + 1).max().unwrap_or(0);
        let high = made.iter().filter(|((b, _), _)| *b > end).map(|(_, at)| *at).min().unwrap_or(ledger.len());
        low..=high.max(low)
    };
    for &(call, from, amount, balance) in &refused {
        let possible = window(call);
        assert!(
            possible.clone().any(|k| states[k].0[from] == balance && balance < amount),
            "a transfer of {amount} from account {from} was refused with a balance of {balance}, which the account never had while the call ran (it could have had {:?})",
            possible.map(|k| states[k].0[from]).collect::<std::collections::BTreeSet<_>>()
        );
    }
    for (call, audit) in &seen.audits {
        let k = audit.ledger.len();
        assert_eq!(&audit.ledger[..], &ledger[..k], "an audit's ledger is not a beginning of the final ledger");
        assert!(window(*call).contains(&k), "an audit saw {k} transfers, which is not how many had taken effect while it ran ({:?}): it answered from an older or a newer moment", window(*call));
        assert_eq!(audit.balances, states[k].0, "an audit's balances are not the balances after its own ledger");
        assert_eq!((audit.counters.0, audit.counters.2), (k as u64, states[k].1), "an audit's counters do not count its own ledger");
    }
    for &(call, account, answer) in &seen.balances {
        let possible = window(call);
        let value = answer.unwrap_or_else(|| panic!("balance({account}) said None for an account that exists"));
        assert!(
            possible.clone().any(|k| states[k].0[account] == value),
            "balance({account}) said {value}, which the account never held while the call ran"
        );
    }
    assert_eq!(last.balances, states[ledger.len()].0, "the final balances are not the ledger's");
}
