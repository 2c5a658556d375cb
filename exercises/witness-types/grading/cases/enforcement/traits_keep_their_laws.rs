//! Proves enforcement: the comparison, hashing and text traits a witness
//! may have (all optional: `PartialEq`, `Eq`, `PartialOrd`, `Ord`, `Hash`,
//! `Borrow<Ipv6Addr>`, `Display`, `FromStr`) keep the laws std's
//! collections rely on, on many values: equality is the equality of what
//! the witness holds; `cmp` is total and agrees with `==`, and
//! `partial_cmp` is `Some(cmp)`; addresses order as their `Ipv6Addr`s do
//! and ports as their numbers; equal values hash the same, and a value
//! hashes as what it borrows as (or a `HashSet` of witnesses loses the
//! ones it is asked for by address); `Display` then `parse` gives the
//! value back; and `FromStr` of an address reads every spelling std's
//! `Ipv6Addr` reads (capitals, zeros written out or compressed, leading
//! zeros, the last 32 bits as dotted IPv4), accepting exactly the
//! addresses the witness's check accepts: it checks the address, never
//! the text. A trait the crate does not have is not asked.
use serde::{Deserialize, Serialize};
use std::net::Ipv6Addr;
use xsafe_case::Seed;

/// The answers about one kind of value, for every pair `(i, j)`; `None`
/// where the crate has no such trait.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Laws {
    /// What each value holds, as text (an address, a port number).
    held: Vec<String>,
    eq: Option<Vec<Vec<bool>>>,
    cmp: Option<Vec<Vec<i8>>>,
    partial_cmp: Option<Vec<Vec<Option<i8>>>>,
    hash: Option<Vec<u64>>,
    /// The hash of what each value borrows as (`Borrow<Ipv6Addr>`).
    borrowed_hash: Option<Vec<u64>>,
    /// `Display`, then `FromStr`: whether each came back equal.
    round_trip: Option<Vec<bool>>,
    /// `FromStr` of each of [`spellings`]: what the parsed value holds.
    #[serde(default)]
    parsed: Option<Vec<Option<String>>>,
}

/// Texts for `FromStr`: each address of `addresses` spelled every way std's
/// `Ipv6Addr` reads it, then texts no parser of addresses should accept.
pub fn spellings(addresses: &[Ipv6Addr]) -> Vec<String> {
    let mut texts = Vec::new();
    for addr in addresses {
        let canonical = addr.to_string();
        let segments = addr.segments();
        let join = |parts: Vec<String>| parts.join(":");
        let octets = addr.octets();
        texts.extend([
            canonical.clone(),
            canonical.to_uppercase(),
            join(segments.iter().map(|part| format!("{part:x}")).collect()),
            join(segments.iter().map(|part| format!("{part:04x}")).collect()),
            join(segments.iter().map(|part| format!("{part:04X}")).collect()),
            format!(
                "{}:{}.{}.{}.{}",
                join(segments[..6].iter().map(|part| format!("{part:x}")).collect()),
                octets[12],
                octets[13],
                octets[14],
                octets[15]
            ),
        ]);
    }
    texts.extend(
        ["", ":::", "1::2::3", "[::1]", "::1%1", " ::1", "ff02::1 ", "g::1", "12345::1", "1:2:3:4:5:6:7:8:9"]
            .map(str::to_owned),
    );
    texts
}

/// The addresses whose spellings are read: drawn hosts and groups, and the
/// edges of each class in every spelling (`FF02::1`, `0::0`, `ff::1`, which
/// is not a group, an IPv4-mapped host).
fn spelled(hosts: &[Ipv6Addr], groups: &[Ipv6Addr]) -> Vec<Ipv6Addr> {
    let mut addresses: Vec<Ipv6Addr> = hosts.iter().chain(groups).take(6).copied().collect();
    addresses.extend(crate::support::edges());
    addresses.extend(
        ["ff::1", "0:0:0:0:0:ffff:c000:201", "fe80::1", "ff02::1", "2001:db8::1", "::2"]
            .iter()
            .filter_map(|text| text.parse::<Ipv6Addr>().ok()),
    );
    addresses
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    unicast: Laws,
    multicast: Laws,
    ports: Laws,
    endpoints: Laws,
}

