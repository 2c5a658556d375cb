//! # Exercise 2: checks that happen once
//!
//! A tiny datagram network whose misuse does not compile. Read the chapter
//! "Option and panic as a smell" of the book first.
//!
//! Three guarantees, each upheld by one module:
//!
//! * [`addr`]: a [`UnicastAddr`] or a [`MulticastAddr`] always holds an
//!   address of its class. The check runs once, in `new`; every later use is
//!   infallible.
//! * [`port`]: a [`Port`] is never zero. Text is parsed into one, with a
//!   [`PortError`] that says what was wrong.
//! * [`socket`]: a [`Socket`]'s state is its type parameter, so a method
//!   exists only in the states where it makes sense, and [`Socket::close`]
//!   consumes the socket.

pub mod addr;
pub mod port;
pub mod socket;

pub use addr::{MulticastAddr, UnicastAddr};
pub use port::{Port, PortError};
pub use socket::{Bound, Connected, Datagram, Endpoint, Network, Socket, Unbound};
