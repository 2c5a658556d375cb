//! The branded handle checked against an independent model, a plain `Vec`
//! indexed by numbers: generated sequences of pushes, checked lookups,
//! reads, writes, swaps and gathers agree, and so does every position's
//! index.

use branded_indices::{gather, with};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Push(i64),
    Set(usize, i64),
    Swap(usize, usize),
    Gather(Vec<usize>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => any::<i64>().prop_map(Op::Push),
        2 => (0usize..200, any::<i64>()).prop_map(|(at, value)| Op::Set(at, value)),
        2 => (0usize..200, 0usize..200).prop_map(|(a, b)| Op::Swap(a, b)),
        1 => proptest::collection::vec(0usize..200, 0..40).prop_map(Op::Gather),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_handle_agrees_with_a_vector(
        start in proptest::collection::vec(any::<i64>(), 0..100),
        ops in proptest::collection::vec(op(), 0..200),
    ) {
        let mut model = start.clone();
        let mut items = start;
        with(&mut items, |mut items| -> Result<(), TestCaseError> {
            for op in ops {
                match op {
                    Op::Push(value) => {
                        let index = items.push(value);
                        model.push(value);
                        prop_assert_eq!(index.position(), model.len() - 1);
                    }
                    Op::Set(at, value) => {
                        prop_assert_eq!(items.index(at).is_some(), at < model.len());
                        if let Some(index) = items.index(at) {
                            *items.get_mut(index) = value;
                            model[at] = value;
                            prop_assert_eq!(*items.get(index), value);
                        }
                    }
                    Op::Swap(a, b) => {
                        if let (Some(i), Some(j)) = (items.index(a), items.index(b)) {
                            items.swap(i, j);
                            model.swap(a, b);
                        }
                    }
                    Op::Gather(positions) => {
                        let order: Vec<_> = positions.iter().filter_map(|&at| items.index(at)).collect();
                        let expected: Vec<i64> = positions
                            .iter()
                            .filter(|&&at| at < model.len())
                            .map(|&at| model[at])
                            .collect();
                        prop_assert_eq!(gather(&items, &order), expected);
                    }
                }
                prop_assert_eq!(items.len(), model.len());
            }
            let view = items.view();
            for at in 0..model.len() + 3 {
                prop_assert_eq!(items.index(at).map(|index| *view.get(index)), model.get(at).copied());
            }
            Ok(())
        })?;
        prop_assert_eq!(items, model);
    }
}
