//! Locks that cannot deadlock by taking each other in the wrong order.
//!
//! This is the reference solution of the X-safe Rust exercise `lock-order`.
//! It follows the course's three steps:
//!
//! * **Definition.** Every mutex has a lock level, a type with no values
//!   ([`OrderedMutex<L, T>`]). [`LockAfter`] and [`LockBefore`] state which
//!   level may be locked while which is held.
//! * **Enforcement.** The `relation` module makes the declared order
//!   acyclic: [`impl_lock_after!`] pairs each edge with a blanket impl that
//!   makes the order transitive, so a cycle is a pair of conflicting impls.
//!   The `mutex` module makes threads lock upward: [`OrderedMutex::lock`]
//!   takes a [`LockToken`] below the mutex's level, borrows it mutably, and
//!   hands back a token at the mutex's level.
//! * **Consumption.** The [`bank`] takes three locks in order, and any code
//!   that compiles against these types takes its locks in an order that
//!   agrees with every other thread's, so none of them waits in a cycle.
//!
//! ```
//! use lock_order::{LockToken, OrderedMutex, impl_lock_after};
//!
//! enum Config {}
//! enum Stats {}
//! impl_lock_after!(Unlocked => Config);
//! impl_lock_after!(Config => Stats);
//!
//! static CONFIG: OrderedMutex<Config, u32> = OrderedMutex::new(3);
//! static STATS: OrderedMutex<Stats, u32> = OrderedMutex::new(0);
//!
//! let mut token = LockToken::new();
//! let (config, mut at_config) = CONFIG.lock(&mut token);
//! let (mut stats, _) = STATS.lock(&mut at_config);
//! *stats += *config;
//! assert_eq!(*stats, 3);
//! ```

pub mod bank;
mod mutex;
mod relation;

pub use mutex::{LockToken, OrderedMutex};
pub use relation::{LockAfter, LockBefore, Unlocked};
