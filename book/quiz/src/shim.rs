//! mdbook-quiz's own validator, kept on with the course's compiler.
//!
//! When mdbook builds the book, mdbook-quiz validates every quiz file (its
//! schema, unique ids, multiple-choice answers) and, for a Tracing
//! question, writes the program to `main.rs` in a temporary folder, runs
//! `rustc main.rs -A warnings` there, and checks `doesCompile` (and runs
//! `./main` and compares `stdout`). That `rustc` is whatever `rustc` the
//! `PATH` finds, and plain `rustc` cannot compile a program that uses a
//! chapter's crate.
//!
//! So the preprocessor command (`xsafe-book-quiz preprocess`) puts a
//! folder first on mdbook-quiz's `PATH` that holds this program under the
//! name `rustc`. Called so, it answers from the verdicts of the check that
//! just ran: for a program the check built (found by its content), it
//! copies the executable the engine built from it to where rustc would
//! have written it and succeeds, or prints the compiler's errors and
//! fails. mdbook-quiz then makes its own checks on real results: it runs
//! the real executable and compares what it prints. A program the check
//! did not build goes to the real `rustc`, as it would without this.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use xsafe_course::git_blob_id;

/// The variable that names the verdicts file.
pub const VERDICTS_VARIABLE: &str = "XSAFE_QUIZ_VERDICTS";
/// The variable that names the real `rustc`.
pub const RUSTC_VARIABLE: &str = "XSAFE_QUIZ_RUSTC";

/// What the compiler made of one program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// Whether it compiled.
    pub compiled: bool,
    /// The executable built from it, if it compiled.
    pub executable: Option<PathBuf>,
    /// The compiler's errors, rendered, if it did not.
    pub errors: String,
}

/// The verdicts of a check, by the git blob id of each program's text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdicts(BTreeMap<String, Verdict>);

impl Verdicts {
    /// The verdict on the program whose blob id is `key`.
    pub fn get(&self, key: &str) -> Option<&Verdict> {
        self.0.get(key)
    }

    /// Records a verdict.
    pub fn insert(&mut self, key: String, verdict: Verdict) {
        self.0.insert(key, verdict);
    }

    /// The verdict on a program's text.
    pub fn of(&self, program: &str) -> Option<&Verdict> {
        self.get(&git_blob_id(program.as_bytes()))
    }

    /// How many programs have a verdict.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no program has one.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Writes `verdicts` into `dir` with this program as `dir/bin/rustc`, and
/// returns `(bin, verdicts file)`: the folder to put first on mdbook-quiz's
/// `PATH`, and the value of [`VERDICTS_VARIABLE`].
pub fn install(dir: &Path, verdicts: &Verdicts) -> std::io::Result<(PathBuf, PathBuf)> {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin)?;
    let file = dir.join("verdicts.json");
    let json = serde_json::to_string_pretty(verdicts).map_err(std::io::Error::other)?;
    std::fs::write(&file, json)?;
    let me = std::env::current_exe()?;
    let shim = bin.join(format!("rustc{}", std::env::consts::EXE_SUFFIX));
    let same = match (std::fs::read(&me), std::fs::read(&shim)) {
        (Ok(mine), Ok(theirs)) => mine == theirs,
        _ => false,
    };
    if !same {
        // A new file rather than an overwrite: a running copy keeps its own.
        let _ = std::fs::remove_file(&shim);
        std::fs::copy(&me, &shim)?;
    }
    Ok((bin, file))
}

/// The `rustc` that mdbook-quiz's validator calls: `args` are its
/// arguments (`main.rs -A warnings`).
pub fn rustc(args: Vec<OsString>) -> ExitCode {
    let source = args
        .iter()
        .map(PathBuf::from)
        .find(|arg| arg.extension().is_some_and(|ext| ext == "rs"));
    let output = args
        .iter()
        .position(|arg| arg == "-o")
        .and_then(|at| args.get(at + 1))
        .map(PathBuf::from);
    let verdict = source.as_ref().and_then(|source| {
        let text = std::fs::read_to_string(source).ok()?;
        let file = std::env::var_os(VERDICTS_VARIABLE)?;
        let json = std::fs::read_to_string(file).ok()?;
        let verdicts: Verdicts = serde_json::from_str(&json).ok()?;
        verdicts.of(&text).cloned()
    });
    let Some(verdict) = verdict else {
        return real_rustc(args);
    };
    if !verdict.compiled {
        eprintln!("{}", verdict.errors);
        return ExitCode::FAILURE;
    }
    let (Some(executable), Some(source)) = (verdict.executable, source) else {
        eprintln!("xsafe-book-quiz: the check compiled this program but recorded no executable");
        return ExitCode::FAILURE;
    };
    // Where rustc would write it: `-o`, else the source's stem, here.
    let output = output.unwrap_or_else(|| {
        let stem = source.file_stem().map(OsString::from).unwrap_or_default();
        let mut name = stem;
        name.push(std::env::consts::EXE_SUFFIX);
        PathBuf::from(name)
    });
    match std::fs::copy(&executable, &output) {
        Ok(_) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!(
                "xsafe-book-quiz: cannot copy {} to {}: {err}",
                executable.display(),
                output.display()
            );
            ExitCode::FAILURE
        }
    }
}

/// Hands a program the check did not build to the real `rustc`.
fn real_rustc(args: Vec<OsString>) -> ExitCode {
    let Some(rustc) = std::env::var_os(RUSTC_VARIABLE) else {
        eprintln!(
            "xsafe-book-quiz: not a program of the book's quizzes, and {RUSTC_VARIABLE} names no rustc"
        );
        return ExitCode::FAILURE;
    };
    match Command::new(rustc).args(args).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => ExitCode::from(status.code().map_or(1, |code| code.clamp(1, 255) as u8)),
        Err(err) => {
            eprintln!("xsafe-book-quiz: cannot run rustc: {err}");
            ExitCode::FAILURE
        }
    }
}
