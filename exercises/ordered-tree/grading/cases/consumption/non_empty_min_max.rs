//! Proves consumption: a `NonEmptySet` relies on being non-empty, so `min`
//! and `max` return `&T` directly; converting a set checks once, gives an
//! empty set back unchanged, and round-trips without losing keys.
use ordered_tree::{NonEmptySet, OrderedSet};

#[test]
fn non_empty_set_min_and_max_need_no_option() {
    let mut set = NonEmptySet::new(40);
    assert_eq!((*set.min(), *set.max()), (40, 40));
    for key in [10, 70, 25, 90, 5] {
        assert!(set.insert(key));
    }
    assert!(!set.insert(25), "inserting a key that is present must return false");
    let smallest: &i32 = set.min();
    let largest: &i32 = set.max();
    assert_eq!((*smallest, *largest), (5, 90));
    assert_eq!(set.len().get(), 6);
    assert!(set.contains(&70) && !set.contains(&71));
    assert_eq!(set.iter().copied().collect::<Vec<_>>(), [5, 10, 25, 40, 70, 90]);

    let back: OrderedSet<i32> = set.into_set();
    crate::support::assert_ordered(&back);
    assert_eq!(back.len(), 6);

    let again = back.into_non_empty().expect("a set with keys converts");
    assert_eq!(*again.min(), 5);

    let empty: OrderedSet<i32> = OrderedSet::new();
    match empty.into_non_empty() {
        Ok(_) => panic!("an empty set must not convert into a NonEmptySet"),
        Err(empty) => assert!(empty.is_empty(), "the empty set comes back unchanged"),
    }
}
