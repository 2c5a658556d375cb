//! mdbook's version is written once, in `book/mdbook-version`: the test
//! command, the Pages workflow and the learner's `cargo xsafe book
//! --install` read it from there, and none of them spells a version.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|err| panic!("{relative}: {err}"))
}

#[test]
fn mdbook_version_is_written_once() {
    let version = read("book/mdbook-version");
    let version = version.trim();
    let parts: Vec<&str> = version.split('.').collect();
    assert!(
        parts.len() == 3
            && parts
                .iter()
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit())),
        "book/mdbook-version holds one version, MAJOR.MINOR.PATCH: `{version}`"
    );
    let readers = [
        ("ci/test.sh", "mdbook_version=$(cat book/mdbook-version)"),
        (
            "ci/templates/github/book-pages.yml",
            "--version =$(cat book/mdbook-version)",
        ),
        (
            "ci/templates/github/book-pages.yml",
            "hashFiles('book/mdbook-version')",
        ),
        (
            "tools/xsafe/src/book.rs",
            "include_str!(\"../../../book/mdbook-version\")",
        ),
    ];
    for (file, reads) in readers {
        let text = read(file);
        assert!(text.contains(reads), "{file} reads the version: `{reads}`");
        assert!(
            !text.contains(version),
            "{file} spells mdbook's version {version}; read book/mdbook-version instead"
        );
    }
}
