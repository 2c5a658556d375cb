//! The order between lock levels, as in the lock-order exercise, in compact form.
//!
//! A lock level is a type with no values, such as `enum Accounts {}`.
//!
//! This module owns one property: **the declared order has no cycle, and no
//! level comes after itself**. The only sanctioned way to declare an edge,
//! [`impl_lock_after!`](crate::impl_lock_after), writes the edge and a
//! blanket impl that makes [`LockAfter`] transitive. A cycle, or an edge from
//! a level to itself, then derives an impl that an edge already wrote, and
//! the compiler rejects the pair (E0119). So a token at a level never locks
//! a second mutex of the same level: two locks of one level are taken
//! together, by [`LockBoth`](crate::LockBoth), or not at all.
//!
//! Bounds are written with [`LockBefore`], which follows from [`LockAfter`]
//! and from nothing else: it is sealed, so no crate can declare an edge by
//! implementing it instead. Declaring an edge without the macro takes an
//! `unsafe impl LockAfter`, whose author answers for the order.

/// The level of a thread that holds no lock: every thread starts here.
pub enum Unlocked {}

/// `Self` may be locked while a lock at level `A` is held.
///
/// # Safety
///
/// Implement it only through [`impl_lock_after!`](crate::impl_lock_after),
/// which pairs every edge with the impl that turns a cycle (or a level
/// after itself) into a compile error. An impl written by hand is an edge no
/// check covers: its author must make sure it closes no cycle and is not
/// `impl LockAfter<X> for X`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not declared to come after `{A}`",
    label = "`{Self}` cannot be locked while `{A}` is held",
    note = "declare the order with `impl_lock_after!({A} => {Self})`, or with a chain of such edges"
)]
pub unsafe trait LockAfter<A> {}

/// `Self` may be held while a lock at level `B` is taken: the mirror image
/// of [`LockAfter`]. Write bounds with it.
///
/// It is sealed: it holds exactly where [`LockAfter`] does, through the one
/// blanket impl below, and code outside this crate cannot add an impl of
/// its own, because its supertrait is private to this module. (Were it
/// open, `impl LockBefore<Ledger> for Audit {}` in another crate would
/// let a thread holding `Audit` lock `Ledger`, the reverse of the declared
/// order, with no `unsafe` and no cycle for the compiler to see.) So it
/// needs no `unsafe`: there is no impl to write, safe or not.
#[diagnostic::on_unimplemented(
    message = "a `{Self}` token cannot lock a mutex of level `{B}`",
    label = "`{B}` is not declared after `{Self}`"
)]
pub trait LockBefore<B>: sealed::Before<B> {}

#[diagnostic::do_not_recommend]
impl<A, B> LockBefore<B> for A where B: LockAfter<A> {}

/// The seal of [`LockBefore`]: a public trait in a private module, which
/// other crates can neither name nor implement.
mod sealed {
    use super::LockAfter;

    /// `Self` comes before `B`: implemented only by the blanket impl below.
    #[diagnostic::on_unimplemented(
        message = "`LockBefore` is sealed: `{Self}` comes before `{B}` only through `impl_lock_after!` edges",
        label = "no declared edge leads from `{Self}` to `{B}`",
        note = "declare the order with `impl_lock_after!`; `LockBefore` follows from `LockAfter` and cannot be implemented by hand"
    )]
    pub trait Before<B> {}

    #[diagnostic::do_not_recommend]
    impl<A, B> Before<B> for A where B: LockAfter<A> {}
}

/// Declares that `$after` may be locked while `$before` is held, and so
/// while any level before `$before` is held.
///
/// ```
/// use lock_order_fine_print::impl_lock_after;
///
/// pub enum Devices {}
/// pub enum Sockets {}
///
/// impl_lock_after!(Unlocked => Devices);
/// impl_lock_after!(Devices => Sockets);
/// ```
///
/// `impl_lock_after!(Sockets => Sockets)` does not compile (E0119): the
/// blanket impl it writes derives the very edge it declares.
#[macro_export]
macro_rules! impl_lock_after {
    (Unlocked => $after:ty) => {
        // SAFETY: `Unlocked` comes before every level; this edge closes no cycle.
        unsafe impl $crate::LockAfter<$crate::Unlocked> for $after {}
    };
    ($before:ty => $after:ty) => {
        // SAFETY: the blanket impl below turns any cycle through this edge,
        // and a level after itself, into conflicting impls.
        unsafe impl $crate::LockAfter<$before> for $after {}
        // SAFETY: transitivity: what may be held under `$before` may be held
        // under `$after` too.
        unsafe impl<X> $crate::LockAfter<X> for $after where $before: $crate::LockAfter<X> {}
    };
}
