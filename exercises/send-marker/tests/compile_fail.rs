//! The exercise's compile-fail cases, one test per step: programs that send
//! what must not move, or grant the property without promising it, which the
//! compiler must reject with exactly the errors recorded in their `.stderr`
//! files (see `grading/manifest.toml`).
//!
//! ```text
//! cargo test -p send-marker                                   # every case
//! cargo test -p send-marker --test compile_fail enforcement   # one step
//! ```

xsafe_grade::compile_fail_cases!();
