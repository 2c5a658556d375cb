//! Proves enforcement: every other way the crate offers to make or change a
//! `UnicastAddr` or a `MulticastAddr` checks too. Whenever the learner's
//! type has one of these std impls, the case feeds it addresses of every
//! kind (the edges, `::`, `ff02::1`, mapped IPv4 addresses such as
//! `::ffff:192.168.1.255`, random ones) and records what it made:
//! `Default`; `From` and `TryFrom` of `Ipv6Addr`, `[u8; 16]`, `[u16; 8]`,
//! `u128`, `IpAddr`, `Ipv4Addr`, `String` and `&str`; `FromStr`; and a write
//! of an invalid address through `DerefMut`, `AsMut` or `BorrowMut` to an
//! `Ipv6Addr`, or of the `Default` of whatever a `DerefMut` leads to. The judge checks every value made with its own reading of
//! the invariant: refusing or panicking is fine, an invalid witness is not.
//! Impls the case does not probe are the `public_surface` case's to name.
use crate::support::{RouteSeen, assert_routes_keep, is_multicast, is_unicast};
use serde::{Deserialize, Serialize};
use std::net::Ipv6Addr;
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    unicast: Vec<RouteSeen>,
    multicast: Vec<RouteSeen>,
}

#[cfg(not(xsafe_judge))]
mod observing {
    use crate::support::{
        NoAsMut, NoBorrowMut, NoDefault, NoDerefMut, NoDerefMutToDefault, NoFrom, NoFromStr,
        NoTryFrom, Probe, RouteSeen, ViaAsMut, ViaBorrowMut, ViaDefault, ViaDerefMut,
        ViaDerefMutToDefault, ViaFrom, ViaFromStr, ViaTryFrom, addresses_of_every_kind, caught,
        route,
    };
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    use witness_types::{MulticastAddr, UnicastAddr};
    use xsafe_case::Seed;

    /// IPv4 addresses a conversion might map to `::ffff:a.b.c.d`.
    fn ipv4_inputs() -> Vec<Ipv4Addr> {
        [
            "0.0.0.0",
            "10.0.0.1",
            "192.168.1.255",
            "224.0.0.1",
            "255.255.255.255",
        ]
        .iter()
        .map(|text| text.parse().expect("an address"))
        .collect()
    }

    /// Pushes onto `$routes` the `From` and `TryFrom` routes of `$t` from
    /// each source type, over its inputs.
    macro_rules! conversions {
        ($routes:ident, $t:ty, $read:ident; $($source:ty => $inputs:expr, $show:expr;)*) => {$(
            $routes.push(route(
                concat!("impl From<", stringify!($source), "> for ", stringify!($t)),
                &$inputs,
                $show,
                |input: $source| (&Probe::<$t, $source>::new()).made_from(input),
                $read,
            ));
            $routes.push(route(
                concat!("impl TryFrom<", stringify!($source), "> for ", stringify!($t)),
                &$inputs,
                $show,
                |input: $source| (&Probe::<$t, $source>::new()).made_by_try_from(input),
                $read,
            ));
        )*};
    }

