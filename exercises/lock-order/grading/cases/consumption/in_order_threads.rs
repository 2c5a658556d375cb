//! Proves consumption: a program that takes its locks in the declared order
//! compiles, and runs on several threads at once without deadlocking. A
//! small network stack: devices, then the socket table, then the counters;
//! senders take all three, an administrator the first two.
#![allow(clippy::unnecessary_mut_passed)] // the starter's `lock` takes `&LockToken`

use lock_order::{LockBefore, LockToken, OrderedMutex, impl_lock_after};
use std::sync::Arc;
use std::thread;

enum Devices {}
enum Sockets {}
enum Counters {}

impl_lock_after!(Unlocked => Devices);
impl_lock_after!(Devices => Sockets);
impl_lock_after!(Sockets => Counters);

const PORTS: usize = 8;

struct Stack {
    /// Whether each device's link is up.
    devices: OrderedMutex<Devices, Vec<bool>>,
    /// The device each port is bound to, if any.
    sockets: OrderedMutex<Sockets, [Option<usize>; PORTS]>,
    /// Packets delivered, packets dropped.
    counters: OrderedMutex<Counters, [u64; 2]>,
}

impl Stack {
    fn new(devices: usize) -> Stack {
        Stack {
            devices: OrderedMutex::new(vec![true; devices]),
            sockets: OrderedMutex::new([None; PORTS]),
            counters: OrderedMutex::new([0, 0]),
        }
    }

    /// Delivers a packet to `port` if it is bound to a device whose link is
    /// up, and counts it as delivered or dropped.
    fn send<L: LockBefore<Devices>>(&self, token: &mut LockToken<'_, L>, port: usize) -> bool {
        let (devices, mut at_devices) = self.devices.lock(token);
        let (sockets, mut at_sockets) = self.sockets.lock(&mut at_devices);
        let delivered = sockets[port].is_some_and(|device| devices[device]);
        let (mut counters, _) = self.counters.lock(&mut at_sockets);
        counters[usize::from(!delivered)] += 1;
        delivered
    }

    /// Binds `port` to `device` if the device exists.
    fn bind<L: LockBefore<Devices>>(
        &self,
        token: &mut LockToken<'_, L>,
        port: usize,
        device: usize,
    ) {
        let (devices, mut at_devices) = self.devices.lock(token);
        let (mut sockets, _) = self.sockets.lock(&mut at_devices);
        if device < devices.len() {
            sockets[port] = Some(device);
        }
    }

    /// Sets a device's link up or down.
    fn set_link<L: LockBefore<Devices>>(
        &self,
        token: &mut LockToken<'_, L>,
        device: usize,
        up: bool,
    ) {
        let (mut devices, _) = self.devices.lock(token);
        devices[device] = up;
    }

    fn counters<L: LockBefore<Devices>>(&self, token: &mut LockToken<'_, L>) -> [u64; 2] {
        let (_devices, mut at_devices) = self.devices.lock(token);
        let (_sockets, mut at_sockets) = self.sockets.lock(&mut at_devices);
        let (counters, _) = self.counters.lock(&mut at_sockets);
        *counters
    }
}

#[test]
fn one_thread_sees_what_it_did() {
    let stack = Stack::new(2);
    let mut token = LockToken::new();
    assert!(!stack.send(&mut token, 3), "port 3 is not bound yet");
    stack.bind(&mut token, 3, 1);
    assert!(stack.send(&mut token, 3));
    stack.set_link(&mut token, 1, false);
    assert!(!stack.send(&mut token, 3), "device 1 is down");
    assert_eq!(stack.counters(&mut token), [1, 2]);
}

#[test]
fn senders_and_an_administrator_run_together() {
    const SENDERS: u64 = 4;
    const PACKETS: u64 = 2000;
    let stack = Arc::new(Stack::new(4));
    let delivered = crate::support::within(60, {
        let stack = Arc::clone(&stack);
        move || {
            let admin = {
                let stack = Arc::clone(&stack);
                thread::spawn(move || {
                    let mut token = LockToken::new();
                    for round in 0..500 {
                        stack.bind(&mut token, round % PORTS, round % 4);
                        stack.set_link(&mut token, round % 4, round % 3 != 0);
                    }
                })
            };
            let senders: Vec<_> = (0..SENDERS)
                .map(|sender| {
                    let stack = Arc::clone(&stack);
                    thread::spawn(move || {
                        let mut token = LockToken::new();
                        (0..PACKETS)
                            .filter(|packet| {
                                stack.send(&mut token, ((sender + packet) % 8) as usize)
                            })
                            .count() as u64
                    })
                })
                .collect();
            admin.join().expect("the administrator finished");
            senders
                .into_iter()
                .map(|sender| sender.join().expect("a sender finished"))
                .sum::<u64>()
        }
    });
    let [counted_delivered, dropped] = stack.counters(&mut LockToken::new());
    assert_eq!(
        counted_delivered, delivered,
        "the counters must agree with what the senders saw"
    );
    assert_eq!(
        counted_delivered + dropped,
        SENDERS * PACKETS,
        "every packet is counted once"
    );
}
