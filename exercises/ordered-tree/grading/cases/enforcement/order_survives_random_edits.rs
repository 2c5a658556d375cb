//! Proves enforcement: under any sequence of inserts and removes (a property
//! test with proptest, checked against std's `BTreeSet`), the tree stays
//! ordered and holds exactly the keys it should.
use ordered_tree::OrderedSet;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::BTreeSet;

#[test]
fn random_inserts_and_removes_keep_the_order() {
    let mut runner = TestRunner::new(Config {
        cases: 200,
        failure_persistence: None,
        ..Config::default()
    });
    let edits = proptest::collection::vec((any::<bool>(), 0u8..64), 0..200);
    let result = runner.run(&edits, |edits| {
        let mut set = OrderedSet::new();
        let mut model = BTreeSet::new();
        for (is_insert, key) in edits {
            if is_insert {
                prop_assert_eq!(set.insert(key), model.insert(key), "insert({})", key);
            } else {
                prop_assert_eq!(set.remove(&key), model.take(&key), "remove({})", key);
            }
            crate::support::assert_ordered(&set);
        }
        let keys: Vec<u8> = set.iter().copied().collect();
        let expected: Vec<u8> = model.into_iter().collect();
        prop_assert_eq!(keys, expected);
        Ok(())
    });
    if let Err(failure) = result {
        panic!("the tree broke under random edits: {failure}");
    }
}
