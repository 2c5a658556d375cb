//! The fine print's bank checked against an independent model: a
//! sequential bank in `u128` arithmetic, written from the chapter's
//! contract (a transfer checks the payer, the payee, that they differ, then
//! the balance; a refusal changes nothing and is not in the history).
//! Balances start anywhere up to a total of `u64::MAX`, so a payee can be
//! credited up to the largest balance there is.

use lock_order_fine_print::bank::{Bank, Transfer, TransferError};
use lock_order_fine_print::with_token;
use proptest::prelude::*;

struct Model {
    balances: Vec<u128>,
    history: Vec<Transfer>,
}

impl Model {
    fn transfer(&mut self, transfer: Transfer) -> Result<(), TransferError> {
        let Transfer { from, to, amount } = transfer;
        for account in [from, to] {
            if account >= self.balances.len() {
                return Err(TransferError::NoSuchAccount(account));
            }
        }
        if from == to {
            return Err(TransferError::SameAccount(from));
        }
        let balance = self.balances[from];
        if balance < u128::from(amount) {
            return Err(TransferError::InsufficientFunds {
                account: from,
                balance: u64::try_from(balance).expect("a balance fits u64"),
            });
        }
        self.balances[from] -= u128::from(amount);
        self.balances[to] += u128::from(amount);
        self.history.push(transfer);
        Ok(())
    }
}

fn balances() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        proptest::collection::vec(0u64..1000, 0..8),
        proptest::collection::vec(0u64..=8, 1..6).prop_map(|shares| {
            let parts: u64 = shares.iter().sum::<u64>().max(1);
            shares
                .iter()
                .map(|share| u64::MAX / parts * share)
                .collect()
        }),
    ]
}

fn transfers() -> impl Strategy<Value = Vec<(usize, usize, u64)>> {
    let amount = prop_oneof![
        Just(0u64),
        Just(1),
        0u64..2000,
        Just(u64::MAX),
        Just(u64::MAX / 2),
        any::<u64>(),
    ];
    proptest::collection::vec((0usize..9, 0usize..9, amount), 0..300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_bank_agrees_with_a_sequential_model(start in balances(), requests in transfers()) {
        let bank = Bank::new(start.clone());
        let mut model = Model {
            balances: start.iter().map(|&balance| u128::from(balance)).collect(),
            history: Vec::new(),
        };
        with_token(|token| -> Result<(), TestCaseError> {
            prop_assert_eq!(bank.len(), model.balances.len());
            for (from, to, amount) in requests {
                let transfer = Transfer { from, to, amount };
                prop_assert_eq!(bank.transfer(token, transfer), model.transfer(transfer));
            }
            for account in 0..model.balances.len() + 2 {
                prop_assert_eq!(
                    bank.balance(token, account),
                    model.balances.get(account).map(|&balance| u64::try_from(balance).expect("fits"))
                );
            }
            prop_assert_eq!(bank.history(token), model.history.clone());
            Ok(())
        })?;
    }
}

/// A bank whose balances add up to more than `u64::MAX` is refused when it
/// is made, before any transfer could overflow a payee.
#[test]
#[should_panic(expected = "at most u64::MAX")]
fn balances_past_the_largest_total_are_refused() {
    let _ = Bank::new(vec![u64::MAX, 1]);
}
