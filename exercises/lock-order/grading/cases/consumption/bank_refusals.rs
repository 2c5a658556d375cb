//! Proves consumption: the bank refuses a transfer it cannot make, with the
//! reason, and a refused transfer changes no balance and stays out of the
//! ledger, but is counted.
use lock_order::LockToken;
use lock_order::bank::{Bank, Counters, Transfer, TransferError};

#[test]
fn an_overdraft_is_refused_and_counted() {
    let bank = Bank::new(vec![50, 10]);
    let mut token = LockToken::new();
    let overdraft = Transfer {
        from: 1,
        to: 0,
        amount: 11,
    };
    assert_eq!(
        bank.transfer(&mut token, overdraft),
        Err(TransferError::InsufficientFunds {
            account: 1,
            balance: 10
        })
    );
    let audit = bank.audit(&mut token);
    assert_eq!(audit.balances, [50, 10], "a refused transfer moves nothing");
    assert!(
        audit.ledger.is_empty(),
        "a refused transfer is not in the ledger"
    );
    assert_eq!(
        audit.counters,
        Counters {
            transfers: 0,
            rejected: 1,
            moved: 0
        }
    );
}

#[test]
fn an_unknown_account_is_refused() {
    let bank = Bank::new(vec![50]);
    let mut token = LockToken::new();
    assert_eq!(
        bank.transfer(
            &mut token,
            Transfer {
                from: 0,
                to: 7,
                amount: 1
            }
        ),
        Err(TransferError::NoSuchAccount(7))
    );
    assert_eq!(
        bank.transfer(
            &mut token,
            Transfer {
                from: 3,
                to: 0,
                amount: 1
            }
        ),
        Err(TransferError::NoSuchAccount(3))
    );
    assert_eq!(bank.balance(&mut token, 0), Some(50));
    assert_eq!(bank.balance(&mut token, 7), None);
    assert_eq!(bank.audit(&mut token).counters.rejected, 2);
}

#[test]
fn the_whole_balance_may_be_paid() {
    let bank = Bank::new(vec![20, 0]);
    let mut token = LockToken::new();
    assert_eq!(
        bank.transfer(
            &mut token,
            Transfer {
                from: 0,
                to: 1,
                amount: 20
            }
        ),
        Ok(())
    );
    assert_eq!(bank.balance(&mut token, 0), Some(0));
    assert_eq!(bank.balance(&mut token, 1), Some(20));
}
