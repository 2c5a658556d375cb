//! Proves consumption: transfers between the same two accounts, made in
//! both directions from several threads at once, all finish (no deadlock,
//! within a time limit), move money without making or losing any, and are
//! each in the history once, which a reader reads while they run.
use lock_order_fine_print::bank::{Bank, Transfer};
use lock_order_fine_print::with_token;
use std::sync::{Arc, Barrier};
use std::thread;

const START: u64 = 1_000_000;
const THREADS: usize = 4;
const TRANSFERS: usize = 100_000;

#[test]
fn opposite_transfers_do_not_deadlock() {
    let bank = Arc::new(Bank::new(vec![START, START]));
    crate::support::within(20, {
        let bank = Arc::clone(&bank);
        move || {
            let reader = {
                let bank = Arc::clone(&bank);
                thread::spawn(move || {
                    with_token(|token| {
                        let mut seen = 0;
                        for _ in 0..20 {
                            let history = bank.history(token);
                            assert!(history.len() >= seen, "the history only grows");
                            seen = history.len();
                        }
                    })
                })
            };
            // The workers start together, so that the two directions overlap.
            let start = Arc::new(Barrier::new(THREADS));
            let workers: Vec<_> = (0..THREADS)
                .map(|worker| {
                    let (bank, start) = (Arc::clone(&bank), Arc::clone(&start));
                    thread::spawn(move || {
                        start.wait();
                        with_token(|token| {
                            // Half the threads pay 0 => 1, half 1 => 0.
                            let (from, to) = if worker % 2 == 0 { (0, 1) } else { (1, 0) };
                            for i in 0..TRANSFERS {
                                let amount = (i % 7) as u64 + 1;
                                bank.transfer(token, Transfer { from, to, amount })
                                    .expect("the accounts hold enough");
                            }
                        })
                    })
                })
                .collect();
            for worker in workers {
                worker.join().expect("a worker finished");
            }
            reader.join().expect("the reader's checks held");
        }
    });
    with_token(|token| {
        let (a, b) = (
            bank.balance(token, 0).expect("account 0"),
            bank.balance(token, 1).expect("account 1"),
        );
        assert_eq!(a + b, 2 * START, "transfers neither make nor lose money");
        let history = bank.history(token);
        assert_eq!(history.len(), THREADS * TRANSFERS);
        let mut replayed = [START, START];
        for transfer in &history {
            replayed[transfer.from] -= transfer.amount;
            replayed[transfer.to] += transfer.amount;
        }
        assert_eq!(replayed, [a, b], "replaying the history gives the balances");
    });
}
