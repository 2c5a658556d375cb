//! Proves enforcement: the order is transitive, and only runs one way. With
//! `Unlocked => A`, `A => B` and `B => C` declared, a token at `A` may lock
//! `C` and so may the root token, with no edge `A => C` written; no level
//! may be locked under itself or under a later one. (`may_lock!` asks the
//! compiler whether `H: LockBefore<L>` holds and reads the answer at run
//! time, so this file compiles whatever the relation says.)
use lock_order::{LockBefore, Unlocked, impl_lock_after};
use std::marker::PhantomData;

enum A {}
enum B {}
enum C {}

impl_lock_after!(Unlocked => A);
impl_lock_after!(A => B);
impl_lock_after!(B => C);

struct Probe<H, L>(PhantomData<(H, L)>);

// Method lookup tries `Probe` itself before `&Probe`: `Allowed` answers
// when its bound holds, `Refused` otherwise.
trait Allowed {
    fn allowed(&self) -> bool {
        true
    }
}
impl<H: LockBefore<L>, L> Allowed for Probe<H, L> {}

#[allow(dead_code)] // unused where every bound holds
trait Refused {
    fn allowed(&self) -> bool {
        false
    }
}
impl<H, L> Refused for &Probe<H, L> {}

/// Whether a token at level `$held` may lock a mutex at level `$wanted`.
macro_rules! may_lock {
    ($held:ty, $wanted:ty) => {
        (&Probe::<$held, $wanted>(PhantomData)).allowed()
    };
}

#[test]
fn declared_edges_hold() {
    assert!(may_lock!(Unlocked, A));
    assert!(may_lock!(A, B));
    assert!(may_lock!(B, C));
}

#[test]
fn c_may_be_locked_under_a_without_an_edge() {
    assert!(may_lock!(A, C), "A => B => C must let a token at A lock C");
}

#[test]
fn the_root_token_may_lock_every_level() {
    assert!(may_lock!(Unlocked, B), "Unlocked => A => B");
    assert!(may_lock!(Unlocked, C), "Unlocked => A => B => C");
}

#[test]
fn the_order_never_runs_backwards() {
    assert!(!may_lock!(B, A), "B comes after A");
    assert!(!may_lock!(C, A), "C comes after A");
    assert!(!may_lock!(C, B), "C comes after B");
    assert!(!may_lock!(A, Unlocked), "nothing comes before Unlocked");
}

#[test]
fn no_level_is_locked_under_itself() {
    assert!(!may_lock!(A, A));
    assert!(!may_lock!(C, C));
    assert!(!may_lock!(Unlocked, Unlocked));
}
