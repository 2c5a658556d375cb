//! The exercise's behaviour cases, from `grading/manifest.toml`: each case
//! file under `grading/cases/STEP/` becomes the module `STEP::CASE`, and its
//! tests run as `STEP::CASE::TEST`.
//!
//! ```text
//! cargo test -p witness-types --test behaviour enforcement   # one step
//! ```

xsafe_grade::behaviour_cases!();
