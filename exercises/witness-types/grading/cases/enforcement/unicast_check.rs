//! Proves enforcement: `UnicastAddr::new` accepts exactly the unicast
//! addresses, up to the edges of the class: not `0.0.0.0`, first octet
//! below 224.
use std::net::Ipv4Addr;
use witness_types::UnicastAddr;

#[test]
fn unicast_accepts_hosts_only() {
    for accepted in [
        Ipv4Addr::new(0, 0, 0, 1),
        Ipv4Addr::new(1, 0, 0, 0),
        Ipv4Addr::new(10, 0, 0, 1),
        Ipv4Addr::LOCALHOST,
        Ipv4Addr::new(192, 168, 1, 254),
        Ipv4Addr::new(223, 255, 255, 255),
    ] {
        let host = UnicastAddr::new(accepted);
        assert_eq!(host.map(UnicastAddr::get), Some(accepted), "{accepted} is unicast");
    }
    for refused in [
        Ipv4Addr::UNSPECIFIED,
        Ipv4Addr::new(224, 0, 0, 0),
        Ipv4Addr::new(224, 0, 0, 1),
        Ipv4Addr::new(239, 255, 255, 255),
        Ipv4Addr::new(240, 0, 0, 1),
        Ipv4Addr::BROADCAST,
    ] {
        assert_eq!(UnicastAddr::new(refused), None, "{refused} is not unicast");
    }
}
