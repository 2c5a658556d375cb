//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! Every address, port and payload a case uses is drawn from the judge's
//! seed ([`Draw`]), so the values change from run to run while every case
//! runs the same scenario. The observing program records what the learner's
//! code returned as plain data (addresses as text, ports as numbers,
//! datagrams as [`DatagramSeen`]); the judge checks that data against the
//! seed with its own reading of the invariants ([`is_unicast`],
//! [`is_multicast`]), never with the learner's. What an observation
//! records is raw (an address as `get()` gave it), so the judge can check
//! it; where the learner's code may panic on an input, the observation
//! records that too ([`Made`]).
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use std::net::Ipv6Addr;
use xsafe_case::{Rng, Seed};

/// The all-nodes group `ff02::1`, `MulticastAddr::ALL_NODES`.
pub const ALL_NODES: Ipv6Addr = Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1);

/// Whether `addr` is in the unicast class of the exercise: not `::`, not in
/// `ff00::/8`, not IPv4-mapped (`::ffff:0:0/96`). The judge's own reading
/// of the invariant, written apart from the learner's and the solution's.
pub fn is_unicast(addr: Ipv6Addr) -> bool {
    let bits = u128::from(addr);
    let mapped = bits >> 32 == 0xffff;
    bits != 0 && bits >> 120 != 0xff && !mapped
}

/// Whether `addr` is in `ff00::/8`.
pub fn is_multicast(addr: Ipv6Addr) -> bool {
    u128::from(addr) >> 120 == 0xff
}

/// The kinds of address the cases draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A global unicast address (`2000::/3`).
    Global,
    /// A unique local address (`fd00::/8`).
    UniqueLocal,
    /// A link-local address (`fe80::/64`).
    LinkLocal,
    /// Any address whose first octet is below `0xff`, anything after it.
    BelowMulticast,
    /// A multicast group (`ff00::/8`).
    Multicast,
    /// An IPv4-mapped address (`::ffff:a.b.c.d`).
    Mapped,
}

/// The addresses on the edges of every class, and the examples the chapter
/// names: `::`, `::1`, the ends of `::ffff:0:0/96` and their neighbours, a
/// mapped directed broadcast, the ends of `ff00::/8` and their neighbours.
pub fn edges() -> Vec<Ipv6Addr> {
    [
        "::",
        "::1",
        "::2",
        "::fffe:ffff:ffff",
        "::ffff:0.0.0.0",
        "::ffff:10.0.0.1",
        "::ffff:192.168.1.255",
        "::ffff:255.255.255.255",
        "::1:0:0:0",
        "2001:db8::1",
        "fd00::1",
        "fe80::1",
        "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "ff00::",
        "ff02::1",
        "ff02::fb",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ]
    .iter()
    .map(|text| text.parse().expect("a valid address"))
    .collect()
}

/// The edges, then `per_kind` addresses of each kind drawn from `seed`.
pub fn addresses_of_every_kind(seed: Seed, per_kind: usize) -> Vec<Ipv6Addr> {
    let mut draw = Draw::new(seed, 0xadd5);
    let mut addresses = edges();
    for kind in [
        Kind::Global,
        Kind::UniqueLocal,
        Kind::LinkLocal,
        Kind::BelowMulticast,
        Kind::Multicast,
        Kind::Mapped,
    ] {
        for _ in 0..per_kind {
            addresses.push(draw.addr(kind));
        }
    }
    addresses
}

/// Draws the inputs of a case from its seed. The observing program and
/// the judge make the same draws in the same order, so they see the same
/// values.
pub struct Draw(Rng);

impl Draw {
    /// The draws of `seed`; `stream` tells apart independent draws of one
    /// case.
    pub fn new(seed: Seed, stream: u64) -> Draw {
        Draw(Rng::with_seed(
            seed.0 ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        ))
    }

    /// An address of `kind`.
    pub fn addr(&mut self, kind: Kind) -> Ipv6Addr {
        let low = self.0.u128(..);
        let bits = match kind {
            Kind::Global => (0x2000_u128 | u128::from(self.0.u16(..0x2000))) << 112 | low >> 16,
            Kind::UniqueLocal => 0xfd_u128 << 120 | low >> 8,
            Kind::LinkLocal => 0xfe80_u128 << 112 | low >> 64,
            Kind::BelowMulticast => u128::from(self.0.u8(..0xff)) << 120 | low >> 8,
            Kind::Multicast => 0xff_u128 << 120 | low >> 8,
            Kind::Mapped => 0xffff_u128 << 32 | low >> 96,
        };
        Ipv6Addr::from(bits)
    }