/// Hosts, groups and ports, each drawn with repeats (equal values meet),
/// hosts sharing their first 64 bits, and the edges of each kind.
fn inputs(seed: Seed) -> (Vec<Ipv6Addr>, Vec<Ipv6Addr>, Vec<u16>) {
    let mut draw = crate::support::Draw::new(seed, 9);
    let mut hosts = draw.hosts(8);
    let prefix = u128::from(hosts[0]) & !u128::from(u64::MAX);
    for _ in 0..4 {
        let host = Ipv6Addr::from(prefix | u128::from(draw.rng().u64(1..)));
        if crate::support::is_unicast(host) {
            hosts.push(host);
        }
    }
    hosts.push(hosts[1]);
    hosts.push(Ipv6Addr::LOCALHOST);
    let mut groups = draw.groups(8);
    groups.push(groups[0]);
    groups.push(Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1));
    let mut ports = draw.ports(8);
    ports.extend([1, u16::MAX, ports[2], 256, 255]);
    (hosts, groups, ports)
}

fn sign(order: std::cmp::Ordering) -> i8 {
    order as i8
}

#[cfg(not(xsafe_judge))]
mod observing {
    use super::{Laws, sign};
    use std::borrow::Borrow;
    use std::hash::{Hash, Hasher};
    use std::marker::PhantomData;
    use std::net::Ipv6Addr;

    /// Asks whether a type has a trait without requiring it: method lookup
    /// on `&Probe<T>` tries the impls for `Probe<T>` (which need the trait)
    /// before the fallbacks for `&Probe<T>`.
    pub struct Probe<T>(PhantomData<T>);
    impl<T> Probe<T> {
        pub fn of() -> Self {
            Probe(PhantomData)
        }
    }

    fn hash_value<T: Hash + ?Sized>(value: &T) -> u64 {
        let mut hasher = std::hash::DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    }

    pub trait Asks<T> {
        fn eq_of(&self, a: &T, b: &T) -> Option<bool>;
    }
    impl<T: PartialEq> Asks<T> for Probe<T> {
        fn eq_of(&self, a: &T, b: &T) -> Option<bool> {
            Some(a == b)
        }
    }
    pub trait NoEq<T> {
        fn eq_of(&self, _: &T, _: &T) -> Option<bool> {
            None
        }
    }
    impl<T> NoEq<T> for &Probe<T> {}

    pub trait ByOrd<T> {
        fn cmp_of(&self, a: &T, b: &T) -> Option<i8>;
    }
    impl<T: Ord> ByOrd<T> for Probe<T> {
        fn cmp_of(&self, a: &T, b: &T) -> Option<i8> {
            Some(sign(a.cmp(b)))
        }
    }
    pub trait NoOrd<T> {
        fn cmp_of(&self, _: &T, _: &T) -> Option<i8> {
            None
        }
    }
    impl<T> NoOrd<T> for &Probe<T> {}

    pub trait ByPartialOrd<T> {
        fn partial_cmp_of(&self, a: &T, b: &T) -> Option<Option<i8>>;
    }
    impl<T: PartialOrd> ByPartialOrd<T> for Probe<T> {
        fn partial_cmp_of(&self, a: &T, b: &T) -> Option<Option<i8>> {
            Some(a.partial_cmp(b).map(sign))
        }
    }
    pub trait NoPartialOrd<T> {
        fn partial_cmp_of(&self, _: &T, _: &T) -> Option<Option<i8>> {
            None
        }
    }
    impl<T> NoPartialOrd<T> for &Probe<T> {}

    pub trait ByHash<T> {
        fn hash_of(&self, value: &T) -> Option<u64>;
    }
    impl<T: Hash> ByHash<T> for Probe<T> {
        fn hash_of(&self, value: &T) -> Option<u64> {
            Some(hash_value(value))
        }
    }
    pub trait NoHash<T> {
        fn hash_of(&self, _: &T) -> Option<u64> {
            None
        }
    }
    impl<T> NoHash<T> for &Probe<T> {}

    pub trait ByBorrow<T> {
        fn borrowed_hash_of(&self, value: &T) -> Option<u64>;
    }
    impl<T: Borrow<Ipv6Addr>> ByBorrow<T> for Probe<T> {
        fn borrowed_hash_of(&self, value: &T) -> Option<u64> {
            Some(hash_value(value.borrow()))
        }
    }
    pub trait NoBorrow<T> {
        fn borrowed_hash_of(&self, _: &T) -> Option<u64> {
            None
        }
    }
    impl<T> NoBorrow<T> for &Probe<T> {}

