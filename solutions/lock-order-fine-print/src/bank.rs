//! A bank whose accounts each have their own mutex, all at one level, and
//! whose history of transfers is behind a reader-writer lock after them.
//!
//! A transfer locks its two accounts together, with
//! [`LockBoth::lock_both`], so two transfers between the same accounts in
//! opposite directions cannot deadlock; then, still holding both, it writes
//! the history. Reading the history takes only the read lock.

use crate::impl_lock_after;
use crate::mutex::{Lock, OrderedMutex};
use crate::pair::LockBoth;
use crate::relation::LockBefore;
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
        let Transfer { from, to, amount } = transfer;
        let paying = self
            .accounts
            .get(from)
            .ok_or(TransferError::NoSuchAccount(from))?;
        let paid = self
            .accounts
            .get(to)
            .ok_or(TransferError::NoSuchAccount(to))?;
        let (mut payer, mut payee, mut at_accounts) = paying
            .lock_both(paid, token)
            .map_err(|_| TransferError::SameAccount(from))?;
        if *payer < amount {
            return Err(TransferError::InsufficientFunds {
                account: from,
                balance: *payer,
            });
        }
        *payer -= amount;
        *payee += amount;
        let (mut history, _) = self.history.write(&mut at_accounts);
        history.push(transfer);
        Ok(())
    }

    /// The balance of `account`, or `None` if there is no such account.
    pub fn balance<L>(&self, token: &mut LockToken<'_, L>, account: usize) -> Option<u64>
    where
        L: LockBefore<Accounts>,
    {
        let (balance, _) = self.accounts.get(account)?.lock(token);
        Some(*balance)
    }

    /// The transfers made so far, oldest first, read under the read lock.
    pub fn history<L>(&self, token: &mut LockToken<'_, L>) -> Vec<Transfer>
    where
        L: LockBefore<History>,
    {
        let (history, _) = self.history.read(token);
        history.clone()
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