    /// `count` distinct unicast addresses of one interface each.
    pub fn hosts(&mut self, count: usize) -> Vec<Ipv6Addr> {
        let mut hosts: Vec<Ipv6Addr> = Vec::new();
        while hosts.len() < count {
            let kind = [Kind::Global, Kind::UniqueLocal, Kind::LinkLocal][self.0.usize(..3)];
            let host = self.addr(kind);
            if is_unicast(host) && !hosts.contains(&host) {
                hosts.push(host);
            }
        }
        hosts
    }

    /// `count` distinct multicast groups other than `ff02::1`.
    pub fn groups(&mut self, count: usize) -> Vec<Ipv6Addr> {
        let mut groups: Vec<Ipv6Addr> = Vec::new();
        while groups.len() < count {
            let group = self.addr(Kind::Multicast);
            if !groups.contains(&group) && group != ALL_NODES {
                groups.push(group);
            }
        }
        groups
    }

    /// `count` distinct port numbers, none zero.
    pub fn ports(&mut self, count: usize) -> Vec<u16> {
        let mut ports: Vec<u16> = Vec::new();
        while ports.len() < count {
            let port = self.0.u16(1..);
            if !ports.contains(&port) {
                ports.push(port);
            }
        }
        ports
    }

    /// `count` distinct endpoints.
    pub fn endpoints(&mut self, count: usize) -> Vec<EndpointSeen> {
        let hosts = self.hosts(count);
        let ports = self.ports(count);
        hosts
            .into_iter()
            .zip(ports)
            .map(|(host, port)| (host.to_string(), port))
            .collect()
    }

    /// A payload of `len` random bytes.
    pub fn payload(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.0.u8(..)).collect()
    }

    /// A number in `range`.
    pub fn usize(&mut self, range: std::ops::RangeInclusive<usize>) -> usize {
        self.0.usize(range)
    }

    /// The generator itself, for draws this helper does not offer.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.0
    }
}

/// An endpoint as recorded: the address as text, and the port.
pub type EndpointSeen = (String, u16);

/// A datagram as the network recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatagramSeen {
    /// The sender's endpoint.
    pub from: EndpointSeen,
    /// The destination.
    pub to: EndpointSeen,
    /// What was sent.
    pub payload: Vec<u8>,
}

/// What one route (a constructor, a conversion, a write through `&mut`)
/// produced from one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Made {
    /// A value: what its `get()` gives back, as text.
    Value(String),
    /// It refused the input (`None`, `Err`).
    Refused,
    /// It panicked (the panic was caught).
    Panicked,
}

/// What the observing program found about one route of a type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteSeen {
    /// The route, as the surface writes an impl: `impl From<Ipv6Addr> for
    /// UnicastAddr`.
    pub route: String,
    /// Whether the learner's type has it; when not, `made` is empty.
    pub exists: bool,
    /// Each input, as text, with what the route made of it.
    pub made: Vec<(String, Made)>,
}

/// Checks every value each route made with `valid`, the judge's own
/// reading of the invariant of `what` (such as "UnicastAddr"), and returns
/// how many routes exist.
pub fn assert_routes_keep(routes: &[RouteSeen], what: &str, valid: impl Fn(&str) -> bool) -> usize {
    for route in routes {
        for (input, made) in &route.made {
            if let Made::Value(value) = made {
                assert!(
                    valid(value),
                    "`{}` made a {what} holding {value} (from {input}), which breaks its invariant: every way to make or change a {what} must check, or not exist",
                    route.route
                );
            }
        }
    }
    routes.iter().filter(|route| route.exists).count()
}

/// `endpoints`, sorted, to compare lists whose order does not matter.
pub fn sorted(endpoints: &[EndpointSeen]) -> Vec<EndpointSeen> {
    let mut endpoints = endpoints.to_vec();
    endpoints.sort();
    endpoints
}

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs: the learner's crate.
#[cfg(not(xsafe_judge))]
mod observe {
    use super::{DatagramSeen, EndpointSeen, Made, RouteSeen};
    use std::borrow::BorrowMut;
    use std::marker::PhantomData;
    use std::ops::{Add, AddAssign, DerefMut, Sub, SubAssign};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::str::FromStr;
    use witness_types::{Endpoint, MulticastAddr, Network, Port, UnicastAddr};

    /// The endpoint `(address, port)` as the learner's types; panics, with
    /// what was refused, if `new` refuses a valid address or port.
    pub fn endpoint((addr, port): &EndpointSeen) -> Endpoint {
        let parsed = addr.parse().expect("the case draws valid addresses");
        Endpoint {
            addr: UnicastAddr::new(parsed)
                .unwrap_or_else(|| panic!("UnicastAddr::new refused the unicast address {addr}")),
            port: Port::new(*port).unwrap_or_else(|| panic!("Port::new refused the port {port}")),
        }
    }

