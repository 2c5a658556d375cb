//! A bank with three locks, in a declared order: the balances, then the
//! ledger of transfers, then the counters.
//!
//! A transfer holds the balances while it writes the ledger and the
//! counters, so anyone who takes the balances first sees the three agree.
//! Every method takes the locks it needs from the outermost in, level by
//! level; one that tried the other way round would not compile.

use crate::impl_lock_after;
use crate::mutex::{LockToken, OrderedMutex};
use crate::relation::LockBefore;

/// Level of the balances.
pub enum Accounts {}
/// Level of the ledger, the list of transfers made.
pub enum Ledger {}
/// Level of the counters.
pub enum Tally {}

impl_lock_after!(Unlocked => Accounts);
impl_lock_after!(Accounts => Ledger);
impl_lock_after!(Ledger => Tally);

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

/// Why a transfer was refused. A refused transfer changes no balance and
/// is not written to the ledger; it is counted in [`Counters::rejected`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferError {
    /// The bank has no account with this number.
    NoSuchAccount(usize),
    /// The paying account holds less than the amount.
    InsufficientFunds {
        /// The paying account.
        account: usize,
        /// Its balance.
        balance: u64,
    },
}

/// What the bank has counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    /// Transfers made (each one is in the ledger).
    pub transfers: u64,
    /// Transfers refused.
    pub rejected: u64,
    /// The sum of the amounts of the transfers made, stopping at
    /// `u64::MAX` (money can move back and forth forever, so the sum can
    /// pass what any account holds; a transfer never panics for it).
    pub moved: u64,
}

/// The balances, the ledger and the counters at one moment, read under all
/// three locks, so they agree with each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audit {
    /// The balance of every account.
    pub balances: Vec<u64>,
    /// Every transfer made, oldest first.
    pub ledger: Vec<Transfer>,
    /// The counters.
    pub counters: Counters,
}

/// A bank whose accounts, ledger and counters are behind three ordered
/// mutexes.
pub struct Bank {
    accounts: OrderedMutex<Accounts, Vec<u64>>,
    ledger: OrderedMutex<Ledger, Vec<Transfer>>,
    tally: OrderedMutex<Tally, Counters>,
}

impl Bank {
    /// A bank with one account per balance, numbered from 0.
    ///
    /// # Panics
    ///
    /// If the balances add up to more than `u64::MAX`. Transfers only move
    /// money, so then no balance can ever overflow: a transfer never panics
    /// halfway, with the payer debited and the payee not yet credited, and
    /// leaves no such books behind for the next holder of the lock.
    pub fn new(balances: Vec<u64>) -> Bank {
        let total = balances
            .iter()
            .try_fold(0_u64, |total, &balance| total.checked_add(balance));
        assert!(
            total.is_some(),
            "a bank's balances must add up to at most u64::MAX"
        );
        Bank {
            accounts: OrderedMutex::new(balances),
            ledger: OrderedMutex::new(Vec::new()),
            tally: OrderedMutex::new(Counters::default()),
        }
    }

    /// Moves money between two accounts, writes the transfer to the ledger
    /// and counts it, all under the balances' lock. A refused transfer is
    /// only counted.
    pub fn transfer<L>(
        &self,
        token: &mut LockToken<'_, L>,
        transfer: Transfer,
    ) -> Result<(), TransferError>
    where
        L: LockBefore<Accounts>,
    {
        let (mut balances, mut at_accounts) = self.accounts.lock(token);
        let outcome = apply(&mut balances, transfer);
        let (mut ledger, mut at_ledger) = self.ledger.lock(&mut at_accounts);
        let (mut tally, _) = self.tally.lock(&mut at_ledger);
        match outcome {
            Ok(()) => {
                ledger.push(transfer);
                tally.transfers += 1;
                tally.moved = tally.moved.saturating_add(transfer.amount);
            }
            Err(_) => tally.rejected += 1,
        }
        outcome
    }

    /// The balance of `account`, or `None` if there is no such account.
    pub fn balance<L>(&self, token: &mut LockToken<'_, L>, account: usize) -> Option<u64>
    where
        L: LockBefore<Accounts>,
    {
        let (balances, _) = self.accounts.lock(token);
        balances.get(account).copied()
    }

    /// The balances, the ledger and the counters, read under all three
    /// locks at once.
    pub fn audit<L>(&self, token: &mut LockToken<'_, L>) -> Audit
    where
        L: LockBefore<Accounts>,
    {
        let (balances, mut at_accounts) = self.accounts.lock(token);
        let (ledger, mut at_ledger) = self.ledger.lock(&mut at_accounts);
        let (tally, _) = self.tally.lock(&mut at_ledger);
        Audit {
            balances: balances.clone(),
            ledger: ledger.clone(),
            counters: *tally,
        }
    }
}

/// Checks and applies one transfer to the balances.
fn apply(balances: &mut [u64], transfer: Transfer) -> Result<(), TransferError> {
    let Transfer { from, to, amount } = transfer;
    for account in [from, to] {
        if account >= balances.len() {
            return Err(TransferError::NoSuchAccount(account));
        }
    }
    let balance = balances[from];
    if balance < amount {
        return Err(TransferError::InsufficientFunds {
            account: from,
            balance,
        });
    }
    balances[from] -= amount;
    balances[to] += amount;
    Ok(())
}
