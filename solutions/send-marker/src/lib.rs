//! A Send-like marker trait: the property "values of this type may move to
//! another thread", made checkable.
//!
//! This is the reference solution of the X-safe Rust exercise `send-marker`.
//! It follows the course's three steps:
//!
//! * **Definition.** [`Sendable`] is an `unsafe trait` whose documentation
//!   states the contract: it means what std's `Send` means.
//! * **Enforcement.** The `impls` module grants it to std's types on std's
//!   own conditions (structurally for compound types, never for `Rc`, `&Cell`
//!   or raw pointers), and `#[derive(Sendable)]` grants it to a struct or an
//!   enum only when every field has it.
//! * **Consumption.** [`spawn`] runs work on another thread; its one `unsafe
//!   impl Send` is sound because of the contract, and for no other reason.
//!
//! ```
//! use send_marker::{Sendable, spawn};
//!
//! #[derive(Sendable)]
//! struct Order {
//!     id: u32,
//!     items: Vec<String>,
//! }
//!
//! fn count(order: Order) -> (u32, usize) {
//!     (order.id, order.items.len())
//! }
//!
//! let order = Order { id: 7, items: vec![String::from("tea")] };
//! assert_eq!(spawn(order, count).join(), (7, 1));
//! ```

mod impls;
mod spawn;

/// Implements [`Sendable`] for a struct or an enum whose fields are all
/// [`Sendable`]; see the `send_marker_derive` crate.
pub use send_marker_derive::Sendable;
pub use spawn::{Handle, spawn};

/// Values of this type may move to another thread.
///
/// **The contract.** A type implements `Sendable` only if a value of it can
/// be moved to another thread, used there and dropped there, while the
/// thread that made it goes on, without any data race or other undefined
/// behaviour. That is exactly what std's [`Send`] means, so for every type
/// `T: Sendable`, `T` would be sound as `Send`. The converse need not hold:
/// a type may be `Send` and still not `Sendable`, because nobody promised it.
///
/// The compiler cannot check the contract, which is why the trait is
/// `unsafe`. `unsafe` here does not mark a dangerous operation: it marks a
/// promise. Writing `unsafe impl Sendable for T {}` says "I checked that `T`
/// keeps the contract", and code that relies on the trait (such as
/// [`spawn`]) may then use `unsafe` of its own, justified by that promise.
///
/// There are two ways to implement it:
///
/// * an `unsafe impl`, for a type whose author has checked the contract;
/// * `#[derive(Sendable)]`, for a struct or an enum whose values are nothing
///   but their fields, all `Sendable`: such a value may move when they may.
///   The derive checks every field, and refuses to compile when one is not
///   `Sendable`. Do not derive it for a type whose values stand for
///   something tied to one thread (an index into a thread-local table, a
///   lock this thread holds): its fields may all move while it may not.
///
/// # Safety
///
/// Implement `Sendable` for a type only if its values may move to another
/// thread as described above: if the type's own invariants allow it, and if
/// every value it owns or points to may move (or be shared, for what it
/// only borrows) across threads along with it. When in doubt, check that std
/// implements `Send` for the type under the same conditions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent to another thread",
    label = "`{Self}` is not `Sendable`",
    note = "a type is `Sendable` only through an `unsafe impl` or `#[derive(Sendable)]`"
)]
pub unsafe trait Sendable {}

/// Support for the code that `#[derive(Sendable)]` generates. Not part of
/// the API: use the derive.
#[doc(hidden)]
pub mod __derive {
    use super::Sendable;

    /// A field's type, checked by `#[derive(Sendable)]`. Every `Sendable`
    /// type has it, and no other type. The derive writes, for each field,
    /// `let () = <FieldType as FieldIsSendable>::CHECKED;`, so that a field
    /// whose type is not `Sendable` is an error that points at the field.
    ///
    /// `Sendable` is its supertrait, so that nobody can implement it alone:
    /// a crate that implemented it for a type of its own would make the
    /// derive accept fields of that type, whatever they hold, without
    /// writing `unsafe`.
    #[diagnostic::on_unimplemented(
        message = "`#[derive(Sendable)]` needs every field to be `Sendable`, and `{Self}` is not",
        label = "this field's type is not `Sendable`",
        note = "a value moves to another thread with all its fields: implement `Sendable` for this field's type, or do not derive it"
    )]
    pub trait FieldIsSendable: Sendable {
        /// Names the check: a field's type has this constant only if it is
        /// `Sendable`.
        const CHECKED: () = ();
    }

    // The error stays about the field: the compiler does not explain this
    // impl, or list `Sendable`'s impls, when a field's type lacks it.
    #[diagnostic::do_not_recommend]
    impl<T: ?Sized + Sendable> FieldIsSendable for T {}
}
