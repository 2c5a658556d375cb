//! Proves consumption: a program that takes its locks in the declared order
//! compiles, and runs on several threads at once without deadlocking. A
//! small network stack: devices, then the socket table, then the counters;
//! senders take all three, an administrator the first two. One thread
//! first checks that it sees what it did; then senders and an administrator
//! run together, and the counters must agree with what the senders saw.
//! The number of devices, the port and device used, and the number of
//! packets each sender sends come from the judge's seed.
#![allow(clippy::unnecessary_mut_passed)] // the starter's `lock` takes `&LockToken`

use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const PORTS: usize = 8;
const SENDERS: usize = 4;
const ADMIN_ROUNDS: usize = 500;

/// The inputs drawn from the seed.
struct Inputs {
    devices: usize,
    port: usize,
    device: usize,
    packets: [u64; SENDERS],
}

fn inputs(seed: Seed) -> Inputs {
    let mut rng = seed.rng();
    let devices = rng.usize(2..=6);
    Inputs {
        devices,
        port: rng.usize(0..PORTS),
        device: rng.usize(0..devices),
        packets: std::array::from_fn(|_| rng.u64(1500..2500)),
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// One thread: `send` before `bind`, after it, after the link went
    /// down; then the counters.
    alone: [bool; 3],
    alone_counters: [u64; 2],
    /// Packets each sender saw delivered, and the counters at the end.
    delivered: Vec<u64>,
    counters: [u64; 2],
}

#[cfg(not(xsafe_judge))]
mod stack {
    use lock_order::{LockBefore, LockToken, OrderedMutex, impl_lock_after};

    pub enum Devices {}
    pub enum Sockets {}
    pub enum Counters {}

    impl_lock_after!(Unlocked => Devices);
    impl_lock_after!(Devices => Sockets);
    impl_lock_after!(Sockets => Counters);

    pub struct Stack {
        /// Whether each device's link is up.
        devices: OrderedMutex<Devices, Vec<bool>>,
        /// The device each port is bound to, if any.
        sockets: OrderedMutex<Sockets, [Option<usize>; super::PORTS]>,
        /// Packets delivered, packets dropped.
        counters: OrderedMutex<Counters, [u64; 2]>,
    }

    impl Stack {
        pub fn new(devices: usize) -> Stack {
            Stack {
                devices: OrderedMutex::new(vec![true; devices]),
                sockets: OrderedMutex::new([None; super::PORTS]),
                counters: OrderedMutex::new([0, 0]),
            }
        }

        /// Delivers a packet to `port` if it is bound to a device whose link
        /// is up, and counts it as delivered or dropped.
        pub fn send<L: LockBefore<Devices>>(
            &self,
            token: &mut LockToken<'_, L>,
            port: usize,
        ) -> bool {
            let (devices, mut at_devices) = self.devices.lock(token);
            let (sockets, mut at_sockets) = self.sockets.lock(&mut at_devices);
            let delivered = sockets[port].is_some_and(|device| devices[device]);
            let (mut counters, _) = self.counters.lock(&mut at_sockets);
            counters[usize::from(!delivered)] += 1;
            delivered
        }

        /// Binds `port` to `device` if the device exists.
        pub fn bind<L: LockBefore<Devices>>(
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
        pub fn set_link<L: LockBefore<Devices>>(
            &self,
            token: &mut LockToken<'_, L>,
            device: usize,
            up: bool,
        ) {
            let (mut devices, _) = self.devices.lock(token);
            devices[device] = up;
        }

        pub fn counters<L: LockBefore<Devices>>(&self, token: &mut LockToken<'_, L>) -> [u64; 2] {
            let (_devices, mut at_devices) = self.devices.lock(token);
            let (_sockets, mut at_sockets) = self.sockets.lock(&mut at_devices);
            let (counters, _) = self.counters.lock(&mut at_sockets);
            *counters
        }
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order::LockToken;
    use stack::Stack;
    use std::sync::Arc;
    use std::thread;

    let Inputs {
        devices,
        port,
        device,
        packets,
    } = inputs(seed);

    let stack = Stack::new(devices);
    let mut token = LockToken::new();
    let unbound = stack.send(&mut token, port);
    stack.bind(&mut token, port, device);
    let bound = stack.send(&mut token, port);
    stack.set_link(&mut token, device, false);
    let down = stack.send(&mut token, port);
    let alone_counters = stack.counters(&mut token);

    let stack = Arc::new(Stack::new(devices));
    let delivered = crate::support::within(5, {
        let stack = Arc::clone(&stack);
        move || {
            let admin = {
                let stack = Arc::clone(&stack);
                thread::spawn(move || {
                    let mut token = LockToken::new();
                    for round in 0..ADMIN_ROUNDS {
                        stack.bind(&mut token, round % PORTS, round % devices);
                        stack.set_link(&mut token, round % devices, round % 3 != 0);
                    }
                })
            };
            let senders: Vec<_> = (0..SENDERS)
                .map(|sender| {
                    let stack = Arc::clone(&stack);
                    let count = packets[sender];
                    thread::spawn(move || {
                        let mut token = LockToken::new();
                        (0..count)
                            .filter(|packet| {
                                stack.send(&mut token, (sender + *packet as usize) % PORTS)
                            })
                            .count() as u64
                    })
                })
                .collect();
            admin.join().expect("the administrator finished");
            senders
                .into_iter()
                .map(|sender| sender.join().expect("a sender finished"))
                .collect::<Vec<u64>>()
        }
    });
    let counters = stack.counters(&mut LockToken::new());
    Seen {
        alone: [unbound, bound, down],
        alone_counters,
        delivered,
        counters,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let Inputs {
        port,
        device,
        packets,
        ..
    } = inputs(seed);
    assert!(
        !seen.alone[0],
        "port {port} is not bound yet: the packet must be dropped"
    );
    assert!(
        seen.alone[1],
        "port {port} is bound to device {device}, whose link is up: the packet must be delivered"
    );
    assert!(
        !seen.alone[2],
        "device {device} is down: the packet must be dropped"
    );
    assert_eq!(
        seen.alone_counters,
        [1, 2],
        "one packet delivered, two dropped, as the thread saw"
    );

    assert_eq!(seen.delivered.len(), SENDERS, "one count per sender");
    let delivered: u64 = seen.delivered.iter().sum();
    for (sender, (&saw, &sent)) in seen.delivered.iter().zip(&packets).enumerate() {
        assert!(
            saw <= sent,
            "sender {sender} sent {sent} packets and saw {saw} delivered"
        );
    }
    let [counted_delivered, dropped] = seen.counters;
    assert_eq!(
        counted_delivered, delivered,
        "the counters must agree with what the senders saw delivered"
    );
    assert_eq!(
        counted_delivered + dropped,
        packets.iter().sum::<u64>(),
        "every packet is counted once"
    );
}
