//! Writes, or checks, the corpus of type definitions that grades the
//! `send-marker` exercise's derive (see `xsafe_grading_proofs::corpus`):
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin corpus              # are the files current?
//! cargo run -p xsafe-grading-proofs --bin corpus -- --write   # rewrite them
//! ```

use std::process::ExitCode;
use xsafe_grading_proofs::{corpus, course_root};

fn main() -> ExitCode {
    let write = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--write") => true,
        Some(other) => {
            eprintln!("error: unknown argument `{other}` (usage: corpus [--write])");
            return ExitCode::from(2);
        }
    };
    let root = course_root();
    let mut stale = 0;
    for (path, text) in corpus::files() {
        let file = root.join(path);
        let current = std::fs::read_to_string(&file).ok();
        if current.as_deref() == Some(text.as_str()) {
            println!("{path}: current");
            continue;
        }
        if write {
            if let Err(err) = std::fs::write(&file, &text) {
                eprintln!("error: {}: {err}", file.display());
                return ExitCode::FAILURE;
            }
            println!("{path}: written");
        } else {
            println!("{path}: stale (run with --write)");
            stale += 1;
        }
    }
    if stale > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