    pub trait ByRoundTrip<T> {
        fn round_trip_of(&self, value: &T) -> Option<bool>;
    }
    impl<T: std::fmt::Display + std::str::FromStr + PartialEq> ByRoundTrip<T> for Probe<T> {
        fn round_trip_of(&self, value: &T) -> Option<bool> {
            Some(value.to_string().parse::<T>().ok().as_ref() == Some(value))
        }
    }
    pub trait NoRoundTrip<T> {
        fn round_trip_of(&self, _: &T) -> Option<bool> {
            None
        }
    }
    impl<T> NoRoundTrip<T> for &Probe<T> {}

    pub trait ByParse<T> {
        fn parse_of(&self, text: &str, held: &dyn Fn(&T) -> String) -> Option<Option<String>>;
    }
    impl<T: std::str::FromStr> ByParse<T> for Probe<T> {
        fn parse_of(&self, text: &str, held: &dyn Fn(&T) -> String) -> Option<Option<String>> {
            Some(text.parse::<T>().ok().map(|value| held(&value)))
        }
    }
    pub trait NoParse<T> {
        fn parse_of(&self, _: &str, _: &dyn Fn(&T) -> String) -> Option<Option<String>> {
            None
        }
    }
    impl<T> NoParse<T> for &Probe<T> {}

    pub fn pairs<T, R>(values: &[T], ask: impl Fn(&T, &T) -> Option<R>) -> Option<Vec<Vec<R>>> {
        values
            .iter()
            .map(|a| values.iter().map(|b| ask(a, b)).collect())
            .collect()
    }

    /// Every law's answers about `values`.
    macro_rules! laws_of {
        ($type:ty, $values:expr, $held:expr) => {{
            let values: &[$type] = $values;
            let probe = Probe::<$type>::of();
            Laws {
                held: values.iter().map($held).collect(),
                eq: pairs(values, |a, b| (&probe).eq_of(a, b)),
                cmp: pairs(values, |a, b| (&probe).cmp_of(a, b)),
                partial_cmp: pairs(values, |a, b| (&probe).partial_cmp_of(a, b)),
                hash: values.iter().map(|value| (&probe).hash_of(value)).collect(),
                borrowed_hash: values
                    .iter()
                    .map(|value| (&probe).borrowed_hash_of(value))
                    .collect(),
                round_trip: values
                    .iter()
                    .map(|value| (&probe).round_trip_of(value))
                    .collect(),
                parsed: None,
            }
        }};
    }
    pub(crate) use laws_of;
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use observing::*;
    use witness_types::{Endpoint, MulticastAddr, Port, UnicastAddr};

    let (hosts, groups, ports) = inputs(seed);
    let unicast: Vec<UnicastAddr> = hosts.iter().filter_map(|host| UnicastAddr::new(*host)).collect();
    let multicast: Vec<MulticastAddr> = groups.iter().filter_map(|group| MulticastAddr::new(*group)).collect();
    let port_values: Vec<Port> = ports.iter().filter_map(|port| Port::new(*port)).collect();
    let endpoints: Vec<Endpoint> = unicast
        .iter()
        .zip(port_values.iter().cycle())
        .map(|(addr, port)| Endpoint { addr: *addr, port: *port })
        .chain(unicast.first().into_iter().flat_map(|addr| {
            port_values.iter().take(3).map(move |port| Endpoint { addr: *addr, port: *port })
        }))
        .collect();
    let texts = spellings(&spelled(&hosts, &groups));
    let mut unicast_laws = laws_of!(UnicastAddr, &unicast, |addr| addr.get().to_string());
    let probe = Probe::<UnicastAddr>::of();
    unicast_laws.parsed = texts
        .iter()
        .map(|text| (&probe).parse_of(text, &|addr: &UnicastAddr| addr.get().to_string()))
        .collect();
    let mut multicast_laws = laws_of!(MulticastAddr, &multicast, |addr| addr.get().to_string());
    let probe = Probe::<MulticastAddr>::of();
    multicast_laws.parsed = texts
        .iter()
        .map(|text| (&probe).parse_of(text, &|addr: &MulticastAddr| addr.get().to_string()))
        .collect();
    Seen {
        unicast: unicast_laws,
        multicast: multicast_laws,
        ports: laws_of!(Port, &port_values, |port| port.get().to_string()),
        endpoints: laws_of!(Endpoint, &endpoints, |end| format!(
            "[{}]:{}",
            end.addr.get(),
            end.port.get()
        )),
    }
}

