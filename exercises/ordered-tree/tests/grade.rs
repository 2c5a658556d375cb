//! Grades this crate with the cases in `grading/cases`, one test per step of
//! the method, in the order to work on them:
//!
//! ```text
//! cargo test -p ordered-tree --test grade
//! ```
//!
//! Each case starts with a comment that says what it proves. The manifest,
//! `grading/manifest.toml`, says which step each case belongs to.

#[test]
fn step_1_definition() {
    xsafe_grade::grade_step(env!("CARGO_MANIFEST_DIR"), "definition");
}

#[test]
fn step_2_enforcement() {
    xsafe_grade::grade_step(env!("CARGO_MANIFEST_DIR"), "enforcement");
}

#[test]
fn step_3_consumption() {
    xsafe_grade::grade_step(env!("CARGO_MANIFEST_DIR"), "consumption");
}
