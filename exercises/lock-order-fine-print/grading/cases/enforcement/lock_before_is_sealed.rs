//! Proves enforcement: `LockBefore`, the trait that bounds are written
//! with, is sealed. Code outside the crate cannot declare an edge by
//! implementing it by hand, with or without `unsafe`: here such an impl
//! would let a thread holding `Audit` lock `Ledger`, the reverse of the
//! declared order, with no cycle for `impl_lock_after!` to catch. The impl
//! must be refused because a bound of the trait (its private supertrait)
//! does not hold.
use lock_order_fine_print::{
    Lock, LockBefore, LockToken, OrderedMutex, Unlocked, impl_lock_after, with_token,
};

enum Ledger {}
enum Audit {}

impl_lock_after!(Unlocked => Ledger);
impl_lock_after!(Ledger => Audit);

impl LockBefore<Ledger> for Audit {} //~ ERROR E0277

static LEDGER: OrderedMutex<Ledger, u64> = OrderedMutex::new(100);
static AUDIT: OrderedMutex<Audit, u64> = OrderedMutex::new(0);

fn audit(token: &mut LockToken<'_, Unlocked>) {
    let (mut audit, mut at_audit) = AUDIT.lock(token);
    let (ledger, _) = LEDGER.lock(&mut at_audit);
    *audit += *ledger;
}

fn main() {
    with_token(audit);
}
