//! Proves enforcement: `close` takes the socket by value, so a closed socket
//! cannot be used: sending on it does not compile.
use witness_types::{Endpoint, Network, Port, UnicastAddr};

fn main() {
    let net = Network::new();
    let at = |host| Endpoint {
        addr: UnicastAddr::new(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, host)).expect("unicast"),
        port: Port::new(5000).expect("not zero"),
    };
    let mut socket = net.socket().bind(at(1)).connect(at(2));
    socket.close();
    socket.send(b"too late"); //~ ERROR E0382
}
