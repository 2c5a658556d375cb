//! Proves the definition: the three states are types, so a function says in
//! its signature which state of socket it needs; and a witness prints as
//! the address it wraps.
use witness_types::{Bound, Connected, MulticastAddr, Socket, Unbound};

fn state_name<S>(_: &Socket<S>) -> &'static str {
    std::any::type_name::<S>().rsplit("::").next().unwrap_or("?")
}

fn _takes_each_state(_: Socket<Unbound>, _: &Socket<Bound>, _: &mut Socket<Connected>) {}

#[test]
fn a_new_socket_is_unbound() {
    let net = witness_types::Network::new();
    let socket: Socket<Unbound> = net.socket();
    assert_eq!(state_name(&socket), "Unbound");
    assert_eq!(MulticastAddr::ALL_HOSTS.to_string(), "224.0.0.1");
}
