//! Proves consumption: the bank is right at the numeric edges, in release
//! builds too. `Bank::new` refuses balances that add up to more than
//! `u64::MAX` (a transfer into the full account would overflow it after
//! the payer was debited), whatever the build's debug assertions and
//! overflow checks (a sum that panics only because overflow checks are on
//! is no check in a release build); a bank
//! that holds `u64::MAX` in all moves it from one account to the other.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    refused_overflowing: bool,
    /// After moving `u64::MAX` from account 0 to 1: both balances.
    moved: Option<[Option<u64>; 2]>,
}

fn small(seed: Seed) -> u64 {
    seed.rng().u64(1..1_000)
}

/// Whether a caught panic is the build's own overflow check (`attempt to
/// add with overflow` and its kin): a release build, where overflow checks
/// are off by default, does not make it, so a refusal that rests on it is
/// no refusal there.
#[cfg(not(xsafe_judge))]
fn overflow_check(payload: &(dyn std::any::Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or_default();
    text.starts_with("attempt to ") && text.ends_with(" with overflow")
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order_fine_print::bank::{Bank, Transfer};
    use lock_order_fine_print::with_token;

    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // A panic counts as a refusal unless it is the build's overflow check.
    let refused_overflowing =
        std::panic::catch_unwind(|| drop(Bank::new(vec![u64::MAX - small(seed) + 1, small(seed)])))
            .is_err_and(|payload| !overflow_check(&*payload));
    let moved = std::panic::catch_unwind(|| {
        let bank = Bank::new(vec![u64::MAX, 0]);
        with_token(|token| {
            bank.transfer(token, Transfer { from: 0, to: 1, amount: u64::MAX })
                .is_ok()
                .then(|| [bank.balance(token, 0), bank.balance(token, 1)])
        })
    })
    .ok()
    .flatten();
    std::panic::set_hook(quiet);
    Seen {
        refused_overflowing,
        moved,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let _ = small(seed);
    assert!(
        seen.refused_overflowing,
        "Bank::new accepted balances adding up to more than u64::MAX, or refused them only through the build's overflow check (`attempt to add with overflow`, which a release build does not make): it must refuse them (panic) in every build"
    );
    assert_eq!(
        seen.moved,
        Some([Some(0), Some(u64::MAX)]),
        "moving u64::MAX from account 0 to account 1 must be made, and leave [0, u64::MAX]"
    );
}
