//! What the skipped bounds check is worth: `gather` through branded
//! indices against the same loop over plain `usize` positions, each lookup
//! checked by slice indexing, measured in the same run.
//!
//! ```text
//! cargo bench -p branded-indices-solution --bench gather_cost
//! ```
//!
//! `cargo test` runs each benchmark once, as a smoke test. The positions
//! are a fixed pseudo-random permutation, so the plain version's checks
//! depend on data the optimizer cannot see through: it must keep them.
//! `gather` also allocates its result in the measured loop; `sum_at`
//! measures the lookups alone. `gather_4096_u32/branded_get` is the loop
//! the book's chapter first wrote, one `Branded::get` per item: inlined
//! here, it reloads the vector's address on every item, which the
//! solution's `gather`, through a `View`, does not. The book's appendix
//! "Measurements" quotes one run and the machine code of each loop.

use branded_indices::{Branded, Index, gather, with};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Items: 4096 `u32`, 16 KiB, so that the data stays in the L1 cache and
/// the loop, not memory, sets the pace.
const LEN: usize = 4096;

/// A permutation of `0..LEN` from a small linear congruential shuffle.
fn permutation() -> Vec<usize> {
    let mut order: Vec<usize> = (0..LEN).collect();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..LEN).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let j = (state >> 33) as usize % (i + 1);
        order.swap(i, j);
    }
    order
}

/// The plain version: the same loop as [`gather`], on `usize` positions.
fn gather_checked<T: Clone>(items: &[T], order: &[usize]) -> Vec<T> {
    order
        .iter()
        .map(|&position| items[position].clone())
        .collect()
}

/// The branded loop as the book's chapter first wrote it: one
/// `Branded::get` per item, with no `View`.
fn gather_through_get<'id, T: Clone>(items: &Branded<'id, T>, order: &[Index<'id>]) -> Vec<T> {
    order
        .iter()
        .map(|&index| items.get(index).clone())
        .collect()
}

/// Lookups alone, with no allocation in the measured loop: the sum of the
/// items at `order`, on `usize` positions.
fn sum_checked(items: &[u32], order: &[usize]) -> u64 {
    order
        .iter()
        .map(|&position| u64::from(items[position]))
        .sum()
}

/// The same sum through branded indices.
fn sum_branded<'id>(items: &Branded<'id, u32>, order: &[Index<'id>]) -> u64 {
    order
        .iter()
        .map(|&index| u64::from(*items.get(index)))
        .sum()
}

fn gather_cost(c: &mut Criterion) {
    let mut items: Vec<u32> = (0..LEN as u32)
        .map(|n| n.wrapping_mul(2_654_435_761))
        .collect();
    let order = permutation();
    c.bench_function("gather_4096_u32/checked_usize", |b| {
        b.iter(|| gather_checked(black_box(&items), black_box(&order)))
    });
    c.bench_function("sum_at_4096_u32/checked_usize", |b| {
        b.iter(|| sum_checked(black_box(&items), black_box(&order)))
    });
    with(&mut items, |items| {
        // The checks happen once, here, outside the measured loops.
        let branded: Vec<Index<'_>> = order
            .iter()
            .map(|&position| items.index(position).expect("a permutation is in bounds"))
            .collect();
        c.bench_function("gather_4096_u32/branded", |b| {
            b.iter(|| gather(black_box(&items), black_box(&branded)))
        });
        c.bench_function("gather_4096_u32/branded_get", |b| {
            b.iter(|| gather_through_get(black_box(&items), black_box(&branded)))
        });
        c.bench_function("sum_at_4096_u32/branded", |b| {
            b.iter(|| sum_branded(black_box(&items), black_box(&branded)))
        });
    });
}

criterion_group!(benches, gather_cost);
criterion_main!(benches);
