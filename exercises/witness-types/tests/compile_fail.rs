//! The exercise's compile-fail cases, one test per step: programs that break
//! the invariant from outside, which the compiler must reject with exactly
//! the errors recorded in their `.stderr` files (see `grading/manifest.toml`).
//!
//! ```text
//! cargo test -p witness-types                                   # every case
//! cargo test -p witness-types --test compile_fail enforcement   # one step
//! ```

xsafe_grade::compile_fail_cases!();
