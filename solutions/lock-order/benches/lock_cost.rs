//! What the lock order costs at run time: an [`OrderedMutex`] against the
//! [`std::sync::Mutex`] it wraps, uncontended, measured in the same run.
//!
//! ```text
//! cargo bench -p lock-order-solution --bench lock_cost
//! ```
//!
//! `cargo test` runs each benchmark once, as a smoke test. The `std` side
//! treats a poisoned lock as `OrderedMutex::lock` does
//! (`PoisonError::into_inner`), so the only difference is the lock order.

use criterion::{Criterion, criterion_group, criterion_main};
use lock_order::{LockToken, OrderedMutex, impl_lock_after};
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

/// One lock and unlock, adding 1 under the lock.
fn lock_unlock(c: &mut Criterion) {
    let mut group = c.benchmark_group("lock_unlock");
    group.bench_function("std", |b| {
        b.iter(|| {
            let mut value = black_box(&STD_OUTER)
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            *value += 1;
        })
    });
    group.bench_function("ordered", |b| {
        let mut token = LockToken::new();
        b.iter(|| {
            let (mut value, _) = black_box(&ORDERED_OUTER).lock(&mut token);
            *value += 1;
        })
    });
    group.finish();
}

/// Two levels: lock the outer mutex, then the inner one under it.
fn nested(c: &mut Criterion) {
    let mut group = c.benchmark_group("nested_two_levels");
    group.bench_function("std", |b| {
        b.iter(|| {
            let outer = black_box(&STD_OUTER)
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let mut inner = black_box(&STD_INNER)
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            *inner += *outer;
        })
    });
    group.bench_function("ordered", |b| {
        let mut token = LockToken::new();
        b.iter(|| {
            let (outer, mut at_outer) = black_box(&ORDERED_OUTER).lock(&mut token);
            let (mut inner, _) = black_box(&ORDERED_INNER).lock(&mut at_outer);
            *inner += *outer;
        })
    });
    group.finish();
}

criterion_group!(benches, lock_unlock, nested);
criterion_main!(benches);
