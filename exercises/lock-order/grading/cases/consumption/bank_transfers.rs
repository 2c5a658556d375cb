//! Proves consumption: the bank's transfers, run on several threads while
//! an auditor reads the books, never deadlock and keep the books
//! consistent: money is neither made nor lost, and every audit, taken under
//! all three locks, finds the ledger, the counters and the balances in
//! agreement.
use lock_order::LockToken;
use lock_order::bank::{Audit, Bank, Transfer};
use std::sync::Arc;
use std::thread;

const ACCOUNTS: usize = 4;
const START: u64 = 1_000;
const THREADS: usize = 4;
const TRANSFERS: usize = 500;

/// Checks that an audit is consistent with a bank that started with
/// `START` in each account.
fn check(audit: &Audit) {
    assert_eq!(audit.balances.len(), ACCOUNTS);
    assert_eq!(
        audit.balances.iter().sum::<u64>(),
        START * ACCOUNTS as u64,
        "transfers move money; they neither make nor lose any"
    );
    assert_eq!(
        audit.ledger.len() as u64,
        audit.counters.transfers,
        "every transfer made is in the ledger once"
    );
    assert_eq!(
        audit
            .ledger
            .iter()
            .map(|transfer| transfer.amount)
            .sum::<u64>(),
        audit.counters.moved
    );
    let mut replayed = vec![START; ACCOUNTS];
    for transfer in &audit.ledger {
        replayed[transfer.from] -= transfer.amount;
        replayed[transfer.to] += transfer.amount;
    }
    assert_eq!(
        replayed, audit.balances,
        "replaying the ledger must give the balances read with it"
    );
}

#[test]
fn a_transfer_moves_money_and_is_recorded() {
    let bank = Bank::new(vec![100, 0]);
    let mut token = LockToken::new();
    let transfer = Transfer {
        from: 0,
        to: 1,
        amount: 30,
    };
    assert_eq!(bank.transfer(&mut token, transfer), Ok(()));
    assert_eq!(bank.balance(&mut token, 0), Some(70));
    assert_eq!(bank.balance(&mut token, 1), Some(30));
    let audit = bank.audit(&mut token);
    assert_eq!(audit.balances, [70, 30]);
    assert_eq!(audit.ledger, [transfer]);
    assert_eq!(audit.counters.transfers, 1);
    assert_eq!(audit.counters.moved, 30);
    assert_eq!(audit.counters.rejected, 0);
}

#[test]
fn concurrent_transfers_keep_the_books_consistent() {
    let bank = Arc::new(Bank::new(vec![START; ACCOUNTS]));
    let made = crate::support::within(60, {
        let bank = Arc::clone(&bank);
        move || {
            let auditor = {
                let bank = Arc::clone(&bank);
                thread::spawn(move || {
                    let mut token = LockToken::new();
                    for _ in 0..200 {
                        check(&bank.audit(&mut token));
                    }
                })
            };
            let workers: Vec<_> = (0..THREADS)
                .map(|worker| {
                    let bank = Arc::clone(&bank);
                    thread::spawn(move || {
                        let mut token = LockToken::new();
                        let mut made = 0;
                        for i in 0..TRANSFERS {
                            // Half the threads pay clockwise, half the other way.
                            let from = (worker + i) % ACCOUNTS;
                            let step = if worker % 2 == 0 { 1 } else { ACCOUNTS - 1 };
                            let to = (from + step) % ACCOUNTS;
                            // Every hundredth transfer asks for more money than the bank holds.
                            let amount = if i % 100 == 99 {
                                START * ACCOUNTS as u64 + 1
                            } else {
                                (i % 9) as u64 * 50
                            };
                            if bank
                                .transfer(&mut token, Transfer { from, to, amount })
                                .is_ok()
                            {
                                made += 1;
                            }
                        }
                        made
                    })
                })
                .collect();
            auditor.join().expect("the auditor's checks held");
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a worker finished"))
                .sum::<u64>()
        }
    });
    let audit = bank.audit(&mut LockToken::new());
    check(&audit);
    assert_eq!(audit.counters.transfers, made);
    assert!(
        audit.counters.rejected >= (THREADS * TRANSFERS / 100) as u64,
        "the transfers larger than the bank must be refused"
    );
    assert_eq!(
        audit.counters.transfers + audit.counters.rejected,
        (THREADS * TRANSFERS) as u64,
        "every transfer is either made or refused"
    );
}