    /// Every probed route of the witness `$t`; the writes go through the
    /// witness `$valid` (an `Option`), with the `$invalid` addresses.
    macro_rules! routes_of {
        ($t:ty, $seed:expr, $valid:expr, $invalid:expr) => {{
            let addrs: Vec<Ipv6Addr> = addresses_of_every_kind($seed, 2);
            let texts: Vec<String> = addrs.iter().map(ToString::to_string).collect();
            let read = |made: &$t| made.get().to_string();
            let text = |addr: &Ipv6Addr| addr.to_string();
            let invalid: Vec<Ipv6Addr> = $invalid;
            let mut routes = vec![route(
                concat!("impl Default for ", stringify!($t)),
                &[()],
                |_| "nothing".to_owned(),
                |()| (&Probe::<$t>::new()).made_by_default(),
                read,
            )];
            let leaked: Vec<&'static str> = texts
                .iter()
                .map(|text| &*Box::leak(text.clone().into_boxed_str()))
                .collect();
            conversions! { routes, $t, read;
                Ipv6Addr => addrs, text;
                [u8; 16] => addrs.iter().map(Ipv6Addr::octets).collect::<Vec<_>>(), |octets: &[u8; 16]| Ipv6Addr::from(*octets).to_string();
                [u16; 8] => addrs.iter().map(Ipv6Addr::segments).collect::<Vec<_>>(), |segments: &[u16; 8]| Ipv6Addr::from(*segments).to_string();
                u128 => addrs.iter().map(|addr| u128::from(*addr)).collect::<Vec<_>>(), |bits: &u128| Ipv6Addr::from(*bits).to_string();
                IpAddr => addrs.iter().map(|addr| IpAddr::V6(*addr)).collect::<Vec<_>>(), |addr: &IpAddr| addr.to_string();
                Ipv4Addr => ipv4_inputs(), |addr: &Ipv4Addr| addr.to_string();
                String => texts.clone(), |text: &String| format!("{text:?}");
                &'static str => leaked, |text: &&str| format!("{text:?}");
            }
            routes.push(route(
                concat!("impl FromStr for ", stringify!($t)),
                &texts,
                |text: &String| format!("{text:?}"),
                |text: String| (&Probe::<$t>::new()).made_by_parse(text),
                read,
            ));
            // A witness to write through; `None` when `new` does not work
            // yet (the starter's `todo!()`), and then nothing to write to.
            let valid: Option<$t> = caught(|| $valid).ok().flatten();
            routes.push(route(
                concat!("impl DerefMut for ", stringify!($t)),
                &invalid,
                text,
                |with| (&Probe::<$t, Ipv6Addr>::new()).written_through_deref_mut(valid?, with),
                read,
            ));
            routes.push(route(
                concat!("impl DerefMut for ", stringify!($t), " (to the Default of its Target)"),
                &[()],
                |_| "the Default of the Target".to_owned(),
                |()| (&Probe::<$t>::new()).written_to_default_through_deref_mut(valid?, ()),
                read,
            ));
            routes.push(route(
                concat!("impl AsMut<Ipv6Addr> for ", stringify!($t)),
                &invalid,
                text,
                |with| (&Probe::<$t, Ipv6Addr>::new()).written_through_as_mut(valid?, with),
                read,
            ));
            routes.push(route(
                concat!("impl BorrowMut<Ipv6Addr> for ", stringify!($t)),
                &invalid,
                text,
                |with| (&Probe::<$t, Ipv6Addr>::new()).written_through_borrow_mut(valid?, with),
                read,
            ));
            routes
        }};
    }

    pub fn unicast(seed: Seed) -> Vec<RouteSeen> {
        let invalid = ["::", "ff02::1", "::ffff:192.168.1.255"]
            .iter()
            .map(|text| text.parse().expect("an address"))
            .collect();
        routes_of!(
            UnicastAddr,
            seed,
            UnicastAddr::new(Ipv6Addr::LOCALHOST),
            invalid
        )
    }

    pub fn multicast(seed: Seed) -> Vec<RouteSeen> {
        let invalid = ["::", "::1", "fe80::1"]
            .iter()
            .map(|text| text.parse().expect("an address"))
            .collect();
        routes_of!(MulticastAddr, seed, Some(MulticastAddr::ALL_NODES), invalid)
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    Seen {
        unicast: observing::unicast(seed),
        multicast: observing::multicast(seed),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    let address = |text: &str| text.parse::<Ipv6Addr>().ok();
    assert_routes_keep(&seen.unicast, "UnicastAddr", |value| {
        address(value).is_some_and(is_unicast)
    });
    assert_routes_keep(&seen.multicast, "MulticastAddr", |value| {
        address(value).is_some_and(is_multicast)
    });
}
