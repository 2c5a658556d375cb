//! Proves the definition: `send_to` takes an `Endpoint`, whose address is a
//! `UnicastAddr`, so a multicast group is not something to send to.
use witness_types::{MulticastAddr, Network, Port, UnicastAddr};

fn send(local: UnicastAddr, port: Port) {
    let net = Network::new();
    let mut socket = net.socket().bind(witness_types::Endpoint { addr: local, port });
    let to = witness_types::Endpoint {
        addr: MulticastAddr::ALL_NODES, //~ ERROR E0308
        port,
    };
    socket.send_to(to, b"hello");
}

fn main() {
    let _ = send;
}