    /// The multicast group `addr`; panics if `MulticastAddr::new` refuses it.
    pub fn group(addr: std::net::Ipv6Addr) -> MulticastAddr {
        MulticastAddr::new(addr)
            .unwrap_or_else(|| panic!("MulticastAddr::new refused the group {addr}"))
    }

    /// An endpoint as recorded.
    pub fn seen(endpoint: Endpoint) -> EndpointSeen {
        (endpoint.addr.get().to_string(), endpoint.port.get())
    }

    /// Every datagram the network carried, as recorded.
    pub fn sent(net: &Network) -> Vec<DatagramSeen> {
        net.sent()
            .into_iter()
            .map(|datagram| DatagramSeen {
                from: seen(datagram.from),
                to: seen(datagram.to),
                payload: datagram.payload,
            })
            .collect()
    }

    /// The endpoints the network says are bound, as recorded.
    pub fn bound(net: &Network) -> Vec<EndpointSeen> {
        net.bound().into_iter().map(seen).collect()
    }

    /// Runs `work`, and tells a panic from a result.
    pub fn caught<R>(work: impl FnOnce() -> R) -> Result<R, ()> {
        catch_unwind(AssertUnwindSafe(work)).map_err(|_| ())
    }

    /// A route as recorded: `Value(read(value))`, `Refused` or `Panicked`.
    pub fn made<T>(result: Result<Option<T>, ()>, read: impl Fn(&T) -> String) -> Made {
        match result {
            Ok(Some(value)) => Made::Value(read(&value)),
            Ok(None) => Made::Refused,
            Err(()) => Made::Panicked,
        }
    }

    /// Records one route over `inputs`: `run` says `None` when the type has
    /// no such impl, or what the impl made of the input.
    pub fn route<I: Clone, T>(
        route: &str,
        inputs: &[I],
        show: impl Fn(&I) -> String,
        run: impl Fn(I) -> Option<Result<Option<T>, ()>>,
        read: impl Fn(&T) -> String,
    ) -> RouteSeen {
        let mut exists = false;
        let mut seen = Vec::new();
        for input in inputs {
            if let Some(result) = run(input.clone()) {
                exists = true;
                seen.push((show(input), made(result, &read)));
            }
        }
        RouteSeen {
            route: route.to_owned(),
            exists,
            made: seen,
        }
    }

    /// The autoref probes: `(&Probe::<T, S>::new()).method(...)` calls the
    /// `Via...` impl when `T` has the trait (the method is found on
    /// `Probe<T, S>` itself), and the `No...` fallback, which says `None`,
    /// when it has not (the method is then found on `&Probe<T, S>` only).
    /// Bring both traits of a pair into scope where they are called.
    pub struct Probe<T, S = ()>(PhantomData<fn() -> (T, S)>);

    impl<T, S> Probe<T, S> {
        /// The probe of `T` (and of its conversion from or write of `S`).
        pub fn new() -> Self {
            Probe(PhantomData)
        }
    }

    /// `T::default()`, if `T: Default`.
    pub trait ViaDefault<T> {
        /// What `T::default()` makes.
        fn made_by_default(&self) -> Option<Result<Option<T>, ()>>;
    }
    impl<T: Default> ViaDefault<T> for Probe<T> {
        fn made_by_default(&self) -> Option<Result<Option<T>, ()>> {
            Some(caught(|| Some(T::default())))
        }
    }
    /// The fallback of [`ViaDefault`].
    pub trait NoDefault<T> {
        /// `None`: no such impl.
        fn made_by_default(&self) -> Option<Result<Option<T>, ()>>;
    }
    impl<T> NoDefault<T> for &Probe<T> {
        fn made_by_default(&self) -> Option<Result<Option<T>, ()>> {
            None
        }
    }

    /// `T::from(input)`, if `T: From<S>`.
    pub trait ViaFrom<T, S> {
        /// What `T::from(input)` makes.
        fn made_from(&self, input: S) -> Option<Result<Option<T>, ()>>;
    }
    impl<T: From<S>, S> ViaFrom<T, S> for Probe<T, S> {
        fn made_from(&self, input: S) -> Option<Result<Option<T>, ()>> {
            Some(caught(|| Some(T::from(input))))
        }
    }
    /// The fallback of [`ViaFrom`].
    pub trait NoFrom<T, S> {
        /// `None`: no such impl.
        fn made_from(&self, input: S) -> Option<Result<Option<T>, ()>>;
    }
    impl<T, S> NoFrom<T, S> for &Probe<T, S> {
        fn made_from(&self, _: S) -> Option<Result<Option<T>, ()>> {
            None
        }
    }

