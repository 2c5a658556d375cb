//! Proves consumption: the bank refuses what it cannot do, with the reason,
//! and a refused transfer moves nothing and stays out of the history. A
//! transfer from an account to itself is refused, not deadlocked on.
use lock_order_fine_print::bank::{Bank, Transfer, TransferError};
use lock_order_fine_print::with_token;

#[test]
fn refusals_move_nothing() {
    let result = crate::support::within(10, || {
        let bank = Bank::new(vec![50, 10]);
        with_token(|token| {
            let refusals = [
                bank.transfer(
                    token,
                    Transfer {
                        from: 1,
                        to: 0,
                        amount: 11,
                    },
                ),
                bank.transfer(
                    token,
                    Transfer {
                        from: 0,
                        to: 0,
                        amount: 1,
                    },
                ),
                bank.transfer(
                    token,
                    Transfer {
                        from: 0,
                        to: 7,
                        amount: 1,
                    },
                ),
                bank.transfer(
                    token,
                    Transfer {
                        from: 3,
                        to: 0,
                        amount: 1,
                    },
                ),
            ];
            let balances = (
                bank.balance(token, 0),
                bank.balance(token, 1),
                bank.balance(token, 2),
            );
            (refusals, balances, bank.history(token))
        })
    });
    let (refusals, balances, history) = result;
    assert_eq!(
        refusals,
        [
            Err(TransferError::InsufficientFunds {
                account: 1,
                balance: 10
            }),
            Err(TransferError::SameAccount(0)),
            Err(TransferError::NoSuchAccount(7)),
            Err(TransferError::NoSuchAccount(3)),
        ]
    );
    assert_eq!(balances, (Some(50), Some(10), None));
    assert!(
        history.is_empty(),
        "a refused transfer is not in the history"
    );
}

#[test]
fn a_transfer_moves_money_and_is_recorded() {
    let bank = Bank::new(vec![100, 0]);
    with_token(|token| {
        let transfer = Transfer {
            from: 0,
            to: 1,
            amount: 100,
        };
        assert_eq!(bank.transfer(token, transfer), Ok(()));
        assert_eq!(bank.balance(token, 0), Some(0));
        assert_eq!(bank.balance(token, 1), Some(100));
        assert_eq!(bank.history(token), [transfer]);
    });
}
