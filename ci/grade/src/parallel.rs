//! Running independent grading work a few at a time, with results kept in
//! the order of the work: behaviour cases within a grade, and exercises
//! within a submission.
//!
//! Plain scoped threads pulling the next item, not a work-stealing pool:
//! the two uses nest (each exercise of a submission runs its cases in
//! parallel), and a pool's thread waiting on a nested pool would pick up
//! more exercises than `workers` allows.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;

/// `work` applied to every item, at most `workers` at a time, results in
/// the order of `items`. A panic in `work` reaches the caller.
pub fn in_parallel<T, R>(items: &[T], workers: usize, work: impl Fn(&T) -> R + Sync) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = items.get(index) else { return };
                    let result = work(item);
                    results.lock().unwrap_or_else(PoisonError::into_inner)[index] = Some(result);
                }
            });
        }
    });
    // Every index was taken by exactly one worker; a worker that panicked
    // has made `scope` panic before this point.
    results
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    /// Results come back in the items' order, and no more than `workers`
    /// items are worked on at once.
    #[test]
    fn keeps_order_and_bounds_concurrency() {
        let running = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let items: Vec<u64> = (0..12).collect();
        let results = in_parallel(&items, 3, |&item| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            thread::sleep(Duration::from_millis(20 - item));
            running.fetch_sub(1, Ordering::SeqCst);
            item * 10
        });
        assert_eq!(
            results,
            items.iter().map(|item| item * 10).collect::<Vec<_>>()
        );
        assert!(most.load(Ordering::SeqCst) <= 3);
        assert!(
            most.load(Ordering::SeqCst) >= 2,
            "the work did run in parallel"
        );
    }
}
