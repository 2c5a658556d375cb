//! Two mutexes of the same level, locked together.
//!
//! The type-level order ranks levels, not mutexes: two accounts, two
//! sockets, have the same level, and no level comes after itself, so a
//! token at `Accounts` never locks a second account. This module owns the
//! property: **two locks of one level are always taken in the same order,
//! the lock at the lower address first**, whatever order the caller names
//! them in, so two threads locking the same pair never wait for each other
//! in a circle. An address is a stable key for as long as it matters: a
//! mutex cannot move while a thread holds a reference to it.

use crate::mutex::OrderedMutex;
use crate::relation::LockBefore;
use crate::token::LockToken;
use std::sync::MutexGuard;

/// Both arguments of [`LockBoth::lock_both`] are the same mutex: locking it
/// twice would deadlock, so nothing is locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SameLock;

impl std::fmt::Display for SameLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the two locks are one lock")
    }
}

impl std::error::Error for SameLock {}

/// The guards of two mutexes of one level, in the order they were named,
/// and a token at their level.
pub type Both<'a, T, L> = (MutexGuard<'a, T>, MutexGuard<'a, T>, LockToken<'a, L>);

/// Locking two mutexes of the same level with a token at level `H`.
#[diagnostic::on_unimplemented(
    message = "a `{H}` token cannot lock this pair: their level is not declared after `{H}`",
    label = "this token is at `{H}`"
)]
pub trait LockBoth<H> {
    /// The level of both mutexes.
    type Level;
    /// What each mutex guards.
    type Value;

    /// Locks `self` and `other`, the one at the lower address first, and
    /// returns their guards in the order named (`self`'s first) with a token
    /// at their level. Refuses, without locking anything, if `self` and
    /// `other` are the same mutex.
    fn lock_both<'a>(
        &'a self,
        other: &'a Self,
        token: &'a mut LockToken<'_, H>,
    ) -> Result<Both<'a, Self::Value, Self::Level>, SameLock>;
}

#[diagnostic::do_not_recommend]
impl<H, L, T> LockBoth<H> for OrderedMutex<L, T>
where
    H: LockBefore<L>,
{
    type Level = L;
    type Value = T;

    fn lock_both<'a>(
        &'a self,
        other: &'a Self,
        token: &'a mut LockToken<'_, H>,
    ) -> Result<Both<'a, T, L>, SameLock> {
        let _ = token;
        let (mine, theirs) = (self as *const Self as usize, other as *const Self as usize);
        if mine == theirs {
            return Err(SameLock);
        }
        let (first, second) = if mine < theirs {
            let first = self.lock_unordered();
            (first, other.lock_unordered())
        } else {
            let second = other.lock_unordered();
            (self.lock_unordered(), second)
        };
        Ok((first, second, LockToken::at_level()))
    }
}
