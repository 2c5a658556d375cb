//! Proves enforcement: a token is neither `Send` nor `Sync`. The order is
//! kept per thread; a token moved to another thread would lock there as if
//! that thread held what this one holds, and this thread's locks would no
//! longer be counted. (The probe asks the compiler and reads the answer at
//! run time, so this file compiles whatever the token is.)
use lock_order_fine_print::bank::Accounts;
use lock_order_fine_print::{LockToken, Unlocked};
use std::marker::PhantomData;

struct Probe<T: ?Sized>(PhantomData<T>);

// Method lookup tries `Probe` itself before `&Probe`: the first trait
// answers when its bound holds, the second otherwise.
trait IsSend {
    fn is_send(&self) -> bool {
        true
    }
}
impl<T: ?Sized + Send> IsSend for Probe<T> {}
#[allow(dead_code)]
trait NotSend {
    fn is_send(&self) -> bool {
        false
    }
}
impl<T: ?Sized> NotSend for &Probe<T> {}

trait IsSync {
    fn is_sync(&self) -> bool {
        true
    }
}
impl<T: ?Sized + Sync> IsSync for Probe<T> {}
#[allow(dead_code)]
trait NotSync {
    fn is_sync(&self) -> bool {
        false
    }
}
impl<T: ?Sized> NotSync for &Probe<T> {}

/// Whether `$t` is `Send`.
macro_rules! is_send {
    ($t:ty) => {
        (&Probe::<$t>(PhantomData)).is_send()
    };
}

/// Whether `$t` is `Sync`.
macro_rules! is_sync {
    ($t:ty) => {
        (&Probe::<$t>(PhantomData)).is_sync()
    };
}

#[test]
fn a_token_cannot_be_sent() {
    assert!(!is_send!(LockToken<'static, Unlocked>));
    assert!(!is_send!(LockToken<'static, Accounts>));
}

#[test]
fn a_token_cannot_be_shared() {
    assert!(!is_sync!(LockToken<'static, Unlocked>));
}

#[test]
fn the_probe_sees_send_and_sync_types() {
    assert!(is_send!(u64));
    assert!(!is_send!(std::rc::Rc<u64>));
    assert!(is_sync!(u64));
    assert!(!is_sync!(std::cell::Cell<u64>));
}
