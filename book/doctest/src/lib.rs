//! Checks every Rust block of the X-safe Rust book (see `build.rs`):
//!
//! * `cargo test -p xsafe-book-doctest --test skeptic` compiles and runs the
//!   self-contained blocks, with skeptic;
//! * `cargo test -p xsafe-book-doctest --doc` runs the blocks that use the
//!   course's crates and checks that the `compile_fail` blocks fail to
//!   compile. rustdoc checks their error codes only when nightly features
//!   are allowed, so `ci/test.sh` runs it with
//!   `RUSTDOC=ci/rustdoc-checking-error-codes`;
//! * `tests/blocks.rs` refuses blocks that nothing would check.

#[cfg(doctest)]
mod chapters {
    include!(concat!(env!("OUT_DIR"), "/rustdoc.rs"));
}
