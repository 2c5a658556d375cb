//! Proves enforcement: `with_token` lends each thread one root token at a
//! time, and what a caught panic leaves behind keeps it so. A call inside
//! another on the same thread panics instead of lending a second root
//! token, and so does the next one after that panic was caught (the panic
//! of a refused call must not free the outer call's token). The thread gets
//! its token back once the outer call returns, even if its closure
//! panicked; and every thread has a token of its own. The values the
//! closures return come from the seed.
use crate::support::{Ended, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `with_token` inside `with_token`, twice in one outer call; then what
    /// the outer call returned.
    nested: Ended<(Ended<u64>, Ended<u64>, u64)>,
    /// A call after the nested ones.
    after_nested: Ended<u64>,
    /// A call whose closure panics.
    closure_panics: Ended<u64>,
    /// The two calls after it.
    after_panic: (Ended<u64>, Ended<u64>),
    /// A call on another thread while this one holds its token.
    other_thread: Ended<Ended<u64>>,
}

fn returned(seed: Seed) -> Vec<u64> {
    values(seed, 0x70ce, 7, 1 << 40)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::caught;
    use lock_order_fine_print::with_token;

    let v = returned(seed);
    let nested = caught(|| {
        with_token(|_outer| {
            let first = caught(|| with_token(|_inner| v[0]));
            let second = caught(|| with_token(|_inner| v[1]));
            (first, second, v[2])
        })
    });
    let after_nested = caught(|| with_token(|_token| v[3]));
    let closure_panics = caught(|| with_token(|_token| -> u64 { panic!("the closure fails") }));
    let after_panic = (
        caught(|| with_token(|_token| v[4])),
        caught(|| with_token(|_token| v[5])),
    );
    let on_other_thread = v[6];
    let other_thread = caught(|| {
        with_token(|_token| {
            std::thread::spawn(move || caught(|| with_token(|_token| on_other_thread)))
                .join()
                .unwrap_or_else(|_| Ended::Panicked("the other thread died".to_owned()))
        })
    });
    Seen {
        nested,
        after_nested,
        closure_panics,
        after_panic,
        other_thread,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let v = returned(seed);
    match seen.nested {
        Ended::Returned((first, second, outer)) => {
            assert!(
                matches!(first, Ended::Panicked(_)),
                "with_token inside with_token must panic, not lend a second root token (got {first:?})"
            );
            assert!(
                matches!(second, Ended::Panicked(_)),
                "a second nested with_token, after the first one's panic was caught, must panic too: the refused call must not give the thread its token back while the outer call still has it lent (got {second:?})"
            );
            assert_eq!(
                outer, v[2],
                "the outer call returns what its closure returns"
            );
        }
        other => panic!(
            "a with_token whose closure catches the panics of nested calls must return normally (got {other:?})"
        ),
    }
    assert_eq!(
        seen.after_nested,
        Ended::Returned(v[3]),
        "once the outer call has returned, the thread gets its token again"
    );
    assert!(
        matches!(seen.closure_panics, Ended::Panicked(_)),
        "a panic in the closure goes through with_token (got {:?})",
        seen.closure_panics
    );
    assert_eq!(
        seen.after_panic,
        (Ended::Returned(v[4]), Ended::Returned(v[5])),
        "after a closure panicked, the thread gets its token back, once and again: the token must be returned when the closure unwinds too"
    );
    assert_eq!(
        seen.other_thread,
        Ended::Returned(Ended::Returned(v[6])),
        "every thread has a root token of its own: another thread's with_token must work while this one has its token lent"
    );
}
