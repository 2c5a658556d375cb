//! Proves consumption: the bank is right at the numeric edges, in release
//! builds too. `Bank::new` refuses balances that add up to more than
//! `u64::MAX` (no transfer could then credit an account safely), whatever
//! the build's debug assertions and overflow checks (a sum that panics
//! only because overflow checks are on is no check in a release build); a bank that holds `u64::MAX` in all moves
//! it there and back, and the counters' sum stops at `u64::MAX` instead of
//! overflowing, also when it comes from below (`u64::MAX - s`, then
//! `s + 1`): a transfer never panics halfway, with its balances moved and
//! its ledger written but its counters not. A transfer to oneself from an
//! account holding `u64::MAX` is valid and leaves the balance as it was (a
//! transfer that credits before it debits overflows there).
use crate::support::AuditView;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Whether `Bank::new` panicked for balances adding up past the limit.
    refused_overflowing: bool,
    /// Whether the two transfers of the whole total ran without a panic,
    /// and the audit after them.
    moved_back_and_forth: Option<AuditView>,
    /// Whether `u64::MAX - s` then `s + 1` ran without a panic, and the
    /// audit after them.
    moved_past_the_top: Option<AuditView>,
    /// Whether a transfer of `s` from the account holding `u64::MAX` to
    /// itself ran without a panic, and the audit after it.
    to_oneself_at_the_top: Option<AuditView>,
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
    use crate::support::view;
    use lock_order::LockToken;
    use lock_order::bank::{Bank, Transfer};

    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // A panic counts as a refusal unless it is the build's overflow check.
    let refused_overflowing =
        std::panic::catch_unwind(|| drop(Bank::new(vec![u64::MAX - small(seed) + 1, small(seed)])))
            .is_err_and(|payload| !overflow_check(&*payload));
    let moved_back_and_forth = std::panic::catch_unwind(|| {
        let bank = Bank::new(vec![u64::MAX, 0]);
        let mut token = LockToken::new();
        let there = bank.transfer(&mut token, Transfer { from: 0, to: 1, amount: u64::MAX });
        let back = bank.transfer(&mut token, Transfer { from: 1, to: 0, amount: u64::MAX });
        (there.is_ok() && back.is_ok()).then(|| view(bank.audit(&mut token)))
    })
    .ok()
    .flatten();
    let s = small(seed);
    let moved_past_the_top = std::panic::catch_unwind(|| {
        let bank = Bank::new(vec![u64::MAX - s, s]);
        let mut token = LockToken::new();
        let there = bank.transfer(&mut token, Transfer { from: 0, to: 1, amount: u64::MAX - s });
        let back = bank.transfer(&mut token, Transfer { from: 1, to: 0, amount: s + 1 });
        (there.is_ok() && back.is_ok()).then(|| view(bank.audit(&mut token)))
    })
    .ok()
    .flatten();
    let to_oneself_at_the_top = std::panic::catch_unwind(|| {
        let bank = Bank::new(vec![u64::MAX]);
        let mut token = LockToken::new();
        let done = bank.transfer(&mut token, Transfer { from: 0, to: 0, amount: s });
        done.is_ok().then(|| view(bank.audit(&mut token)))
    })
    .ok()
    .flatten();
    std::panic::set_hook(quiet);
    Seen {
        refused_overflowing,
        moved_back_and_forth,
        moved_past_the_top,
        to_oneself_at_the_top,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    assert!(
        seen.refused_overflowing,
        "Bank::new accepted balances adding up to more than u64::MAX, or refused them only through the build's overflow check (`attempt to add with overflow`, which a release build does not make): it must refuse them (panic) in every build, not only when debug assertions or overflow checks are on"
    );
    let _ = small(seed);
    let audit = seen.moved_back_and_forth.expect(
        "moving u64::MAX from account 0 to account 1 and back panicked or was refused: both transfers are valid, and the counters' sum must stop at u64::MAX rather than overflow",
    );
    assert_eq!(audit.balances, [u64::MAX, 0], "after moving everything there and back");
    assert_eq!(audit.ledger, [(0, 1, u64::MAX), (1, 0, u64::MAX)], "both transfers are in the ledger");
    assert_eq!(
        audit.counters,
        (2, 0, u64::MAX),
        "(transfers, rejected, moved): the sum moved stops at u64::MAX"
    );
    let s = small(seed);
    let audit = seen.moved_past_the_top.unwrap_or_else(|| {
        panic!(
            "a bank of [u64::MAX - {s}, {s}] moving u64::MAX - {s} from account 0 to account 1, then {} back, panicked or was refused: both transfers are valid",
            s + 1
        )
    });
    assert_eq!(audit.balances, [s + 1, u64::MAX - s - 1], "after u64::MAX - {s} there and {} back", s + 1);
    assert_eq!(
        audit.counters,
        (2, 0, u64::MAX),
        "(transfers, rejected, moved) after moving u64::MAX - {s} and then {}: the sum moved stops at u64::MAX, not below it",
        s + 1
    );
    let audit = seen.to_oneself_at_the_top.unwrap_or_else(|| {
        panic!(
            "a transfer of {s} from the account holding u64::MAX to itself panicked or was refused: it is valid (the account holds the amount), and it must not credit before it debits"
        )
    });
    assert_eq!(audit.balances, [u64::MAX], "a transfer to oneself leaves the balance as it was");
    assert_eq!(audit.ledger, [(0, 0, s)], "a transfer to oneself is in the ledger");
    assert_eq!(audit.counters, (1, 0, s), "(transfers, rejected, moved) after one transfer of {s} to oneself");
}
