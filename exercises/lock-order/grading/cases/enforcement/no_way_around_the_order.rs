//! Proves enforcement: the std traits that would reach around `lock` do not
//! exist. Outside code cannot get at the `std` mutex inside an
//! `OrderedMutex` (through `Deref`, `DerefMut`, `AsRef`, `AsMut`, `Borrow`
//! or `BorrowMut`), which it could then lock in any order, and cannot make
//! a token at a level of its choosing (through `Default`, `From`/`Into`, or
//! a `new` that works at any level), which would lock the levels after it
//! while this thread holds later ones. Each line is one such route: it must
//! not compile.
#![allow(unused_imports)]

use lock_order::{LockToken, OrderedMutex, impl_lock_after};
use std::borrow::{Borrow, BorrowMut};
use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

enum Config {}
enum Accounts {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);

/// The `std` mutex inside, shared or unique.
fn inner_mutex(mut accounts: OrderedMutex<Accounts, Vec<u64>>) {
    let _: &Mutex<u64> = &CONFIG; //~ ERROR E0308
    let _: &Mutex<u64> = CONFIG.deref(); //~ ERROR E0599|E0308
    let _: &Mutex<u64> = CONFIG.as_ref(); //~ ERROR E0599|E0277|E0283|E0308
    let _: &Mutex<u64> = CONFIG.borrow(); //~ ERROR E0308|E0277
    let _: &mut Mutex<Vec<u64>> = accounts.deref_mut(); //~ ERROR E0599|E0308
    let _: &mut Mutex<Vec<u64>> = accounts.as_mut(); //~ ERROR E0599|E0277|E0283|E0308
    let _: &mut Mutex<Vec<u64>> = accounts.borrow_mut(); //~ ERROR E0308|E0277
}

/// A token at `Accounts` that no lock of `Accounts` handed out.
fn forged_tokens() {
    let _: LockToken<'static, Accounts> = Default::default(); //~ ERROR E0277
    let _: LockToken<'static, Accounts> = LockToken::new(); //~ ERROR E0308
    let _ = LockToken::<'static, Accounts>::new(); //~ ERROR E0599
    let _: LockToken<'static, Accounts> = From::from(LockToken::new()); //~ ERROR E0277
    let _: LockToken<'static, Accounts> = LockToken::new().into(); //~ ERROR E0277
}

fn main() {
    inner_mutex(OrderedMutex::new(Vec::new()));
    forged_tokens();
}
