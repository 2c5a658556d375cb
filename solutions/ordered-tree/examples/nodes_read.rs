//! How many nodes of a balanced set each promised operation reads, counted
//! by the memory hardware (see `xsafe_case::pages`): the numbers behind
//! the measurements appendix, and behind the grading case
//! `consumption/reads_one_path`, which accepts at most `6 * levels + 8`.
//!
//! ```console
//! cargo run -p ordered-tree-solution --example nodes_read
//! ```
use ordered_tree::{NonEmptySet, OrderedSet};
use std::ops::Bound;
use xsafe_case::pages::{paged, touched};

#[global_allocator]
static ALLOCATOR: xsafe_case::pages::Paged = xsafe_case::pages::Paged;

/// The keys `0..2^levels - 1` in an order that builds a perfectly balanced
/// tree: each midpoint before the halves around it.
fn balanced(levels: u32) -> Vec<u32> {
    let mut order = Vec::new();
    let mut ranges = vec![(0u32, (1u32 << levels) - 1)];
    while !ranges.is_empty() {
        let mut next = Vec::new();
        for (start, end) in ranges {
            if start < end {
                let mid = start + (end - start) / 2;
                order.push(mid);
                next.push((start, mid));
                next.push((mid + 1, end));
            }
        }
        ranges = next;
    }
    order
}

fn main() {
    let levels = [10u32, 13];
    let mut rows: Vec<(&str, Vec<String>)> = Vec::new();
    for &size in &levels {
        // Even keys are held, odd ones are missing; `middle` is the root's
        // left child, with two children, as in the grading case.
        let held: Vec<u32> = balanced(size).into_iter().map(|key| key * 2).collect();
        let middle = ((1u32 << (size - 2)) - 1) * 2;
        let missing = middle + 1;
        let mut set: OrderedSet<u32> = paged(|| held.iter().copied().collect());
        let non_empty: NonEmptySet<u32> = paged(|| {
            let mut set = NonEmptySet::new(held[0]);
            for &key in &held[1..] {
                set.insert(key);
            }
            set
        });
        let operations: [(&str, &dyn Fn() -> Option<u32>); 13] = [
            ("first()", &|| set.first().copied()),
            ("last()", &|| set.last().copied()),
            ("contains() of a held key", &|| {
                Some(u32::from(set.contains(&middle)))
            }),
            ("contains() of a missing key", &|| {
                Some(u32::from(set.contains(&missing)))
            }),
            ("get()", &|| set.get(&middle).copied()),
            ("range(k..).next()", &|| set.range(middle..).next().copied()),
            ("range((Excluded(k), Unbounded)).next()", &|| {
                set.range((Bound::Excluded(middle), Bound::Unbounded))
                    .next()
                    .copied()
            }),
            ("range(..=k).next()", &|| {
                set.range(..=middle).next().copied()
            }),
            ("iter().next()", &|| set.iter().next().copied()),
            ("NonEmptySet::min()", &|| Some(*non_empty.min())),
            ("NonEmptySet::max()", &|| Some(*non_empty.max())),
            ("NonEmptySet::contains() of a held key", &|| {
                Some(u32::from(non_empty.contains(&middle)))
            }),
            ("NonEmptySet::contains() of a missing key", &|| {
                Some(u32::from(non_empty.contains(&missing)))
            }),
        ];
        let mut counted: Vec<(&str, xsafe_case::pages::Touched)> = operations
            .iter()
            .map(|(name, operation)| (*name, touched(operation).1))
            .collect();
        counted.push((
            "insert() of a missing key",
            touched(|| set.insert(missing)).1,
        ));
        counted.push((
            "remove() of a key with two children",
            touched(|| set.remove(&middle)).1,
        ));
        for (at, (name, read)) in counted.into_iter().enumerate() {
            let shown = if read.whole {
                read.pages.to_string()
            } else {
                "not counted".to_owned()
            };
            if rows.len() <= at {
                rows.push((name, Vec::new()));
            }
            rows[at].1.push(shown);
        }
    }
    println!("| operation | 1,023 keys (10 levels) | 8,191 keys (13 levels) |");
    println!("| --- | ---: | ---: |");
    for (name, counts) in rows {
        println!("| `{name}` | {} | {} |", counts[0], counts[1]);
    }
    println!(
        "| limit of `reads_one_path` | {} | {} |",
        6 * levels[0] + 8,
        6 * levels[1] + 8
    );
}
