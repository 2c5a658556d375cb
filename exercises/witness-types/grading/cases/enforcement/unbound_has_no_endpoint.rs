//! Proves enforcement: an unbound socket has no address, so it has none of
//! the methods that need one: no `local`, `send_to`, `join_group`, `groups`,
//! `peer`, `send` or `close` (a `close` written once for every state that
//! has an endpoint is refused here for its bound, E0277, or for its impl's
//! bound, E0599; one that takes an unbound socket too has nothing to free).
//! The grader shows the seal of a generic `close` only as a private trait:
//! which states it admits is what this case probes.
use witness_types::{Endpoint, MulticastAddr, Network, Port, UnicastAddr};

fn main() {
    let net = Network::new();
    let to = Endpoint {
        addr: UnicastAddr::new(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1))
            .expect("unicast"),
        port: Port::new(5000).expect("not zero"),
    };
    let mut socket = net.socket();
    let _ = socket.local(); //~ ERROR E0599
    socket.send_to(to, b"from nowhere"); //~ ERROR E0599
    socket.join_group(MulticastAddr::ALL_NODES); //~ ERROR E0599
    let _ = socket.groups(); //~ ERROR E0599
    let _ = socket.peer(); //~ ERROR E0599
    socket.send(b"to no one"); //~ ERROR E0599
    socket.close(); //~ ERROR E0599|E0277
}
