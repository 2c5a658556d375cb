//! Proves enforcement: a token, at the root or at any level, is neither
//! `Send` nor `Sync`. The order is kept per thread: a token moved to (or
//! shared with) another thread would lock there as if that thread held
//! what this one holds, and this thread's locks would no longer be counted.
//! The compiler answers, for each of the four questions, without running
//! any of the crate's code.
use lock_order_fine_print::bank::History;
use lock_order_fine_print::{LockToken, Unlocked};

fn can_move_to_another_thread<T: Send>() {}
fn can_share_with_another_thread<T: Sync>() {}

fn main() {
    can_move_to_another_thread::<LockToken<'static, Unlocked>>(); //~ ERROR E0277
    can_share_with_another_thread::<LockToken<'static, Unlocked>>(); //~ ERROR E0277
    can_move_to_another_thread::<LockToken<'static, History>>(); //~ ERROR E0277
    can_share_with_another_thread::<LockToken<'static, History>>(); //~ ERROR E0277
}