/// Checks one kind's laws; `order` is the order its values must follow,
/// when the course fixes one.
fn check(what: &str, laws: &Laws, order: Option<&dyn Fn(&str, &str) -> std::cmp::Ordering>) {
    let held = &laws.held;
    for i in 0..held.len() {
        for j in 0..held.len() {
            let (a, b) = (&held[i], &held[j]);
            let same = a == b;
            if let Some(eq) = &laws.eq {
                assert_eq!(eq[i][j], same, "two {what}s holding {a} and {b}: `==` says {}", eq[i][j]);
            }
            if let Some(cmp) = &laws.cmp {
                assert_eq!(
                    cmp[i][j] == 0,
                    same,
                    "`cmp` of {what}s holding {a} and {b} says {} where `==` says {same}: `Ord` must agree with `Eq`",
                    cmp[i][j]
                );
                assert_eq!(cmp[i][j], -cmp[j][i], "`cmp` of {what}s {a} and {b} must be antisymmetric");
                if let Some(order) = order {
                    assert_eq!(
                        cmp[i][j],
                        sign(order(a, b)),
                        "`cmp` of {what}s holding {a} and {b} must order them as what they hold"
                    );
                }
                for k in 0..held.len() {
                    if cmp[i][j] <= 0 && cmp[j][k] <= 0 {
                        assert!(
                            cmp[i][k] <= 0,
                            "`cmp` of {what}s is not transitive: {a} <= {b} <= {} but not {a} <= {}",
                            held[k],
                            held[k]
                        );
                    }
                }
            }
            if let Some(partial) = &laws.partial_cmp {
                if let Some(cmp) = &laws.cmp {
                    assert_eq!(partial[i][j], Some(cmp[i][j]), "`partial_cmp` of {what}s {a} and {b} must be `Some(cmp)`");
                } else {
                    assert_eq!(partial[i][j] == Some(0), same, "`partial_cmp` of {what}s {a} and {b} must agree with `==`");
                }
            }
            if let Some(hash) = &laws.hash
                && same
            {
                assert_eq!(hash[i], hash[j], "equal {what}s (holding {a}) must hash the same");
            }
        }
        if let (Some(hash), Some(borrowed)) = (&laws.hash, &laws.borrowed_hash) {
            assert_eq!(
                hash[i], borrowed[i],
                "a {what} holding {} must hash as the `Ipv6Addr` it borrows as: a `HashSet` of {what}s asked `contains(&addr)` looks where `Borrow` says",
                held[i]
            );
        }
        if let Some(round_trip) = &laws.round_trip {
            assert!(round_trip[i], "a {what} holding {} does not come back from its own `Display` by `parse`", held[i]);
        }
    }
}

/// Checks `FromStr` of an address kind against std's reading of each text
/// and the judge's own check: a text std reads as an address the check
/// accepts gives that address; one whose address the check refuses is
/// refused. (Texts std does not read are not judged: a parser may accept
/// more spellings, never other addresses.)
fn check_parsing(what: &str, parsed: Option<&Vec<Option<String>>>, texts: &[String], valid: fn(Ipv6Addr) -> bool) {
    let Some(parsed) = parsed else { return };
    assert_eq!(parsed.len(), texts.len(), "one answer per text");
    for (text, got) in texts.iter().zip(parsed) {
        let Ok(addr) = text.parse::<Ipv6Addr>() else { continue };
        let expected = valid(addr).then(|| addr.to_string());
        assert_eq!(
            got, &expected,
            "{text:?}.parse::<{what}>() gives {got:?}: the text spells {addr}, which the check {} (`FromStr` must check the address, not how it is written)",
            if valid(addr) { "accepts" } else { "refuses" }
        );
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (hosts, groups, _) = inputs(seed);
    let texts = spellings(&spelled(&hosts, &groups));
    check_parsing("UnicastAddr", seen.unicast.parsed.as_ref(), &texts, crate::support::is_unicast);
    check_parsing("MulticastAddr", seen.multicast.parsed.as_ref(), &texts, crate::support::is_multicast);
    let by_address = |a: &str, b: &str| {
        let parse = |text: &str| text.parse::<Ipv6Addr>().ok();
        parse(a).cmp(&parse(b))
    };
    let by_number = |a: &str, b: &str| a.parse::<u32>().ok().cmp(&b.parse::<u32>().ok());
    check("UnicastAddr", &seen.unicast, Some(&by_address));
    check("MulticastAddr", &seen.multicast, Some(&by_address));
    check("Port", &seen.ports, Some(&by_number));
    check("Endpoint", &seen.endpoints, None);
}
