//! The lock order at the machine level: four functions that lock and
//! unlock, with `std` or with the lock order, kept out of line so that their
//! code can be compared and their instructions counted (see the chapter
//! "Compile-time deadlock prevention", section "Zero cost"):
//!
//! ```text
//! cargo build --release -p lock-order-solution --example lock_loop
//! valgrind --tool=callgrind --callgrind-out-file=lock_loop.out \
//!     target/release/examples/lock_loop 1000000
//! callgrind_annotate --inclusive=yes lock_loop.out | grep lock_loop::
//! ```
//!
//! The `std` functions treat a poisoned lock as `OrderedMutex::lock` does
//! (`PoisonError::into_inner`), so that the only difference left between
//! the two sides is the lock order.

use lock_order::{LockToken, OrderedMutex, Unlocked, impl_lock_after};
use std::hint::black_box;
use std::sync::{Mutex, PoisonError};

enum Outer {}
enum Inner {}
impl_lock_after!(Unlocked => Outer);
impl_lock_after!(Outer => Inner);

static STD_OUTER: Mutex<u64> = Mutex::new(0);
static STD_INNER: Mutex<u64> = Mutex::new(0);
static ORDERED_OUTER: OrderedMutex<Outer, u64> = OrderedMutex::new(0);
static ORDERED_INNER: OrderedMutex<Inner, u64> = OrderedMutex::new(0);

/// One lock and unlock of a `std` mutex.
#[inline(never)]
fn bump_std() {
    *black_box(&STD_OUTER)
        .lock()
        .unwrap_or_else(PoisonError::into_inner) += 1;
}

/// One lock and unlock of an ordered mutex.
#[inline(never)]
fn bump_ordered(token: &mut LockToken<'_, Unlocked>) {
    *black_box(&ORDERED_OUTER).lock(token).0 += 1;
}

/// Two `std` mutexes, one locked under the other.
#[inline(never)]
fn nested_std() {
    let outer = black_box(&STD_OUTER)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    *black_box(&STD_INNER)
        .lock()
        .unwrap_or_else(PoisonError::into_inner) += *outer;
}

/// Two ordered mutexes, the inner one locked with the outer one's token.
#[inline(never)]
fn nested_ordered(token: &mut LockToken<'_, Unlocked>) {
    let (outer, mut at_outer) = black_box(&ORDERED_OUTER).lock(token);
    *black_box(&ORDERED_INNER).lock(&mut at_outer).0 += *outer;
}

fn main() {
    let rounds: u64 = std::env::args()
        .nth(1)
        .map_or(1_000_000, |n| n.parse().expect("a number of rounds"));
    let mut token = LockToken::new();
    for _ in 0..rounds {
        bump_std();
        bump_ordered(&mut token);
        nested_std();
        nested_ordered(&mut token);
    }
    let mut token = LockToken::new();
    let (inner, _) = ORDERED_INNER.lock(&mut token);
    println!("{rounds} rounds, inner counter {}", *inner);
}
