//! Proves consumption is sound, not only right: the steps that skip a check
//! (`get`, `get_mut`, a view's `get`, `swap`, `gather`) drop every item
//! exactly once, even when an item's `Clone` panics in the middle of a
//! `gather` (at each of its calls in turn, for vectors of 0 to 6 items
//! and orders shorter than, as long as and longer than the vector, and two
//! shapes drawn from the seed, up to 9 items and 12 positions), and
//! swapping an item with itself leaves it whole. Items own heap memory, so
//! a second drop is a double free. Each item records its creation and its drop, so
//! a drop of memory that was never written, or a second drop, shows. The
//! case is marked `miri`: where the machine has Miri, it runs again under
//! it, which also sees undefined behaviour that changes no result (two
//! `&mut` to one item).
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Items in the vector of the swaps.
const LEN: usize = 4;

/// What happened to the items of one scenario.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Ledger {
    /// Each item's number as it was made (the vector's, then each clone's).
    created: Vec<u32>,
    /// Each number as it was dropped, in order.
    dropped: Vec<u32>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each scenario of [`scenarios`], for each call count at which
    /// `Clone` panics (0 = the first call; the last count is past the end,
    /// so nothing panics): whether gather returned, the numbers it
    /// returned, and the ledger.
    gathers: Vec<Vec<(bool, Vec<u32>, Ledger)>>,
    /// The numbers of the items after the swaps and writes, and the ledger.
    swaps: (Vec<u32>, Ledger),
}

/// The gathers: a vector's length and the order applied to it (empty
/// ones; an order as long as the vector, a reversal; one with repeats,
/// longer than the vector; one shorter), then two whose lengths are drawn
/// too (a vector of 1 to 9 items, orders of 0 to 12 positions), so each
/// grade, and the run under Miri, tries shapes the fixed ones do not.
fn scenarios(seed: Seed) -> Vec<(usize, Vec<usize>)> {
    let mut rng = seed.rng();
    let mut drawn = |len: usize, count: usize| -> Vec<usize> { (0..count).map(|_| rng.usize(0..len)).collect() };
    let mut repeated: Vec<usize> = (0..LEN).rev().collect();
    repeated.extend(drawn(LEN, 2));
    let mut scenarios = vec![
        (0, Vec::new()),
        (1, vec![0]),
        (3, (0..3).rev().collect()),
        (LEN, repeated),
        (6, drawn(6, 6)),
        (5, drawn(5, 2)),
        (2, drawn(2, 5)),
    ];
    // The sizes come from a stream of their own, so the orders above stay
    // what they were for every seed.
    let mut sizes = Seed(seed.0.wrapping_add(1)).rng();
    for _ in 0..2 {
        let len = sizes.usize(1..=9);
        let count = sizes.usize(0..=12);
        scenarios.push((len, drawn(len, count)));
    }
    scenarios
}

#[cfg(not(xsafe_judge))]
mod tracked {
    use super::Ledger;
    use std::cell::{Cell, RefCell};

    thread_local! {
        static LEDGER: RefCell<Ledger> = RefCell::new(Ledger::default());
        static NEXT: Cell<u32> = const { Cell::new(0) };
        /// Clones left before one panics (`None`: never).
        static CLONES_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
    }

    /// An item that records its creation and its drop, and owns heap
    /// memory (a second drop frees it twice).
    #[derive(Debug)]
    pub struct Tracked {
        pub number: u32,
        _owned: Box<u32>,
    }

    impl Tracked {
        pub fn new() -> Self {
            let number = NEXT.with(|next| {
                let number = next.get();
                next.set(number + 1);
                number
            });
            LEDGER.with(|ledger| ledger.borrow_mut().created.push(number));
            Tracked { number, _owned: Box::new(number) }
        }
    }

    impl Clone for Tracked {
        fn clone(&self) -> Self {
            CLONES_LEFT.with(|left| match left.get() {
                Some(0) => panic!("this clone panics on purpose"),
                Some(n) => left.set(Some(n - 1)),
                None => {}
            });
            Tracked::new()
        }
    }

    impl Drop for Tracked {
        fn drop(&mut self) {
            let number = self.number;
            LEDGER.with(|ledger| ledger.borrow_mut().dropped.push(number));
        }
    }

