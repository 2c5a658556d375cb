//! Proves enforcement: the ordered read-write lock is one. A writer's
//! change is seen by the next reader and by `into_inner`; the token a read
//! returns locks the levels after the lock's, as a mutex's does; a second
//! reader gets the lock while a first one holds it; and a writer waits
//! while a reader holds it (the case sees it wait on the lock: see
//! `support`). The values come from the seed.
use crate::support::{Ended, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// What a read saw after a write pushed a value, then `into_inner`.
    written: (Vec<u64>, Vec<u64>),
    /// A tally locked with the token of a read, then its value.
    tally: u64,
    /// A second reader, while a first one holds the lock.
    second_reader: Ended<u64>,
    /// A writer, while a reader holds the lock; whether the case saw it
    /// sleep on the lock; what it wrote once the reader let go.
    writer_while_read: Ended<()>,
    writer_seen_waiting: bool,
    after_writer: Ended<u64>,
}

fn inputs(seed: Seed) -> Vec<u64> {
    values(seed, 0x4ead, 5, 1 << 30)
}

/// Every access to the locks' memory traps meanwhile, so a thread that
/// waits for one is seen waiting (see `support`).
#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    crate::support::trapped(|| observe_trapped(seed))
}

#[cfg(not(xsafe_judge))]
fn observe_trapped(seed: Seed) -> Seen {
    use crate::support::{PROMPT, SETTLE, in_arena, memory_of, watch};
    use lock_order_fine_print::{
        Lock, OrderedMutex, OrderedRwLock, ReadLock, WriteLock, impl_lock_after, with_token,
    };
    use std::sync::{Arc, mpsc};

    enum Rates {}
    enum Tally {}
    impl_lock_after!(Unlocked => Rates);
    impl_lock_after!(Rates => Tally);

    let v = inputs(seed);
    let rates = OrderedRwLock::<Rates, Vec<u64>>::new(vec![v[0]]);
    let read_back = with_token(|token| {
        {
            let (mut rates, _) = rates.write(token);
            rates.push(v[1]);
        }
        let (rates, _) = rates.read(token);
        rates.clone()
    });
    let written = (read_back, rates.into_inner());

    let rate = OrderedRwLock::<Rates, u64>::new(v[2]);
    let tally = OrderedMutex::<Tally, u64>::new(v[3]);
    with_token(|token| {
        let (rate, mut at_rates) = rate.read(token);
        let (mut count, _) = tally.lock(&mut at_rates);
        *count += *rate;
    });
    let tally = tally.into_inner();

    // A first reader holds the lock until told to let go.
    let shared = in_arena(OrderedRwLock::<Rates, u64>::new(v[4]));
    let memory = memory_of(&*shared);
    let (reading, first_reads) = mpsc::channel();
    let (let_go, told) = mpsc::channel::<()>();
    let first = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            with_token(|token| {
                let (_rate, _) = shared.read(token);
                let _ = reading.send(());
                let _ = told.recv();
            })
        })
    };
    let _ = first_reads.recv_timeout(PROMPT);
    let mut second = {
        let shared = Arc::clone(&shared);
        watch(move || with_token(|token| *shared.read(token).0))
    };
    let second_reader = second.ended_or_sleeping_on(&memory, PROMPT);
    let mut writer = {
        let shared = Arc::clone(&shared);
        watch(move || {
            with_token(|token| {
                let (mut rate, _) = shared.write(token);
                *rate += 1;
            })
        })
    };
    let writer_seen_waiting = writer.until_sleeping_on(&memory, PROMPT);
    let writer_while_read = if writer_seen_waiting {
        Ended::Waiting
    } else {
        writer.ended_within(if writer.visible() { PROMPT } else { SETTLE })
    };
    let _ = let_go.send(());
    let _ = first.join();
    let _ = second.ended_within(PROMPT);
    let _ = writer.ended_within(PROMPT);
    let after_writer = crate::support::caught(|| with_token(|token| *shared.read(token).0));
    Seen {
        written,
        tally,
        second_reader,
        writer_while_read,
        writer_seen_waiting,
        after_writer,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let v = inputs(seed);
    assert_eq!(
        seen.written,
        (vec![v[0], v[1]], vec![v[0], v[1]]),
        "a read after a write must see the write, and so must into_inner"
    );
    assert_eq!(
        seen.tally,
        v[3] + v[2],
        "the token a read returns must lock a level after the lock's"
    );
    assert_eq!(
        seen.second_reader,
        Ended::Returned(v[4]),
        "a second reader must get the lock while a first one holds it: readers share"
    );
    assert_eq!(
        seen.writer_while_read,
        Ended::Waiting,
        "a writer must wait while a reader holds the lock"
    );
    assert_eq!(
        seen.after_writer,
        Ended::Returned(v[4] + 1),
        "the waiting writer must write once the reader lets go"
    );
}
