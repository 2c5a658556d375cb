//! Proves enforcement: code outside the crate cannot change a parsed `Port`
//! into port 0: its number is not a field anyone outside can write (private,
//! E0616; or private under another name, E0609 or E0615). A public field
//! fails the case, whether the write compiles (a `u16`) or is refused for its
//! type (a `NonZeroU16`, E0308): the `public_surface` case names it too.
use witness_types::Port;

fn main() {
    let mut port: Port = "80".parse().expect("80 is a port");
    port.number = 0; //~ ERROR E0616|E0609|E0615
    println!("{port}");
}
