//! Proves enforcement: every other way the crate offers to make or change a
//! `Port` keeps it non-zero. Whenever the learner's `Port` has one of these
//! std impls, the case feeds it numbers of every kind (0, 1, 65535, 65536,
//! -1, the largest of each type, random ones; texts of them) and records
//! what it made: `Default`; `From` and `TryFrom` of `u8`, `u16`, `u32`,
//! `u64`, `usize`, `i32`, `i64`, `NonZeroU16`, `String` and `&str`; a write
//! of 0 through `DerefMut`, `AsMut` or `BorrowMut` to a `u16` (or of the
//! `Default` of whatever a `DerefMut` leads to); and arithmetic that wraps
//! to 0 (`+=`, `-=`, `+`, `-` with a `u16`). The judge checks every port
//! made: refusing or panicking is fine, port 0 is not, and a conversion
//! that makes a port makes the one it was given (0 turned into 65535 is
//! no check).
use crate::support::{RouteSeen, assert_routes_keep};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    routes: Vec<RouteSeen>,
}

/// Numbers of every kind, as `i128` so each source type takes those it can
/// hold.
fn numbers(seed: Seed) -> Vec<i128> {
    let mut draw = crate::support::Draw::new(seed, 3);
    let mut numbers = vec![
        0,
        1,
        65535,
        65536,
        65536 * 3,
        -1,
        i128::from(u8::MAX),
        i128::from(u32::MAX),
        i128::from(u64::MAX),
        i128::from(i64::MIN),
    ];
    for port in draw.ports(3) {
        numbers.push(i128::from(port));
        numbers.push(i128::from(port) + 65536);
    }
    numbers
}

#[cfg(not(xsafe_judge))]
mod observing {
    use super::numbers;
    use crate::support::{
        NoAdd, NoAddAssign, NoAsMut, NoBorrowMut, NoDefault, NoDerefMut, NoDerefMutToDefault,
        NoFrom, NoSub, NoSubAssign, NoTryFrom, Probe, RouteSeen, ViaAdd, ViaAddAssign, ViaAsMut,
        ViaBorrowMut, ViaDefault, ViaDerefMut, ViaDerefMutToDefault, ViaFrom, ViaSub, ViaSubAssign,
        ViaTryFrom, route,
    };
    use std::num::NonZeroU16;
    use witness_types::Port;
    use xsafe_case::Seed;

    /// Pushes the `From` and `TryFrom` routes of `Port` from each source
    /// type, over the numbers that type can hold.
    macro_rules! conversions {
        ($routes:ident, $numbers:ident; $($source:ty),*) => {$(
            let inputs: Vec<$source> = $numbers.iter().filter_map(|&n| <$source>::try_from(n).ok()).collect();
            $routes.push(route(
                concat!("impl From<", stringify!($source), "> for Port"),
                &inputs,
                |n: &$source| n.to_string(),
                |input: $source| (&Probe::<Port, $source>::new()).made_from(input),
                |port: &Port| port.get().to_string(),
            ));
            $routes.push(route(
                concat!("impl TryFrom<", stringify!($source), "> for Port"),
                &inputs,
                |n: &$source| n.to_string(),
                |input: $source| (&Probe::<Port, $source>::new()).made_by_try_from(input),
                |port: &Port| port.get().to_string(),
            ));
        )*};
    }

    /// Pushes a route that changes a valid port with a `u16`.
    macro_rules! changes {
        ($routes:ident, $valid:ident; $($name:literal => $inputs:expr, $method:ident;)*) => {$(
            $routes.push(route(
                $name,
                &$inputs,
                |n: &u16| format!("port {} and {n}", $valid.get()),
                |with: u16| (&Probe::<Port, u16>::new()).$method($valid, with),
                |port: &Port| port.get().to_string(),
            ));
        )*};
    }

