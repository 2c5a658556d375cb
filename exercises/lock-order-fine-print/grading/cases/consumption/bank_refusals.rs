//! Proves consumption: the bank refuses what it cannot do, with the reason
//! (an unknown account, the paying one first; the same account on both
//! sides; too little money), and a refused transfer moves nothing and stays
//! out of the history. A transfer from an account to itself is refused,
//! not waited on: a bank that waits for itself is seen sleeping on one of
//! its locks, or not finishing. Transfers that can be made (down to the
//! last unit of a balance) move the money and are recorded in order. The
//! balances, amounts and account numbers come from the seed.
use crate::support::{Ended, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// A `TransferError`, as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    NoSuchAccount(usize),
    SameAccount(usize),
    InsufficientFunds { account: usize, balance: u64 },
}

/// A transfer request: from, to, amount.
type Request = (usize, usize, u64);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    run: Ended<Run>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Run {
    /// Each request of [`requests`], with its answer, the balances of
    /// accounts 0, 1 and of one that does not exist, and the history, after
    /// each one.
    steps: Vec<(
        Result<(), Refusal>,
        (Option<u64>, Option<u64>, Option<u64>),
        Vec<Request>,
    )>,
    /// `len()` and `is_empty()` of this bank, and `is_empty()` of a bank
    /// without accounts.
    sizes: (usize, bool, bool),
}

/// The balances of accounts 0 and 1, and the requests made, in order.
fn requests(seed: Seed) -> ((u64, u64), usize, Vec<Request>) {
    let v = values(seed, 0xba4c, 6, 1 << 20);
    let (zero, one) = (v[0] + (1 << 21), v[1]);
    let missing = 2 + usize::try_from(v[2] % 97).unwrap_or(0);
    let other_missing = missing + 1 + usize::try_from(v[3] % 5).unwrap_or(0);
    let paid = 1 + v[4] % (zero - 1);
    let requests = vec![
        (1, 0, one + 1),
        (0, 0, 1),
        (1, 1, v[5]),
        (0, missing, 1),
        (missing, 0, 1),
        (missing, other_missing, 1),
        (0, 1, paid),
        (1, 0, one + paid),
        (1, 0, 1),
    ];
    ((zero, one), missing, requests)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{PROMPT, watch};
    use lock_order_fine_print::bank::{Bank, Transfer, TransferError};
    use lock_order_fine_print::with_token;

    let ((zero, one), missing, requests) = requests(seed);
    let mut run = watch(move || {
        let bank = Bank::new(vec![zero, one]);
        let steps = with_token(|token| {
            requests
                .into_iter()
                .map(|(from, to, amount)| {
                    let answer =
                        bank.transfer(token, Transfer { from, to, amount })
                            .map_err(|refusal| match refusal {
                                TransferError::NoSuchAccount(account) => {
                                    Refusal::NoSuchAccount(account)
                                }
                                TransferError::SameAccount(account) => {
                                    Refusal::SameAccount(account)
                                }
                                TransferError::InsufficientFunds { account, balance } => {
                                    Refusal::InsufficientFunds { account, balance }
                                }
                            });
                    let balances = (
                        bank.balance(token, 0),
                        bank.balance(token, 1),
                        bank.balance(token, missing),
                    );
                    let history = bank
                        .history(token)
                        .into_iter()
                        .map(|transfer| (transfer.from, transfer.to, transfer.amount))
                        .collect();
                    (answer, balances, history)
                })
                .collect()
        });
        let sizes = (
            bank.len(),
            bank.is_empty(),
            Bank::new(Vec::new()).is_empty(),
        );
        Run { steps, sizes }
    });
    Seen {
        run: run.ended_within(PROMPT),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let run = match seen.run {
        Ended::Returned(run) => run,
        Ended::Waiting => panic!(
            "the transfers did not finish: does a transfer from an account to itself lock that account twice?"
        ),
        Ended::Panicked(message) => panic!("the bank panicked: {message}"),
    };
    let ((zero, one), missing, requests) = requests(seed);
    let mut balances = [zero, one];
    let mut history: Vec<Request> = Vec::new();
    assert_eq!(run.steps.len(), requests.len());
    for (&(from, to, amount), (answer, seen_balances, seen_history)) in
        requests.iter().zip(&run.steps)
    {
        let expected = if from > 1 {
            Err(Refusal::NoSuchAccount(from))
        } else if to > 1 {
            Err(Refusal::NoSuchAccount(to))
        } else if from == to {
            Err(Refusal::SameAccount(from))
        } else if balances[from] < amount {
            Err(Refusal::InsufficientFunds {
                account: from,
                balance: balances[from],
            })
        } else {
            balances[from] -= amount;
            balances[to] += amount;
            history.push((from, to, amount));
            Ok(())
        };
        let request = format!("transfer {amount} from account {from} to account {to}");
        assert_eq!(
            answer, &expected,
            "{request}: wrong answer (accounts 0 and 1 exist, and the paying account is checked first)"
        );
        assert_eq!(
            seen_balances,
            &(Some(balances[0]), Some(balances[1]), None),
            "after `{request}`: wrong balances (a refused transfer moves nothing; account {missing} does not exist)"
        );
        assert_eq!(
            seen_history, &history,
            "after `{request}`: the history must hold the transfers made, in order, and no refused one"
        );
    }
    assert_eq!(
        run.sizes,
        (2, false, true),
        "len() and is_empty() count the accounts"
    );
}
