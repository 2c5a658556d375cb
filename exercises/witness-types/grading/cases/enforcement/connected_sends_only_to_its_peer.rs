//! Proves enforcement: a connected socket sends only to its peer, and its
//! state moves on only by `close`: `Socket<Connected>` has no `send_to`, no
//! `join_group`, no second `connect` and no `bind`. The public surface
//! cannot tell which state a method is on (it lists `fn Socket::send_to`
//! once), so this case asks the compiler, state by state.
use witness_types::{Endpoint, MulticastAddr, Network, Port, UnicastAddr};

fn main() {
    let net = Network::new();
    let at = |host| Endpoint {
        addr: UnicastAddr::new(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, host))
            .expect("unicast"),
        port: Port::new(5000).expect("not zero"),
    };
    let mut socket = net.socket().bind(at(1)).connect(at(2));
    socket.send_to(at(3), b"elsewhere"); //~ ERROR E0599
    socket.join_group(MulticastAddr::ALL_NODES); //~ ERROR E0599
    let again = socket.connect(at(3)); //~ ERROR E0599
    let rebound = net.socket().bind(at(4)).connect(at(2)).bind(at(5)); //~ ERROR E0599
    let _ = (again, rebound);
}
