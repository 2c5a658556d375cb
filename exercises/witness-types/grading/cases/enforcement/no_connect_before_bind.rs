//! Proves enforcement: the states come in order. A new socket cannot
//! connect before it is bound, and a bound socket cannot be bound again.
use witness_types::{Endpoint, Network, Port, UnicastAddr};

fn main() {
    let net = Network::new();
    let local = Endpoint {
        addr: UnicastAddr::new(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)).expect("unicast"),
        port: Port::new(5000).expect("not zero"),
    };
    let connected = net.socket().connect(local); //~ ERROR E0599
    let twice = net.socket().bind(local).bind(local); //~ ERROR E0599
    let _ = (connected, twice);
}
