//! Proves consumption: `spawn` moves the payload to a new thread and runs the
//! work there, and `join` brings the result back to the caller.
use crate::support::spawn_sendable;
use send_marker::Sendable;
use std::collections::HashSet;
use std::thread;

#[derive(Sendable)]
struct Order {
    id: u32,
    items: Vec<String>,
}

#[derive(Sendable)]
struct Receipt {
    id: u32,
    count: usize,
    worker: String,
}

fn current_thread() -> String {
    format!("{:?}", thread::current().id())
}

fn process(order: Order) -> Receipt {
    Receipt {
        id: order.id,
        count: order.items.len(),
        worker: current_thread(),
    }
}

fn square(n: u64) -> (u64, String) {
    (n * n, current_thread())
}

#[test]
fn the_result_comes_back_from_another_thread() {
    let order = Order {
        id: 7,
        items: vec![String::from("tea"), String::from("cake")],
    };
    let receipt = spawn_sendable!(order, process).join();
    assert_eq!(
        (receipt.id, receipt.count),
        (7, 2),
        "join must return the work's result"
    );
    assert_ne!(
        receipt.worker,
        current_thread(),
        "the work ran on the thread that called spawn, not on a new one"
    );
}

#[test]
fn each_job_runs_on_its_own_thread() {
    let handles: Vec<_> = (1..=6u64).map(|n| spawn_sendable!(n, square)).collect();
    let mut workers = HashSet::new();
    for (n, handle) in (1..=6u64).zip(handles) {
        let (squared, worker) = handle.join();
        assert_eq!(squared, n * n, "join must return the result of its own job");
        assert_ne!(worker, current_thread(), "a job ran on the calling thread");
        workers.insert(worker);
    }
    assert_eq!(workers.len(), 6, "six jobs must run on six threads");
}
