//! The quizzes of the X-safe Rust book, and the check of their answer key.
//!
//! Each chapter of the book has quizzes, one after each section it tests
//! (`book/quizzes/NAME.SECTION.toml`, rendered by mdbook-quiz). Most questions show a program that uses the
//! chapter's crate and ask whether it compiles, and if not, where and why.
//! The answers cannot lie: [`check`] compiles every program against the
//! chapter's reference crate with the course's grading engine, judges each
//! rejected one by the same `//~` annotations as a grading case, runs each
//! one that compiles, and names every question whose answer the compiler
//! contradicts.
//!
//! * [`quiz`]: the quiz files and the rules they follow;
//! * [`check`]: the check;
//! * [`engine`]: the one module that calls the grading engine;
//! * [`shim`] and [`preprocess`]: mdbook-quiz's own validation, run with
//!   the check's verdicts when the book is built.

pub mod check;
pub mod engine;
pub mod preprocess;
pub mod quiz;
pub mod shim;

pub use check::{Checked, Options, check};

/// The course's root: this crate lives in `book/quiz`.
pub fn course_root() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}