    /// Starts a scenario: an empty ledger, clones that panic after `clones`.
    pub fn start(clones: Option<usize>) {
        LEDGER.with(|ledger| *ledger.borrow_mut() = Ledger::default());
        NEXT.with(|next| next.set(0));
        CLONES_LEFT.with(|left| left.set(clones));
    }

    pub fn ledger() -> Ledger {
        LEDGER.with(|ledger| std::mem::take(&mut *ledger.borrow_mut()))
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use branded_indices::{Index, gather, with};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use tracked::Tracked;

    let gathers = scenarios(seed)
        .into_iter()
        .map(|(len, order)| {
            (0..=order.len())
                .map(|clones| {
                    tracked::start(Some(clones));
                    let mut items: Vec<Tracked> = (0..len).map(|_| Tracked::new()).collect();
                    let result = with(&mut items, |items| {
                        let order: Vec<Index<'_>> = order.iter().filter_map(|&at| items.index(at)).collect();
                        catch_unwind(AssertUnwindSafe(|| {
                            gather(&items, &order).iter().map(|item| item.number).collect::<Vec<u32>>()
                        }))
                    });
                    drop(items);
                    let (returned, numbers) = match result {
                        Ok(numbers) => (true, numbers),
                        Err(_) => (false, Vec::new()),
                    };
                    (returned, numbers, tracked::ledger())
                })
                .collect()
        })
        .collect();

    tracked::start(None);
    let mut items: Vec<Tracked> = (0..LEN).map(|_| Tracked::new()).collect();
    with(&mut items, |mut items| {
        let first = items.index(0);
        let last = items.index(LEN - 1);
        if let (Some(first), Some(last)) = (first, last) {
            items.swap(first, first);
            items.swap(first, last);
            items.swap(last, last);
            let view = items.view();
            let copy = view.get(first).clone();
            *items.get_mut(last) = copy;
            let again = items.get(first).clone();
            let pushed = items.push(again);
            items.swap(pushed, pushed);
            items.swap(pushed, first);
        }
    });
    let numbers = items.iter().map(|item| item.number).collect();
    drop(items);
    Seen {
        gathers,
        swaps: (numbers, tracked::ledger()),
    }
}

/// Checks that every number made was dropped once, and no other.
#[track_caller]
fn assert_each_dropped_once(ledger: &Ledger, scenario: &str) {
    let mut created = ledger.created.clone();
    created.sort_unstable();
    let mut dropped = ledger.dropped.clone();
    dropped.sort_unstable();
    for pair in dropped.windows(2) {
        assert_ne!(pair[0], pair[1], "{scenario}: item {} was dropped twice", pair[0]);
    }
    for number in &dropped {
        assert!(
            created.binary_search(number).is_ok(),
            "{scenario}: something was dropped as an item that was never made (memory that was never written?)"
        );
    }
    for number in &created {
        assert!(dropped.binary_search(number).is_ok(), "{scenario}: item {number} was never dropped");
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let scenarios = scenarios(seed);
    assert_eq!(seen.gathers.len(), scenarios.len(), "one list of gathers per scenario");
    for ((len, order), gathers) in scenarios.iter().zip(&seen.gathers) {
        assert_eq!(gathers.len(), order.len() + 1, "one gather per call count");
        for (clones, (returned, numbers, ledger)) in gathers.iter().enumerate() {
            let scenario = if clones < order.len() {
                format!("gather of {} of {len} items ({order:?}) whose clone number {clones} panics", order.len())
            } else {
                format!("gather of {} of {len} items ({order:?}), no clone panicking", order.len())
            };
            assert_eq!(*returned, clones == order.len(), "{scenario}: the panic must reach the caller");
            if *returned {
                assert_eq!(numbers.len(), order.len(), "{scenario}: one item per index");
            }
            assert_eq!(
                ledger.created.len(),
                len + clones.min(order.len()),
                "{scenario}: gather must clone each item once, in order, and stop at the panic"
            );
            assert_each_dropped_once(ledger, &scenario);
        }
    }
    let (numbers, ledger) = &seen.swaps;
    // Items 0..LEN; item LEN is the clone written over the last one (which
    // was item 0 after the first swap), item LEN + 1 the one pushed.
    let expected = [LEN as u32 + 1, 1, 2, LEN as u32, 3];
    assert_eq!(
        numbers.as_slice(),
        expected.as_slice(),
        "after swaps of items with themselves and with others, a write through get_mut and a push, the items are not where a Vec puts them"
    );
    assert_each_dropped_once(ledger, "swaps, get_mut and push");
}