    pub fn routes(seed: Seed) -> Vec<RouteSeen> {
        let numbers = numbers(seed);
        let read = |port: &Port| port.get().to_string();
        let mut routes = vec![route(
            "impl Default for Port",
            &[()],
            |_| "nothing".to_owned(),
            |()| (&Probe::<Port>::new()).made_by_default(),
            read,
        )];
        conversions!(routes, numbers; u8, u16, u32, u64, usize, i32, i64);
        let nonzero: Vec<NonZeroU16> = numbers
            .iter()
            .filter_map(|&n| u16::try_from(n).ok().and_then(NonZeroU16::new))
            .collect();
        let show = |n: &NonZeroU16| n.to_string();
        routes.push(route(
            "impl From<NonZeroU16> for Port",
            &nonzero,
            show,
            |input| (&Probe::<Port, NonZeroU16>::new()).made_from(input),
            read,
        ));
        routes.push(route(
            "impl TryFrom<NonZeroU16> for Port",
            &nonzero,
            show,
            |input| (&Probe::<Port, NonZeroU16>::new()).made_by_try_from(input),
            read,
        ));
        let texts: Vec<String> = numbers.iter().map(ToString::to_string).collect();
        let leaked: Vec<&'static str> = texts
            .iter()
            .map(|text| &*Box::leak(text.clone().into_boxed_str()))
            .collect();
        routes.push(route(
            "impl From<String> for Port",
            &texts,
            |text: &String| format!("{text:?}"),
            |input: String| (&Probe::<Port, String>::new()).made_from(input),
            read,
        ));
        routes.push(route(
            "impl TryFrom<String> for Port",
            &texts,
            |text: &String| format!("{text:?}"),
            |input: String| (&Probe::<Port, String>::new()).made_by_try_from(input),
            read,
        ));
        routes.push(route(
            "impl From<&str> for Port",
            &leaked,
            |text: &&str| format!("{text:?}"),
            |input: &'static str| (&Probe::<Port, &'static str>::new()).made_from(input),
            read,
        ));
        routes.push(route(
            "impl TryFrom<&str> for Port",
            &leaked,
            |text: &&str| format!("{text:?}"),
            |input: &'static str| (&Probe::<Port, &'static str>::new()).made_by_try_from(input),
            read,
        ));
        let valid = Port::new(1).expect("1 is a port");
        let high = Port::new(u16::MAX).expect("65535 is a port");
        routes.push(route(
            "impl DerefMut for Port (to the Default of its Target)",
            &[()],
            |_| "the Default of the Target".to_owned(),
            |()| (&Probe::<Port>::new()).written_to_default_through_deref_mut(valid, ()),
            read,
        ));
        changes! { routes, valid;
            "impl DerefMut for Port" => [0u16], written_through_deref_mut;
            "impl AsMut<u16> for Port" => [0u16], written_through_as_mut;
            "impl BorrowMut<u16> for Port" => [0u16], written_through_borrow_mut;
            "impl SubAssign<u16> for Port" => [1u16], after_sub_assign;
            "impl Sub<u16> for Port" => [1u16], after_sub;
        }
        changes! { routes, high;
            "impl AddAssign<u16> for Port" => [1u16], after_add_assign;
            "impl Add<u16> for Port" => [1u16], after_add;
        }
        routes
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    Seen {
        routes: observing::routes(seed),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_routes_keep(&seen.routes, "Port", |value| {
        value.parse::<u16>().is_ok_and(|number| number != 0)
    });
    // A conversion that makes a port makes the port it was given: one
    // that turns 0 into another number keeps the invariant but is no
    // check (it should refuse).
    for route in &seen.routes {
        if !(route.route.starts_with("impl From<") || route.route.starts_with("impl TryFrom<")) {
            continue;
        }
        for (input, made) in &route.made {
            if let crate::support::Made::Value(value) = made {
                let given = input.trim_matches('"');
                assert_eq!(
                    value.parse::<i128>().ok(),
                    given.parse::<i128>().ok(),
                    "`{}` made port {value} from {input}: a conversion must keep the number, or refuse",
                    route.route
                );
            }
        }
    }
}
