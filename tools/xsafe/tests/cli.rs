//! Drives the real `xsafe` binary.

use assert_cmd::Command;
use predicates::str::contains;

/// With no command it lists the exercises and names the first one, its
/// chapter and the command that grades it.
#[test]
fn start_names_the_first_exercise() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .assert()
        .success()
        .stdout(contains("1. ordered-tree"))
        .stdout(contains("Start with `ordered-tree`"))
        .stdout(contains("cargo test -p ordered-tree"))
        .stdout(contains("Each step"))
        .stdout(contains("book/src/ordered-tree.md"));
}

/// Without mdbook, `book` says how to get it and exits with 2 ("could not
/// run"), not with a crash.
#[test]
fn book_without_mdbook_explains() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["book", "--no-serve"])
        .env("XSAFE_MDBOOK", "/nonexistent/mdbook")
        .env("PATH", "/nonexistent")
        .args(["--course", concat!(env!("CARGO_MANIFEST_DIR"), "/../..")])
        .assert()
        .code(2)
        .stderr(contains("mdbook is not installed"))
        .stderr(contains("cargo xsafe book --install"));
}

/// A folder that is not the course is refused with a clear message.
#[test]
fn not_a_course() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["--course", "/"])
        .assert()
        .code(2)
        .stderr(contains("does not look like the X-safe Rust course"));
}
