//! `#[derive(Sendable)]`: implements `send_marker::Sendable` for a struct or
//! an enum, and refuses to compile unless every field's type is `Sendable`.
//!
//! A derive cannot ask the compiler whether a type implements a trait: it
//! only sees tokens. So it writes code that makes the compiler check. One
//! expansion that does (the grading cases accept any other that checks the
//! same; keep the spans of the field types as the input gives them, so that
//! an error points at the field):
//!
//! ```text
//! #[derive(Sendable)]
//! struct Job<T> { id: u32, data: Vec<T> }
//! ```
//!
//! expands to
//!
//! ```text
//! unsafe impl<T: ::send_marker::Sendable> ::send_marker::Sendable for Job<T> {}
//! const _: () = {
//!     #[allow(dead_code, clippy::let_unit_value)]
//!     fn check_fields<T: ::send_marker::Sendable>(_: &Job<T>) {
//!         let () = <u32 as ::send_marker::__derive::FieldIsSendable>::CHECKED;
//!         let () = <Vec<T> as ::send_marker::__derive::FieldIsSendable>::CHECKED;
//!     }
//! };
//! ```
//!
//! * The impl keeps the type's generics and `where` clause, and bounds every
//!   type parameter by `Sendable`, so `Job<Rc<u8>>` is not `Sendable` while
//!   `Job<u8>` is.
//! * `check_fields` (with the same generics) has one line per field, of every
//!   variant for an enum. Its body only type-checks if each field's type is
//!   `Sendable` whenever the parameters are: that check is what makes the
//!   `unsafe impl` sound, and it is the derive's whole job. It is a function
//!   body rather than `where` clauses, because a `where` clause that mentions
//!   a parameter is assumed, not checked. It is never called, hence the
//!   `allow`. Its unused argument, a reference to the type, gives it the
//!   bounds the type's definition implies (`T: 'a` for a field `&'a mut T`),
//!   without which a legal type would fail the check.
//! * A union is refused with a `syn::Error`: which field it holds is unknown.

use proc_macro::TokenStream;

/// Implements `send_marker::Sendable` for a struct or an enum whose fields
/// are all `Sendable`, bounding each type parameter by `Sendable`. A field
/// of any other type is a compile error that points at it.
#[proc_macro_derive(Sendable)]
pub fn derive_sendable(input: TokenStream) -> TokenStream {
    // TODO(enforcement): parse `input` with `syn::parse_macro_input!` as a
    // `syn::DeriveInput`, collect every field's type, and build the
    // expansion above with `quote::quote!` (`Generics::split_for_impl` gives
    // the pieces of the impl header). Today it derives nothing, so no type
    // that derives `Sendable` is `Sendable`.
    let _ = input;
    TokenStream::new()
}
