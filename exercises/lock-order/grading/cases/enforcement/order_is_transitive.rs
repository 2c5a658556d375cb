//! Proves enforcement: the declared order is transitive, runs one way, and
//! orders only what the edges connect. With `Unlocked => A`, `A => B`,
//! `B => C` and `A => D` declared, a token at `A` may lock `C` and the root
//! token may lock every level, with no edge written for either; no level
//! may be locked under itself or under a later one; and `B` and `D`, on two
//! branches, may not be locked under each other. (`may_lock!` asks the
//! compiler whether `H: LockBefore<L>` holds and reads the answer at run
//! time, so this file compiles whatever the relation says.) The observing
//! program reports the answer for every pair of levels; the judge compares
//! it with the order the edges declare.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The levels of this case, and the one just before each (its parent in
/// the declared tree; `Unlocked` has none).
const LEVELS: [(&str, Option<&str>); 5] = [
    ("Unlocked", None),
    ("A", Some("Unlocked")),
    ("B", Some("A")),
    ("C", Some("B")),
    ("D", Some("A")),
];

/// `(held, wanted, whether a token at held may lock wanted)` for every pair.
#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    answers: Vec<(String, String, bool)>,
}

#[cfg(not(xsafe_judge))]
mod probe {
    use lock_order::{LockBefore, Unlocked, impl_lock_after};
    use std::marker::PhantomData;

    pub enum A {}
    pub enum B {}
    pub enum C {}
    pub enum D {}

    impl_lock_after!(Unlocked => A);
    impl_lock_after!(A => B);
    impl_lock_after!(B => C);
    impl_lock_after!(A => D);

    pub struct Probe<H, L>(pub PhantomData<(H, L)>);

    // Method lookup tries `Probe` itself before `&Probe`: `Allowed` answers
    // when its bound holds, `Refused` otherwise.
    pub trait Allowed {
        fn allowed(&self) -> bool {
            true
        }
    }
    impl<H: LockBefore<L>, L> Allowed for Probe<H, L> {}

    #[allow(dead_code)] // unused where every bound holds
    pub trait Refused {
        fn allowed(&self) -> bool {
            false
        }
    }
    impl<H, L> Refused for &Probe<H, L> {}

    /// Whether a token at level `$held` may lock a mutex at level `$wanted`.
    macro_rules! may_lock {
        ($held:ident, $wanted:ident) => {
            (&Probe::<$held, $wanted>(PhantomData)).allowed()
        };
    }

    /// The answer for every pair of levels.
    pub fn answers() -> Vec<(String, String, bool)> {
        let mut answers = Vec::new();
        macro_rules! row {
            ($held:ident: $($wanted:ident)*) => {
                $(answers.push((
                    stringify!($held).to_owned(),
                    stringify!($wanted).to_owned(),
                    may_lock!($held, $wanted),
                ));)*
            };
        }
        row!(Unlocked: Unlocked A B C D);
        row!(A: Unlocked A B C D);
        row!(B: Unlocked A B C D);
        row!(C: Unlocked A B C D);
        row!(D: Unlocked A B C D);
        answers
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    Seen {
        answers: probe::answers(),
    }
}

/// Whether `level` comes after `earlier` in the declared tree: `earlier` is
/// its parent, or its parent's parent, and so on.
fn comes_after(level: &str, earlier: &str) -> bool {
    let parent = |of: &str| {
        LEVELS
            .iter()
            .find(|(name, _)| *name == of)
            .and_then(|(_, parent)| *parent)
    };
    let mut next = parent(level);
    while let Some(ancestor) = next {
        if ancestor == earlier {
            return true;
        }
        next = parent(ancestor);
    }
    false
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_eq!(
        seen.answers.len(),
        LEVELS.len() * LEVELS.len(),
        "one answer per pair of levels"
    );
    for (held, wanted, allowed) in &seen.answers {
        let declared = comes_after(wanted, held);
        let why = if declared {
            format!(
                "`{wanted}` comes after `{held}` through the declared edges (Unlocked => A => B => C, A => D)"
            )
        } else if held == wanted {
            "no level comes after itself".to_owned()
        } else if comes_after(held, wanted) {
            format!("`{wanted}` comes before `{held}`: the order never runs backwards")
        } else {
            format!(
                "`{held}` and `{wanted}` are on two branches of the order, which no edge connects"
            )
        };
        assert_eq!(
            *allowed,
            declared,
            "a token at `{held}` {} lock `{wanted}`: {why}",
            if declared {
                "must be able to"
            } else {
                "must not"
            }
        );
    }
}
