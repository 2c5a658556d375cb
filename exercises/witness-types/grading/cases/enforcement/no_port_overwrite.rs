//! Proves enforcement: code outside the crate cannot change a parsed `Port`
//! into port 0: the field `number` of `Port` must be private.
use witness_types::Port;

fn main() {
    let mut port: Port = "80".parse().expect("80 is a port");
    port.number = 0; //~ ERROR E0616
    println!("{port}");
}
