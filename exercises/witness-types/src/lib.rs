//! # Exercise 2: checks that happen once
//!
//! A tiny datagram network whose misuse does not compile. Read the chapter
//! "Option and panic as a smell" of the book first.
//!
//! The starter is the *before* version: the types of the new API are there,
//! but anyone can build them without a check, and the socket checks its
//! state at run time and panics. Your work, step by step (the grading cases
//! follow the same steps; grade with `cargo xsafe`):
//!
//! 1. **Definition** is done: read the invariants on [`addr`], [`port`] and
//!    [`socket`], and keep every public signature not marked `TODO`: the
//!    grading cases call them.
//! 2. **Enforcement**: make the fields of [`UnicastAddr`], [`MulticastAddr`]
//!    and [`Port`] private, write the checks in their `new` and in
//!    `Port::from_str`, make the `new_unchecked` constructors `unsafe`, and
//!    give each socket method only the states where it can succeed.
//! 3. **Consumption**: write the socket's methods without a check, an
//!    `Option` or a panic left in them, and store the port in a
//!    `NonZeroU16`.
//!
//! Every place to work on is marked `TODO(enforcement)` or
//! `TODO(consumption)`.

pub mod addr;
pub mod port;
pub mod socket;

pub use addr::{MulticastAddr, UnicastAddr};
pub use port::{Port, PortError};
pub use socket::{Bound, Connected, Datagram, Endpoint, Network, Socket, Unbound};