    /// `T::try_from(input)`, if `T: TryFrom<S>`.
    pub trait ViaTryFrom<T, S> {
        /// What `T::try_from(input)` makes; `Err` is a refusal.
        fn made_by_try_from(&self, input: S) -> Option<Result<Option<T>, ()>>;
    }
    impl<T: TryFrom<S>, S> ViaTryFrom<T, S> for Probe<T, S> {
        fn made_by_try_from(&self, input: S) -> Option<Result<Option<T>, ()>> {
            Some(caught(|| T::try_from(input).ok()))
        }
    }
    /// The fallback of [`ViaTryFrom`].
    pub trait NoTryFrom<T, S> {
        /// `None`: no such impl.
        fn made_by_try_from(&self, input: S) -> Option<Result<Option<T>, ()>>;
    }
    impl<T, S> NoTryFrom<T, S> for &Probe<T, S> {
        fn made_by_try_from(&self, _: S) -> Option<Result<Option<T>, ()>> {
            None
        }
    }

    /// `text.parse::<T>()`, if `T: FromStr`.
    pub trait ViaFromStr<T> {
        /// What `T::from_str(text)` makes; `Err` is a refusal.
        fn made_by_parse(&self, text: String) -> Option<Result<Option<T>, ()>>;
    }
    impl<T: FromStr> ViaFromStr<T> for Probe<T> {
        fn made_by_parse(&self, text: String) -> Option<Result<Option<T>, ()>> {
            Some(caught(|| text.parse::<T>().ok()))
        }
    }
    /// The fallback of [`ViaFromStr`].
    pub trait NoFromStr<T> {
        /// `None`: no such impl.
        fn made_by_parse(&self, text: String) -> Option<Result<Option<T>, ()>>;
    }
    impl<T> NoFromStr<T> for &Probe<T> {
        fn made_by_parse(&self, _: String) -> Option<Result<Option<T>, ()>> {
            None
        }
    }

    /// A write of `with` through `T`'s `DerefMut<Target = S>`, `AsMut<S>`
    /// or `BorrowMut<S>`, or through `T += with`, `T -= with`, `T = T + with`
    /// or `T = T - with`: each returns `value` after the write.
    macro_rules! write_probe {
        ($via:ident, $no:ident, $method:ident, [$($bound:tt)+], |$value:ident, $with:ident| $write:expr) => {
            /// A write through the trait of the same name, if `T` has it.
            pub trait $via<T, S> {
                /// `value` after the write.
                fn $method(&self, value: T, with: S) -> Option<Result<Option<T>, ()>>;
            }
            impl<T, S> $via<T, S> for Probe<T, S>
            where
                T: $($bound)+,
            {
                fn $method(&self, value: T, with: S) -> Option<Result<Option<T>, ()>> {
                    let mut $value = value;
                    let $with = with;
                    Some(caught(move || {
                        $write;
                        Some($value)
                    }))
                }
            }
            /// The fallback of the probe of the same name.
            pub trait $no<T, S> {
                /// `None`: no such impl.
                fn $method(&self, value: T, with: S) -> Option<Result<Option<T>, ()>>;
            }
            impl<T, S> $no<T, S> for &Probe<T, S> {
                fn $method(&self, _: T, _: S) -> Option<Result<Option<T>, ()>> {
                    None
                }
            }
        };
    }

    write_probe!(
        ViaDerefMut,
        NoDerefMut,
        written_through_deref_mut,
        [DerefMut<Target = S>],
        |value, with| *value = with
    );
    write_probe!(
        ViaDerefMutToDefault,
        NoDerefMutToDefault,
        written_to_default_through_deref_mut,
        [DerefMut<Target: Default>],
        |value, with| {
            let _ = with;
            *value = Default::default()
        }
    );
    write_probe!(
        ViaAsMut,
        NoAsMut,
        written_through_as_mut,
        [AsMut<S>],
        |value, with| *<T as AsMut<S>>::as_mut(&mut value) = with
    );
    write_probe!(
        ViaBorrowMut,
        NoBorrowMut,
        written_through_borrow_mut,
        [BorrowMut<S>],
        |value, with| *<T as BorrowMut<S>>::borrow_mut(&mut value) = with
    );
    write_probe!(
        ViaAddAssign,
        NoAddAssign,
        after_add_assign,
        [AddAssign<S>],
        |value, with| value += with
    );
    write_probe!(
        ViaSubAssign,
        NoSubAssign,
        after_sub_assign,
        [SubAssign<S>],
        |value, with| value -= with
    );
    write_probe!(
        ViaAdd,
        NoAdd,
        after_add,
        [Add<S, Output = T>],
        |value, with| value = value + with
    );
    write_probe!(
        ViaSub,
        NoSub,
        after_sub,
        [Sub<S, Output = T>],
        |value, with| value = value - with
    );
}
