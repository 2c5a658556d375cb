//! Proves enforcement: `send` exists only on a `Socket<Connected>`; a
//! socket that is merely bound has no peer to send to.
use witness_types::{Endpoint, Network, Port, UnicastAddr};

fn main() {
    let net = Network::new();
    let local = Endpoint {
        addr: UnicastAddr::new(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)).expect("unicast"),
        port: Port::new(5000).expect("not zero"),
    };
    let mut socket = net.socket().bind(local);
    socket.send(b"to whom?"); //~ ERROR E0599
}
