//! Proves enforcement: no trait makes an index, or a second handle, without
//! the bounds check. A `Default` index would be position 0 of a vector that
//! may be empty; a `From<usize>` index is any number at all; a clone of the
//! handle would be a second handle with the same brand. (An index may be
//! `Clone` and `Copy`: a copy of a checked index is still checked.)
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    index_default: bool,
    index_from_usize: bool,
    handle_default: bool,
    handle_clone: bool,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    #[allow(unused_imports)]
    use crate::support::{
        HasClone, HasDefault, HasFromUsize, LacksClone, LacksDefault, LacksFromUsize, Probe,
    };
    use branded_indices::{Branded, Index};

    // The probes need concrete types; the brand's lifetime does not change
    // which impls exist.
    Seen {
        index_default: (&Probe::<Index<'static>>::of()).has_default(),
        index_from_usize: (&Probe::<Index<'static>>::of()).has_from_usize(),
        handle_default: (&Probe::<Branded<'static, u32>>::of()).has_default(),
        handle_clone: (&Probe::<Branded<'static, u32>>::of()).has_clone(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert!(!seen.index_default, "Index must not have Default: it would make an index that skipped the check");
    assert!(!seen.index_from_usize, "Index must not have From<usize>: it would make an index that skipped the check");
    assert!(!seen.handle_default, "Branded must not have Default: a handle is made only by `with`");
    assert!(!seen.handle_clone, "Branded must not be Clone: two handles with one brand");
}
