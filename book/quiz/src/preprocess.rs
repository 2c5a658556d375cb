//! The book's quiz preprocessor: `book.toml` runs this instead of
//! mdbook-quiz, and this runs mdbook-quiz, after the check has compiled
//! every quiz program, with the `rustc` of `shim` first on its `PATH`.
//!
//! mdbook sends a preprocessor `[context, book]` as JSON on its standard
//! input and reads the book back on its standard output; this program
//! writes nothing else there. Without mdbook-quiz (a reader who only
//! installed mdbook), the book is still built: each quiz is replaced by a
//! line that says how to install it.

use crate::check::{Options, check};
use crate::shim;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

/// The mdbook-quiz version the book is tested with.
pub fn pinned_version(root: &Path) -> Option<String> {
    std::fs::read_to_string(root.join("book/mdbook-quiz-version"))
        .ok()
        .map(|version| version.trim().to_owned())
}

/// mdbook-quiz: `MDBOOK_QUIZ` if it is set, else `target/tools/bin/mdbook-quiz` (where
/// `ci/test.sh` and `cargo xsafe book --install` put it), else the `PATH`'s.
pub fn find_mdbook_quiz(root: &Path) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("MDBOOK_QUIZ") {
        // Set to something that is not a file (`MDBOOK_QUIZ=none`), it
        // builds the book without quizzes.
        let path = PathBuf::from(path);
        return path.is_file().then_some(path);
    }
    let name = format!("mdbook-quiz{}", std::env::consts::EXE_SUFFIX);
    let installed = root.join("target/tools/bin").join(&name);
    if installed.is_file() {
        return Some(installed);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(&name))
            .find(|candidate| candidate.is_file())
    })
}

/// Runs the preprocessor with mdbook's arguments.
pub fn run(root: &Path, args: &[String]) -> ExitCode {
    let mdbook_quiz = find_mdbook_quiz(root);
    if args.first().map(String::as_str) == Some("supports") {
        let Some(mdbook_quiz) = mdbook_quiz else {
            return ExitCode::SUCCESS;
        };
        return match Command::new(&mdbook_quiz).args(args).status() {
            Ok(status) if status.success() => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        };
    }
    let mut input = Vec::new();
    if let Err(err) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("xsafe-book-quiz: cannot read mdbook's input: {err}");
        return ExitCode::FAILURE;
    }
    let pinned = pinned_version(root).unwrap_or_default();
    let Some(mdbook_quiz) = mdbook_quiz else {
        eprintln!(
            "warning: mdbook-quiz is not installed: the book is built without its quizzes \
             (`cargo xsafe book --install`, or `cargo install --locked mdbook-quiz --version ={pinned} --root target/tools`)"
        );
        return without_quizzes(&input, &pinned);
    };
    let version = Command::new(&mdbook_quiz)
        .arg("--version")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_default();
    if !version.ends_with(&format!(" {pinned}")) {
        eprintln!(
            "warning: {} is `{version}`; the book is tested with mdbook-quiz {pinned}",
            mdbook_quiz.display()
        );
    }

    let options = Options::course(root);
    let checked = match check(root, &options) {
        Ok(checked) => checked,
        Err(why) => {
            eprintln!("xsafe-book-quiz: cannot check the quizzes: {why}");
            return ExitCode::FAILURE;
        }
    };
    // A reader's toolchain may word things differently from the course's:
    // the strict check is `xsafe-book-quiz check`, which CI runs. Here the
    // verdicts feed mdbook-quiz's own validation, which still refuses a
    // wrong `doesCompile` or `stdout`.
    for problem in &checked.problems {
        eprintln!("warning: {problem}");
    }
    let (bin, verdicts) = match shim::install(&options.work.join("validator"), &checked.verdicts) {
        Ok(installed) => installed,
        Err(err) => {
            eprintln!("xsafe-book-quiz: cannot prepare mdbook-quiz's rustc: {err}");
            return ExitCode::FAILURE;
        }
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path)))
        .unwrap_or(path);
    let rustc = xsafe_rustc(root);
    let mut command = Command::new(&mdbook_quiz);
    command
        .args(args)
        .env("PATH", path)
        .env(shim::VERDICTS_VARIABLE, verdicts)
        .stdin(Stdio::piped())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
    if let Some(rustc) = rustc {
        command.env(shim::RUSTC_VARIABLE, rustc);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(err) => {
            eprintln!(
                "xsafe-book-quiz: cannot run {}: {err}",
                mdbook_quiz.display()
            );
            return ExitCode::FAILURE;
        }
    };
    if let Some(mut stdin) = child.stdin.take()
        && let Err(err) = stdin.write_all(&input)
    {
        eprintln!("xsafe-book-quiz: cannot hand the book to mdbook-quiz: {err}");
    }
    match child.wait() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(err) => {
            eprintln!("xsafe-book-quiz: mdbook-quiz did not finish: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The real `rustc` of the course's toolchain, for programs the check did
/// not build.
fn xsafe_rustc(root: &Path) -> Option<PathBuf> {
    crate::engine::Engine::new(root)
        .ok()
        .map(|engine| engine.rustc())
}

/// The book, with each `{{#quiz ...}}` replaced by how to get the quiz.
fn without_quizzes(input: &[u8], pinned: &str) -> ExitCode {
    let parsed: Result<serde_json::Value, _> = serde_json::from_slice(input);
    let Ok(serde_json::Value::Array(mut parts)) = parsed else {
        eprintln!("xsafe-book-quiz: mdbook's input is not `[context, book]`");
        return ExitCode::FAILURE;
    };
    if parts.len() != 2 {
        eprintln!("xsafe-book-quiz: mdbook's input is not `[context, book]`");
        return ExitCode::FAILURE;
    }
    let mut book = parts.remove(1);
    let note = format!(
        "> **Quiz.** A quiz on the section above stands here; this build of the book leaves it out: \
         mdbook-quiz is not installed. `cargo xsafe book --install` installs it, or \
         `cargo install --locked mdbook-quiz --version ={pinned} --root target/tools`."
    );
    replace_quizzes(&mut book, &note);
    match serde_json::to_writer(std::io::stdout().lock(), &book) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xsafe-book-quiz: cannot write the book: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Replaces every `{{#quiz ...}}` in the `content` of every chapter.
fn replace_quizzes(value: &mut serde_json::Value, note: &str) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match child {
                    serde_json::Value::String(text) if key == "content" => {
                        *text = without_quiz_lines(text, note);
                    }
                    _ => replace_quizzes(child, note),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                replace_quizzes(item, note);
            }
        }
        _ => {}
    }
}

fn without_quiz_lines(text: &str, note: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{#quiz ") {
        let Some(end) = rest[start..].find("}}") else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(note);
        rest = &rest[start + end + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without mdbook-quiz, each inclusion becomes the note and nothing
    /// else of the chapter changes.
    #[test]
    fn quizzes_become_a_note() {
        let mut book = serde_json::json!({
            "items": [{"Chapter": {"name": "One", "content": "# One\n\ntext\n\n## Quiz\n\n{{#quiz ../quizzes/one.toml}}\n",
                "sub_items": [{"Chapter": {"content": "{{#quiz a.toml}} and {{#quiz b.toml}}"}}]}}]
        });
        replace_quizzes(&mut book, "NOTE");
        assert_eq!(
            book["items"][0]["Chapter"]["content"],
            "# One\n\ntext\n\n## Quiz\n\nNOTE\n"
        );
        assert_eq!(
            book["items"][0]["Chapter"]["sub_items"][0]["Chapter"]["content"],
            "NOTE and NOTE"
        );
    }
}
