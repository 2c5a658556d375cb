//! Proves consumption: the bank refuses a transfer it cannot make, with the
//! reason (an unknown account, the paying one first; or a balance smaller
//! than the amount), and a refused transfer changes no balance and stays
//! out of the ledger, but is counted. A transfer of the whole balance is
//! made. Balances, amounts and account numbers come from the judge's seed.
use crate::support::{AuditView, Outcome};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The inputs drawn from the seed.
#[derive(Debug, Clone, Copy)]
struct Inputs {
    /// Two balances, the second at least 1.
    rich: u64,
    poor: u64,
    /// More than `poor`.
    overdraft: u64,
    /// A lone account's balance, an amount it could pay, and two account
    /// numbers the bank does not have (`missing_to` < `missing_from`).
    lone: u64,
    affordable: u64,
    missing_to: usize,
    missing_from: usize,
    /// A balance paid in full.
    whole: u64,
}

fn inputs(seed: Seed) -> Inputs {
    let mut rng = seed.rng();
    let poor = rng.u64(1..1_000_000);
    let lone = rng.u64(1..1_000_000);
    let missing_to = rng.usize(1..50);
    Inputs {
        rich: rng.u64(0..1_000_000),
        poor,
        overdraft: poor + rng.u64(1..1_000),
        lone,
        affordable: rng.u64(1..=lone),
        missing_to,
        missing_from: missing_to + rng.usize(1..50),
        whole: rng.u64(1..1_000_000),
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    overdraft: Outcome,
    after_overdraft: AuditView,
    unknown: [Outcome; 3],
    lone_balances: [Option<u64>; 2],
    after_unknown: AuditView,
    whole: Outcome,
    after_whole: [Option<u64>; 2],
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{outcome, view};
    use lock_order::LockToken;
    use lock_order::bank::{Bank, Transfer};

    let inputs = inputs(seed);
    let mut token = LockToken::new();

    let bank = Bank::new(vec![inputs.rich, inputs.poor]);
    let overdraft = outcome(bank.transfer(
        &mut token,
        Transfer {
            from: 1,
            to: 0,
            amount: inputs.overdraft,
        },
    ));
    let after_overdraft = view(bank.audit(&mut token));

    let bank = Bank::new(vec![inputs.lone]);
    let unknown = [
        Transfer {
            from: 0,
            to: inputs.missing_to,
            amount: inputs.affordable,
        },
        Transfer {
            from: inputs.missing_from,
            to: 0,
            amount: inputs.affordable,
        },
        Transfer {
            from: inputs.missing_from,
            to: inputs.missing_to,
            amount: inputs.affordable,
        },
    ]
    .map(|transfer| outcome(bank.transfer(&mut token, transfer)));
    let lone_balances = [
        bank.balance(&mut token, 0),
        bank.balance(&mut token, inputs.missing_to),
    ];
    let after_unknown = view(bank.audit(&mut token));

    let bank = Bank::new(vec![inputs.whole, 0]);
    let whole = outcome(bank.transfer(
        &mut token,
        Transfer {
            from: 0,
            to: 1,
            amount: inputs.whole,
        },
    ));
    let after_whole = [bank.balance(&mut token, 0), bank.balance(&mut token, 1)];

    Seen {
        overdraft,
        after_overdraft,
        unknown,
        lone_balances,
        after_unknown,
        whole,
        after_whole,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let Inputs {
        rich,
        poor,
        overdraft,
        lone,
        affordable,
        missing_to,
        missing_from,
        whole,
    } = inputs(seed);

    assert_eq!(
        seen.overdraft,
        Outcome::InsufficientFunds(1, poor),
        "account 1 holds {poor} and cannot pay {overdraft}: the transfer must be refused with InsufficientFunds {{ account: 1, balance: {poor} }}"
    );
    let audit = &seen.after_overdraft;
    assert_eq!(
        audit.balances,
        [rich, poor],
        "a refused transfer moves nothing"
    );
    assert!(
        audit.ledger.is_empty(),
        "a refused transfer is not in the ledger"
    );
    assert_eq!(
        audit.counters,
        (0, 1, 0),
        "(transfers, rejected, moved): the refusal is counted, nothing else"
    );

    assert_eq!(
        seen.unknown[0],
        Outcome::NoSuchAccount(missing_to),
        "the bank has one account: paying account {missing_to} must be refused with NoSuchAccount({missing_to})"
    );
    assert_eq!(
        seen.unknown[1],
        Outcome::NoSuchAccount(missing_from),
        "the bank has one account: account {missing_from} cannot pay, NoSuchAccount({missing_from})"
    );
    assert_eq!(
        seen.unknown[2],
        Outcome::NoSuchAccount(missing_from),
        "neither account {missing_from} nor {missing_to} exists: the paying account ({missing_from}) is named first"
    );
    assert_eq!(
        seen.lone_balances,
        [Some(lone), None],
        "balance(0) is the lone account's {lone} (the refused transfers of {affordable} moved nothing); balance({missing_to}) is None"
    );
    let audit = &seen.after_unknown;
    assert_eq!(audit.balances, [lone], "refused transfers move nothing");
    assert!(
        audit.ledger.is_empty(),
        "refused transfers are not in the ledger"
    );
    assert_eq!(
        audit.counters,
        (0, 3, 0),
        "(transfers, rejected, moved): three refusals counted"
    );

    assert_eq!(
        seen.whole,
        Outcome::Made,
        "an account holding {whole} may pay all of it"
    );
    assert_eq!(
        seen.after_whole,
        [Some(0), Some(whole)],
        "the whole balance moved"
    );
}
