//! The order between lock levels.
//!
//! A lock level is a type with no values, such as `enum Accounts {}`. It
//! exists only as a type parameter: of an [`OrderedMutex`](crate::OrderedMutex),
//! to say where that mutex sits in the order, and of a
//! [`LockToken`](crate::LockToken), to say which level a thread has reached.
//!
//! This module owns one property: **the declared order has no cycle**. It
//! holds because the only sanctioned way to declare an edge,
//! [`impl_lock_after!`](crate::impl_lock_after), writes two impls: the edge
//! itself and a blanket impl that extends the edge to every level before it.
//! The blanket impls make [`LockAfter`] transitive, and a cycle in a
//! transitive relation puts a level after itself, which is an impl the edge
//! macro has already written: the compiler rejects the pair as conflicting
//! implementations (E0119). [`LockAfter`] is `unsafe`, so an edge written by
//! hand, without that blanket impl, needs an `unsafe` its author must justify.
//! [`LockBefore`] is sealed: its supertrait lives in a private module, so no
//! code outside this one can implement it, and it holds exactly where
//! `LockAfter` does.

/// The level of a thread that holds no lock: every thread starts here.
///
/// It has no values; [`LockToken::new`](crate::LockToken::new) makes the one
/// token at this level that a thread starts with.
pub enum Unlocked {}

/// `Self` may be locked while a lock at level `A` is held: `A` comes before
/// `Self` in the lock order, directly or through other levels.
///
/// # Safety
///
/// Implement it only through [`impl_lock_after!`](crate::impl_lock_after).
/// The macro pairs every edge with the impl that makes the relation
/// transitive, which is what turns a cycle into a compile error. An impl
/// written by hand adds an edge that no such check covers: its author must
/// make sure that it closes no cycle.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not declared to come after `{A}`",
    label = "`{Self}` cannot be locked while `{A}` is held",
    note = "declare the order with `impl_lock_after!({A} => {Self})`, or with a chain of such edges"
)]
pub unsafe trait LockAfter<A> {}

/// `Self` may be held while a lock at level `B` is taken: the mirror image of
/// [`LockAfter`], as `Into` is of `From`. Write bounds with it
/// (`L: LockBefore<Accounts>` reads "a token at `L` may lock `Accounts`").
///
/// It is implemented for every pair of levels that [`LockAfter`] orders, and
/// only for them: it is sealed (its supertrait cannot be named outside this
/// module), so no other impl can be written, `unsafe` or not.
#[diagnostic::on_unimplemented(
    message = "a `{Self}` token cannot lock a mutex of level `{B}`",
    label = "`{B}` is not declared after `{Self}`",
    note = "a token at level A may lock a level declared after A with `impl_lock_after!`, directly or through other levels"
)]
pub trait LockBefore<B>: sealed::Ordered<B> {}

// `do_not_recommend` makes an unsatisfied bound name the two levels instead
// of this impl.
#[diagnostic::do_not_recommend]
impl<A, B> LockBefore<B> for A where B: LockAfter<A> {}

mod sealed {
    /// The seal of [`LockBefore`](super::LockBefore): a public trait in a
    /// private module, which code outside the module can use through
    /// `LockBefore` but cannot name, so cannot implement. Its one impl holds
    /// exactly where the order does, so an impl of `LockBefore` written
    /// anywhere else for a pair the order does not have fails on this
    /// supertrait.
    pub trait Ordered<B> {}

    impl<A, B> Ordered<B> for A where B: super::LockAfter<A> {}
}

/// Declares that `$after` may be locked while `$before` is held, and so
/// while any level before `$before` is held.
///
/// ```
/// use lock_order::impl_lock_after;
///
/// pub enum Devices {}
/// pub enum Sockets {}
///
/// impl_lock_after!(Unlocked => Devices);
/// impl_lock_after!(Devices => Sockets);
/// ```
///
/// A cycle, such as adding `impl_lock_after!(Sockets => Devices)` to the
/// above, does not compile: the blanket impls derive an impl that an edge
/// already wrote, and the compiler reports the pair (E0119).
///
/// Each level may have one level just before it (the declared order is a
/// tree rooted at [`Unlocked`]): two edges into the same level conflict
/// too, as both blanket impls cover the levels before both.
#[macro_export]
macro_rules! impl_lock_after {
    // Nothing comes before `Unlocked`, so an edge out of it needs no blanket
    // impl. The general arm's would not compile outside this crate anyway:
    // coherence cannot rule out that this crate some day implements
    // `LockAfter<Unlocked>` for `Unlocked`.
    (Unlocked => $after:ty) => {
        // SAFETY: `Unlocked` comes before every level; this edge closes no cycle.
        unsafe impl $crate::LockAfter<$crate::Unlocked> for $after {}
    };
    ($before:ty => $after:ty) => {
        // SAFETY: the blanket impl below turns any cycle through this edge
        // into conflicting impls.
        unsafe impl $crate::LockAfter<$before> for $after {}
        // SAFETY: transitivity: what may be held under `$before` may be held
        // under `$after` too.
        unsafe impl<X> $crate::LockAfter<X> for $after where $before: $crate::LockAfter<X> {}
    };
}
