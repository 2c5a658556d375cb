//! The learner's tool checks the compile-fail cases that passed in its last
//! grade in one compiler run, as the modules of one program.
//!
//! **Invariant**: a compile-fail case is decided from the batch only when
//! it passes there: every error its annotations require was reported at its
//! lines, every error reported in the batch points into exactly one case
//! file, none of them is unexpected for its case, and the batch did not
//! compile. Every other case (all of them, when an error points into no
//! case file or the batch compiled) is built alone, as the instructor's
//! grader builds every case, and decided from that build.
//!
//! Why a pass in the batch is a pass alone: the compiler checks each item
//! and body on its own, and a module sees another module's items only
//! through paths it writes (no case file names another), so a case's
//! errors in the batch are errors it has alone. What the batch can do is
//! hide errors: once any module has errors, the compiler stops before its
//! later checks (privacy of types, lints), and one module's errors may
//! stop another's from being reported. A case that expects such an error
//! then does not pass in the batch, and is built alone. A case that passes
//! in the batch has errors from the checks before that stop, and alone it
//! stops at the same point.
//!
//! Only the learner's tool batches ([`crate::Freshness::Kept`]): its loop
//! runs after every save, and each compile-fail case alone is a compiler
//! process of about 60 ms of processor time (16 cases in the fine print:
//! about 1 s of processor time per grade, against about 0.2 s for the
//! batch). Crates with procedural macros of the learner's are not batched
//! (their recordings are made per program). The instructor's grader builds
//! each case alone.

use crate::build::{BuildRun, is_error};
use crate::compile_fail::{ReportedError, verdict};
use crate::outcome::{CaseOutcome, Status};
use crate::project::Batch;
use cargo_metadata::diagnostic::Diagnostic;
use std::collections::BTreeMap;
use std::path::Path;
use xsafe_course::{Case, Expectations, Manifest};

/// The file, in the grade's work folder, that lists the compile-fail cases
/// that passed in the last grade, one name per line.
const PASSED: &str = "compile-fail-passed";

/// The cases that the last batch could not decide ([`set_aside`]).
const UNDECIDED: &str = "compile-fail-undecided";

/// The cases that passed alone after a batch could not decide them: their
/// errors are of the kind a batch hides (a check the compiler makes only
/// when no module has errors, such as privacy), so they are built alone
/// from then on.
const ALONE: &str = "compile-fail-alone";

/// The names listed in `file` of `work`.
fn names_in(work: &Path, file: &str) -> std::collections::BTreeSet<String> {
    std::fs::read_to_string(work.join(file))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Writes `names` to `file` of `work`, one per line.
fn write_names(work: &Path, file: &str, names: &std::collections::BTreeSet<String>) {
    let text: String = names.iter().map(|name| format!("{name}\n")).collect();
    let _ = std::fs::write(work.join(file), text);
}

/// Notes the cases this grade's batch could not decide: those of them that
/// then pass alone are not batched again ([`remember`]).
pub fn set_aside(work: &Path, cases: &[Case]) {
    write_names(work, UNDECIDED, &cases.iter().map(Case::name).collect());
}

/// The compile-fail cases to batch in this grade: those of `cases` that
/// passed in the last grade in `work` (a case that passed is likely to
/// pass again, and one that failed would be built alone anyway), but for
/// those a batch could not decide and that passed alone. None when fewer
/// than two.
pub fn members<'a>(cases: &'a [Case], work: &Path) -> Vec<&'a Case> {
    let passed = names_in(work, PASSED);
    let alone = names_in(work, ALONE);
    let members: Vec<&Case> = cases
        .iter()
        .filter(|case| passed.contains(&case.name()) && !alone.contains(&case.name()))
        .collect();
    if members.len() < 2 {
        return Vec::new();
    }
    members
}

/// Remembers, for the next grade's batch, which of the compile-fail cases
/// `graded` in this grade passed (`passed`); what it remembered of the
/// other cases stays. A failure to write only makes the next grade slower.
pub fn remember(work: &Path, graded: &[Case], passed: impl Fn(&str) -> bool) {
    let mut names = names_in(work, PASSED);
    let undecided = names_in(work, UNDECIDED);
    let mut alone = names_in(work, ALONE);
    for case in graded {
        let name = case.name();
        if passed(&name) {
            if undecided.contains(&name) {
                alone.insert(name.clone());
            }
            names.insert(name);
        } else {
            names.remove(&name);
        }
    }
    write_names(work, PASSED, &names);
    write_names(work, ALONE, &alone);
    let _ = std::fs::remove_file(work.join(UNDECIDED));
}

/// What the batch decided: the outcome of each case that passed in it, by
/// name, and the cases to build alone.
#[derive(Debug, Default)]
pub struct Decided {
    /// The cases that passed in the batch.
    pub passed: BTreeMap<String, CaseOutcome>,
    /// The cases the batch cannot decide.
    pub alone: Vec<Case>,
    /// Whether the batch as a whole decided nothing (it compiled, a limit
    /// stopped it, or an error pointed into no case file), rather than
    /// each case in `alone` on its own errors.
    pub wholesale: bool,
}

/// Decides what the batch can from `run`, the build that built it in the
/// workspace at `workspace`.
pub fn decide(
    batch: &Batch,
    run: &BuildRun,
    manifest: &Manifest,
    expectations: &BTreeMap<String, Expectations>,
    workspace: &Path,
) -> Decided {
    let everyone_alone = || Decided {
        passed: BTreeMap::new(),
        alone: batch.cases.clone(),
        wholesale: true,
    };
    if run.built(&batch.source) || run.stopped_because().is_some() {
        return everyone_alone();
    }
    let files: Vec<std::path::PathBuf> = batch
        .cases
        .iter()
        .map(|case| manifest.case_path(case))
        .collect();
    let mut by_case: Vec<Vec<&Diagnostic>> = vec![Vec::new(); files.len()];
    let mut errors = 0;
    for diagnostic in run.diagnostics(&batch.source) {
        let into: Vec<usize> = files
            .iter()
            .enumerate()
            .filter(|(_, file)| {
                ReportedError::read(diagnostic, file, workspace)
                    .line
                    .is_some()
            })
            .map(|(index, _)| index)
            .collect();
        match into.as_slice() {
            [index] => by_case[*index].push(diagnostic),
            _ if is_error(diagnostic) => return everyone_alone(),
            _ => {}
        }
        if is_error(diagnostic) {
            errors += 1;
        }
    }
    if errors == 0 {
        return everyone_alone();
    }
    let mut decided = Decided::default();
    for ((case, file), diagnostics) in batch.cases.iter().zip(&files).zip(&by_case) {
        let Some(expected) = expectations.get(&case.name()) else {
            decided.alone.push(case.clone());
            continue;
        };
        let outcome = verdict(expected, diagnostics, false, file, workspace, &|text| {
            text.to_owned()
        });
        if outcome.status == Status::Passed {
            decided.passed.insert(case.name(), outcome);
        } else {
            decided.alone.push(case.clone());
        }
    }
    decided
}
