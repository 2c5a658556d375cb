//! Proves enforcement: `MulticastAddr::new` accepts exactly `224.0.0.0/4`,
//! first octet 224 to 239, edges included.
use std::net::Ipv4Addr;
use witness_types::MulticastAddr;

#[test]
fn multicast_accepts_groups_only() {
    for accepted in [
        Ipv4Addr::new(224, 0, 0, 0),
        Ipv4Addr::new(224, 0, 0, 1),
        Ipv4Addr::new(232, 1, 2, 3),
        Ipv4Addr::new(239, 255, 255, 255),
    ] {
        let group = MulticastAddr::new(accepted);
        assert_eq!(group.map(MulticastAddr::get), Some(accepted), "{accepted} is multicast");
    }
    for refused in [
        Ipv4Addr::UNSPECIFIED,
        Ipv4Addr::new(10, 0, 0, 1),
        Ipv4Addr::new(223, 255, 255, 255),
        Ipv4Addr::new(240, 0, 0, 0),
        Ipv4Addr::new(250, 1, 1, 1),
        Ipv4Addr::BROADCAST,
    ] {
        assert_eq!(MulticastAddr::new(refused), None, "{refused} is not multicast");
    }
    assert_eq!(MulticastAddr::ALL_HOSTS.get(), Ipv4Addr::new(224, 0, 0, 1));
}
