//! The bank checked against an independent model: a sequential bank in
//! `u128` arithmetic, written from the chapter's contract (a transfer
//! checks both accounts, then the payer's balance; a refusal changes no
//! balance and only counts; `moved` stops at `u64::MAX`). Balances start
//! anywhere up to a total of `u64::MAX`, so the edges are reached: a payer
//! paying its whole balance, money moved back and forth past `u64::MAX`.

use lock_order::LockToken;
use lock_order::bank::{Bank, Transfer, TransferError};
use proptest::prelude::*;

/// The model: balances and sums in `u128`, where nothing overflows.
struct Model {
    balances: Vec<u128>,
    ledger: Vec<Transfer>,
    transfers: u128,
    rejected: u128,
    moved: u128,
}

impl Model {
    fn transfer(&mut self, transfer: Transfer) -> Result<(), TransferError> {
        let Transfer { from, to, amount } = transfer;
        for account in [from, to] {
            if account >= self.balances.len() {
                self.rejected += 1;
                return Err(TransferError::NoSuchAccount(account));
            }
        }
        let balance = self.balances[from];
        if balance < u128::from(amount) {
            self.rejected += 1;
            return Err(TransferError::InsufficientFunds {
                account: from,
                balance: u64::try_from(balance).expect("a balance fits u64"),
            });
        }
        self.balances[from] -= u128::from(amount);
        self.balances[to] += u128::from(amount);
        self.ledger.push(transfer);
        self.transfers += 1;
        self.moved += u128::from(amount);
        Ok(())
    }
}

/// Balances adding up to at most `u64::MAX`: shares of it, or small ones.
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

/// Transfers between (mostly) existing accounts, of amounts near the
/// edges: 0, 1, small, the largest values.
fn transfers() -> impl Strategy<Value = Vec<(usize, usize, u64)>> {
    let amount = prop_oneof![
        Just(0u64),
        Just(1),
        0u64..2000,
        Just(u64::MAX),
        Just(u64::MAX / 2),
        Just(u64::MAX / 3),
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
            ledger: Vec::new(),
            transfers: 0,
            rejected: 0,
            moved: 0,
        };
        let mut token = LockToken::new();
        for (from, to, amount) in requests {
            let transfer = Transfer { from, to, amount };
            prop_assert_eq!(bank.transfer(&mut token, transfer), model.transfer(transfer));
            prop_assert_eq!(
                bank.balance(&mut token, from),
                model.balances.get(from).map(|&balance| u64::try_from(balance).expect("fits"))
            );
        }
        let audit = bank.audit(&mut token);
        let expected: Vec<u64> = model
            .balances
            .iter()
            .map(|&balance| u64::try_from(balance).expect("fits"))
            .collect();
        prop_assert_eq!(audit.balances, expected);
        prop_assert_eq!(audit.ledger, model.ledger);
        prop_assert_eq!(u128::from(audit.counters.transfers), model.transfers);
        prop_assert_eq!(u128::from(audit.counters.rejected), model.rejected);
        prop_assert_eq!(u128::from(audit.counters.moved), model.moved.min(u128::from(u64::MAX)));
    }
}

/// Money moved back and forth until the sum passes `u64::MAX`: `moved`
/// stops there, and no transfer panics.
#[test]
fn moved_stops_at_the_largest_value() {
    let bank = Bank::new(vec![u64::MAX, 0]);
    let mut token = LockToken::new();
    for _ in 0..3 {
        assert_eq!(
            bank.transfer(
                &mut token,
                Transfer {
                    from: 0,
                    to: 1,
                    amount: u64::MAX
                }
            ),
            Ok(())
        );
        assert_eq!(
            bank.transfer(
                &mut token,
                Transfer {
                    from: 1,
                    to: 0,
                    amount: u64::MAX
                }
            ),
            Ok(())
        );
    }
    let audit = bank.audit(&mut token);
    assert_eq!(audit.counters.moved, u64::MAX);
    assert_eq!(audit.counters.transfers, 6);
    assert_eq!(audit.balances, vec![u64::MAX, 0]);
}
