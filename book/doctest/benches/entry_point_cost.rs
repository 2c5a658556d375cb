//! What the fine-print chapter's entry point costs: `with_token` reads and writes a
//! thread-local flag each time it lends the root token. Measured against
//! the same lock taken with a token made once, and against the `std` mutex
//! alone, in the same run. The appendix "Measurements" quotes the result.
//!
//! ```text
//! cargo bench -p xsafe-book-doctest --bench entry_point_cost
//! ```
//!
//! `cargo test --benches` runs each benchmark once, as a smoke test.

use criterion::{criterion_group, criterion_main, Criterion};
use lock_order_fine_print::{impl_lock_after, with_token, Lock, LockToken, OrderedMutex};
use std::hint::black_box;
use std::sync::{Mutex, PoisonError};

enum Level {}
impl_lock_after!(Unlocked => Level);

static STD: Mutex<u64> = Mutex::new(0);
static ORDERED: OrderedMutex<Level, u64> = OrderedMutex::new(0);

/// One lock and unlock of an uncontended mutex, three ways.
fn lock_per_entry(c: &mut Criterion) {
    let mut group = c.benchmark_group("lock_per_entry");
    group.bench_function("std", |b| {
        b.iter(|| {
            let mut value = black_box(&STD)
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            *value += 1;
        })
    });
    group.bench_function("ordered, token made once", |b| {
        // SAFETY: this benchmark thread holds no other token or ordered lock.
        let mut token = unsafe { LockToken::new_unchecked() };
        b.iter(|| {
            let (mut value, _) = black_box(&ORDERED).lock(&mut token);
            *value += 1;
        })
    });
    group.bench_function("ordered, with_token each time", |b| {
        b.iter(|| {
            with_token(|token| {
                let (mut value, _) = black_box(&ORDERED).lock(token);
                *value += 1;
            })
        })
    });
    group.finish();
}

/// The entry point alone: lending the root token to a closure that does
/// nothing with it.
fn entry_alone(c: &mut Criterion) {
    c.bench_function("with_token alone", |b| {
        b.iter(|| with_token(|token| black_box(token as *mut _ as usize)))
    });
}

criterion_group!(benches, lock_per_entry, entry_alone);
criterion_main!(benches);
