//! The witnesses' checks against an independent model written from the
//! address architecture (RFC 4291): multicast is `ff00::/8`; the exercise's
//! unicast is every other address but the unspecified `::` and the
//! IPv4-mapped `::ffff:0:0/96`; a port is any number but 0, parsed from
//! decimal digits only. Generated addresses are biased towards the edges
//! of each class.

use proptest::prelude::*;
use std::net::Ipv6Addr;
use witness_types::{MulticastAddr, Port, PortError, UnicastAddr};

fn model_multicast(addr: Ipv6Addr) -> bool {
    addr.octets()[0] == 0xff
}

fn model_unicast(addr: Ipv6Addr) -> bool {
    let octets = addr.octets();
    let mapped =
        octets[..10].iter().all(|&octet| octet == 0) && octets[10] == 0xff && octets[11] == 0xff;
    !addr.is_unspecified() && !model_multicast(addr) && !mapped
}

/// Addresses near every class's edges, and anywhere.
fn address() -> impl Strategy<Value = Ipv6Addr> {
    prop_oneof![
        any::<u128>().prop_map(Ipv6Addr::from),
        (0u128..4).prop_map(Ipv6Addr::from),
        (0u128..4).prop_map(|low| Ipv6Addr::from((0xffff_u128 << 32) + low)),
        (0u128..4).prop_map(|low| Ipv6Addr::from((0xffff_u128 << 32) - 1 - low)),
        (0u128..4).prop_map(|low| Ipv6Addr::from(((0xffff_u128 + 1) << 32) + low)),
        any::<u32>().prop_map(|low| Ipv6Addr::from((0xffff_u128 << 32) | u128::from(low))),
        any::<u128>().prop_map(|bits| Ipv6Addr::from((0xff_u128 << 120) | (bits >> 8))),
        any::<u128>().prop_map(|bits| Ipv6Addr::from((0xfe_u128 << 120) | (bits >> 8))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn the_checks_agree_with_the_model(addr in address()) {
        prop_assert_eq!(UnicastAddr::new(addr).is_some(), model_unicast(addr), "{}", addr);
        prop_assert_eq!(MulticastAddr::new(addr).is_some(), model_multicast(addr), "{}", addr);
        if let Some(host) = UnicastAddr::new(addr) {
            prop_assert_eq!(host.get(), addr);
        }
        if let Some(group) = MulticastAddr::new(addr) {
            prop_assert_eq!(group.get(), addr);
        }
    }

    #[test]
    fn ports_agree_with_the_model(number in any::<u16>()) {
        prop_assert_eq!(Port::new(number).map(Port::get), (number != 0).then_some(number));
        let parsed: Result<Port, PortError> = number.to_string().parse();
        prop_assert_eq!(parsed.ok().map(Port::get), (number != 0).then_some(number));
    }

    #[test]
    fn port_texts_agree_with_the_model(text in "[0-9+ a-]{0,7}") {
        let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
        let expected = if digits {
            text.parse::<u32>().ok().filter(|&n| n != 0 && n <= u32::from(u16::MAX))
        } else {
            None
        };
        let parsed: Option<u32> = text.parse::<Port>().ok().map(|port| u32::from(port.get()));
        prop_assert_eq!(parsed, expected, "{:?}", text);
    }
}
