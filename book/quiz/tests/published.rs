//! The quizzes are installed, checked and built the same way everywhere
//! the book is built for readers: `ci/test.sh` and the Pages workflow
//! install the mdbook-quiz of `book/mdbook-quiz-version` (and no other
//! version is spelled anywhere), run the answer check before building the
//! book, and `book.toml` builds quizzes through this crate's preprocessor.

use std::path::PathBuf;

fn read(relative: &str) -> String {
    let path: PathBuf = xsafe_book_quiz::course_root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The position of `needle` in `text`, or a failure naming `file`.
fn at(file: &str, text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("{file} does not contain `{needle}`"))
}

#[test]
fn test_script_and_pages_install_check_and_build_alike() {
    let version = read("book/mdbook-quiz-version");
    let version = version.trim();
    assert!(
        version.split('.').count() == 3
            && version.split('.').all(|part| part.parse::<u32>().is_ok()),
        "book/mdbook-quiz-version holds one version, MAJOR.MINOR.PATCH: `{version}`"
    );
    for (file, install) in [
        (
            "ci/test.sh",
            "cargo install --locked --quiet mdbook-quiz --version \"=$mdbook_quiz_version\"",
        ),
        (
            "ci/templates/github/book-pages.yml",
            "cargo install --locked mdbook-quiz --version =$(cat book/mdbook-quiz-version)",
        ),
    ] {
        let text = read(file);
        let installed = at(file, &text, install);
        let checked = at(file, &text, "-p xsafe-book-quiz -- check");
        let built = at(file, &text, "build book");
        assert!(
            installed < checked && checked < built,
            "{file} installs mdbook-quiz, then checks the quizzes, then builds the book"
        );
        assert!(
            !text.contains(&format!("mdbook-quiz --version ={version}"))
                && !text.contains(&format!("mdbook-quiz@{version}")),
            "{file} spells the version instead of reading book/mdbook-quiz-version"
        );
    }
    assert!(read("ci/test.sh").contains("mdbook_quiz_version=$(cat book/mdbook-quiz-version)"));
    assert!(
        read("ci/templates/github/book-pages.yml")
            .contains("hashFiles('book/mdbook-quiz-version')"),
        "the Pages workflow's tool cache is keyed on the mdbook-quiz version too"
    );
    assert!(
        read("tools/xsafe/src/book.rs")
            .contains("include_str!(\"../../../book/mdbook-quiz-version\")"),
        "`cargo xsafe book --install` installs the same version"
    );
    let book = read("book/book.toml");
    assert!(
        book.contains("[preprocessor.quiz]")
            && book.contains("--package xsafe-book-quiz -- preprocess"),
        "book.toml draws the quizzes through xsafe-book-quiz's preprocessor"
    );
}

/// No setting of mdbook-quiz that reports to a server is on: its bug
/// reporter stays off, and no script the book adds defines the
/// `window.telemetry` that mdbook-quiz would send answers to. (The browser
/// test checks the page itself: `window.telemetry` is undefined, and
/// nothing is fetched from anywhere else.)
#[test]
fn no_telemetry_is_configured() {
    let book: toml::Table = read("book/book.toml").parse().expect("book.toml is TOML");
    let quiz = book
        .get("preprocessor")
        .and_then(|preprocessors| preprocessors.get("quiz"))
        .and_then(toml::Value::as_table)
        .expect("book.toml has [preprocessor.quiz]");
    for setting in ["show-bug-reporter", "show_bug_reporter"] {
        assert!(
            !quiz.contains_key(setting),
            "book.toml sets `{setting}` for the quizzes"
        );
    }
    let scripts = book
        .get("output")
        .and_then(|output| output.get("html"))
        .and_then(|html| html.get("additional-js"))
        .and_then(toml::Value::as_array)
        .cloned()
        .unwrap_or_default();
    for script in scripts {
        let script = script.as_str().unwrap_or_default().to_owned();
        assert!(
            !read(&format!("book/{script}")).contains("telemetry"),
            "book/{script} mentions telemetry"
        );
    }
}
