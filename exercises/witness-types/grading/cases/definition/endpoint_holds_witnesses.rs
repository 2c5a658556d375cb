//! Proves the definition: an `Endpoint` is made of witnesses, a
//! `UnicastAddr` and a `Port`, so text that was never parsed, such as an
//! address or a port number read from a configuration file, does not fit.
use witness_types::Endpoint;

fn main() {
    let to = Endpoint {
        addr: "ff02::1", //~ ERROR E0308
        port: "0", //~ ERROR E0308
    };
    println!("{to:?}");
}
