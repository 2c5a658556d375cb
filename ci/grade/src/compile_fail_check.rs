//! The learner's tool checks the compile-fail programs (`cargo check`: no
//! code generation, no linking) rather than building them, beside the
//! build of the programs it runs.
//!
//! **Invariant**: a compile-fail case gets the same status checked as
//! built. rustc reports every error of type checking, trait solving,
//! privacy, borrow checking and macro expansion before it generates code,
//! and generates code only when none was reported: so where a case's
//! program has any such error, checking and building report the same
//! errors. Where it has none, building can only add errors found while
//! generating code (a constant that fails to evaluate for one
//! instantiation, E0080; a linker error), and the case fails either way:
//! checked, because the program compiled; built, because no annotation
//! fits such an error. The exception is an annotation that such an error
//! could fit: one that names E0080, or that a text alone can satisfy (an
//! error with no code saying "lifetime may not live long enough", or any
//! error saying "union": a learner's derive could write a constant that
//! fails, with its own words, only when instantiated). A case with one of
//! those is built ([`may_be_checked`]), and so is a batch that holds one.
//!
//! What the proof `learner_tool_batch` shows: every variant of the course
//! that fails a compile-fail case fails exactly the cases it declares
//! when graded the tool's way. The instructor's grader always builds.
//!
//! On two cores a compile-fail program built beside the observing program
//! slowed the re-grade after each edit: with failing cases (the starter's)
//! each is compiled and linked in full. Checked in a target folder of
//! their own, they cost a fraction of that, and never wait for cargo's
//! lock behind the observing program, nor it behind them.

use crate::build::BuildRun;
use cargo_metadata::Message;
use std::path::PathBuf;
use xsafe_course::Expectations;

/// The error code of a constant that fails to evaluate, which rustc can
/// report while generating code.
const WHILE_GENERATING_CODE: &[&str] = &["E0080"];

/// Whether a compile-fail case with these annotations may be checked
/// rather than built: none of them could fit an error found only while
/// generating code.
pub fn may_be_checked(expectations: &Expectations) -> bool {
    expectations.errors.iter().all(|error| {
        let code_required = !error.codes.is_empty() && error.instead_of_code.is_empty();
        let names_one = error
            .codes
            .iter()
            .any(|code| WHILE_GENERATING_CODE.contains(&code.as_str()));
        code_required && !names_one
    })
}

/// `built` with the messages `checked` reported for the compile-fail
/// programs whose root sources are `sources` (the crate under test's own
/// errors come from the build alone), and the check's stop and cargo
/// errors, if any.
pub fn merge(mut built: BuildRun, checked: BuildRun, sources: &[PathBuf]) -> BuildRun {
    let ours = |message: &Message| {
        let source = match message {
            Message::CompilerMessage(message) => message.target.src_path.as_std_path(),
            Message::CompilerArtifact(artifact) => artifact.target.src_path.as_std_path(),
            _ => return false,
        };
        sources
            .iter()
            .any(|wanted| crate::build::same_path(wanted, source))
    };
    built
        .messages
        .extend(checked.messages.into_iter().filter(|message| ours(message)));
    built.stopped = built.stopped.or(checked.stopped);
    built.stderr.push_str(&checked.stderr);
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expectations(text: &str) -> Expectations {
        Expectations::parse(text).expect("the annotations parse")
    }

    #[test]
    fn cases_whose_annotations_only_fit_errors_before_code_generation_are_checked() {
        for text in [
            "let x = 1; //~ ERROR E0308\n",
            "a //~ ERROR E0277\nb //~ ERROR E0599|E0609\n",
            "a //~ ERROR E0277 \"Rc<String>\"\n",
        ] {
            assert!(may_be_checked(&expectations(text)), "{text}");
        }
    }

    #[test]
    fn cases_an_error_of_code_generation_could_pass_are_built() {
        for text in [
            "const X: u8 = f(); //~ ERROR E0080\n",
            "a //~ ERROR E0277\nconst X: u8 = f(); //~ ERROR E0080\n",
            "x //~ ERROR \"lifetime may not live long enough\"\n",
            "#[derive(Sendable)] //~ ERROR \"union\"|\"Sendable\"\n",
        ] {
            assert!(!may_be_checked(&expectations(text)), "{text}");
        }
    }
}
