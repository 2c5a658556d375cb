//! A bank whose accounts each have their own mutex, all at one level, and
//! whose history of transfers is behind a reader-writer lock after them.
//!
//! A transfer locks its two accounts together, with
//! [`LockBoth::lock_both`], so two transfers between the same accounts in
//! opposite directions cannot deadlock; then, still holding both, it writes
//! the history. Reading the history takes only the read lock.

use crate::impl_lock_after;
#[allow(unused_imports)] // TODO(consumption): your methods will use them all.
use crate::mutex::{Lock, OrderedMutex};
#[allow(unused_imports)]
use crate::pair::LockBoth;
use crate::relation::LockBefore;
#[allow(unused_imports)]
use crate::rwlock::{OrderedRwLock, ReadLock, WriteLock};
use crate::token::LockToken;

/// Level of every account.
pub enum Accounts {}
/// Level of the history of transfers.
pub enum History {}

impl_lock_after!(Unlocked => Accounts);
impl_lock_after!(Accounts => History);

/// A request to move `amount` from account `from` to account `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    /// The account that pays.
    pub from: usize,
    /// The account that is paid.
    pub to: usize,
    /// How much moves.
    pub amount: u64,
}

/// Why a transfer was refused. A refused transfer changes no balance and is
/// not written to the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferError {
    /// The bank has no account with this number.
    NoSuchAccount(usize),
    /// The paying account is the account paid.
    SameAccount(usize),
    /// The paying account holds less than the amount.
    InsufficientFunds {
        /// The paying account.
        account: usize,
        /// Its balance.
        balance: u64,
    },
}

/// Accounts, one mutex each, and the history of the transfers made.
// TODO(consumption): remove this `allow` once your methods read the fields.
#[allow(dead_code)]
pub struct Bank {
    accounts: Vec<OrderedMutex<Accounts, u64>>,
    history: OrderedRwLock<History, Vec<Transfer>>,
}

impl Bank {
    /// A bank with one account per balance, numbered from 0.
    ///
    /// # Panics
    ///
    /// If the balances add up to more than `u64::MAX`: no transfer could
    /// then credit an account without overflowing it.
    pub fn new(balances: Vec<u64>) -> Bank {
        assert!(
            balances
                .iter()
                .try_fold(0u64, |total, balance| total.checked_add(*balance))
                .is_some(),
            "a bank's balances must add up to at most u64::MAX"
        );
        Bank {
            accounts: balances.into_iter().map(OrderedMutex::new).collect(),
            history: OrderedRwLock::new(Vec::new()),
        }
    }

    /// Moves money between two accounts and, holding both, writes the
    /// transfer to the history. Checks the paying account, then the account
    /// paid, then that they differ, then the balance.
    pub fn transfer<L>(
        &self,
        token: &mut LockToken<'_, L>,
        transfer: Transfer,
    ) -> Result<(), TransferError>
    where
        L: LockBefore<Accounts>,
    {
        // TODO(consumption): check both accounts (`NoSuchAccount`, the paying
        // one first), lock them together with `lock_both` (the same account
        // twice is `SameAccount`), check the balance, move the money, and,
        // still holding both, push the transfer to the history.
        let _ = (token, transfer);
        todo!("Bank::transfer")
    }

    /// The balance of `account`, or `None` if there is no such account.
    pub fn balance<L>(&self, token: &mut LockToken<'_, L>, account: usize) -> Option<u64>
    where
        L: LockBefore<Accounts>,
    {
        // TODO(consumption): one lock is enough.
        let _ = (token, account);
        todo!("Bank::balance")
    }

    /// The transfers made so far, oldest first, read under the read lock.
    pub fn history<L>(&self, token: &mut LockToken<'_, L>) -> Vec<Transfer>
    where
        L: LockBefore<History>,
    {
        // TODO(consumption): a read lock is enough.
        let _ = token;
        todo!("Bank::history")
    }

    /// How many accounts the bank has.
    pub fn len(&self) -> usize {
        self.accounts.len()
    }

    /// Whether the bank has no account.
    pub fn is_empty(&self) -> bool {
        self.accounts.is_empty()
    }
}
