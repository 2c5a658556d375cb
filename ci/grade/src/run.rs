//! Grading a crate from outside: run its `tests/grade.rs` in a child `cargo
//! test` and map trybuild's report onto the manifest's cases.

use crate::manifest::{Case, Manifest, ManifestError, StepName};
use crate::outcome::{CaseOutcome, Status, parse_trybuild_report};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to grade, and where to build it.
#[derive(Debug, Clone)]
pub struct GradeRequest {
    /// The crate under test: it has a `tests/grade.rs` target named `grade`
    /// and its cases in `grading/`.
    pub crate_dir: PathBuf,
    /// Cargo's target directory for the child build. It must not be the
    /// target directory of a `cargo` command that is still running (a `cargo
    /// test` holds its lock while its tests run).
    pub target_dir: Option<PathBuf>,
}

/// Why a crate could not be graded at all (as opposed to graded and failing).
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// The manifest is broken.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// cargo could not be started.
    #[error("cannot run cargo: {0}")]
    Cargo(#[source] std::io::Error),
}

/// The outcome of every case of an exercise.
#[derive(Debug, Clone)]
pub struct Grade {
    /// The manifest whose cases were run.
    pub manifest: Manifest,
    /// One outcome per case, in manifest order.
    pub outcomes: Vec<(Case, CaseOutcome)>,
    /// Everything the child `cargo test` printed, stdout then stderr.
    pub log: String,
}

impl Grade {
    /// The outcome of the case named `name` (such as `enforcement/no_node_literal`).
    pub fn outcome(&self, name: &str) -> Option<&CaseOutcome> {
        self.outcomes
            .iter()
            .find(|(case, _)| case.name() == name)
            .map(|(_, outcome)| outcome)
    }

    /// The names of the cases that did not pass, in manifest order.
    pub fn failing(&self) -> Vec<String> {
        self.outcomes
            .iter()
            .filter(|(_, outcome)| !outcome.status.is_pass())
            .map(|(case, _)| case.name())
            .collect()
    }

    /// Points earned, out of [`Manifest::total_points`].
    pub fn points(&self) -> u32 {
        self.outcomes
            .iter()
            .filter(|(_, outcome)| outcome.status.is_pass())
            .map(|(case, _)| case.points)
            .sum()
    }

    /// Points earned in one step, and the points the step is worth.
    pub fn step_points(&self, step: StepName) -> (u32, u32) {
        self.outcomes
            .iter()
            .filter(|(case, _)| case.step == step)
            .fold((0, 0), |(earned, total), (case, outcome)| {
                let won = if outcome.status.is_pass() {
                    case.points
                } else {
                    0
                };
                (earned + won, total + case.points)
            })
    }
}

/// Runs the crate's grade test and returns the outcome of every case.
///
/// A crate that does not compile is still graded: each case is then
/// [`Status::NotRun`], with the compiler's errors as its details.
pub fn grade_crate(request: &GradeRequest) -> Result<Grade, GradeError> {
    let manifest = Manifest::load(&request.crate_dir.join("grading"))?;

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("test")
        .arg("--manifest-path")
        .arg(request.crate_dir.join("Cargo.toml"))
        .args(["--test", "grade", "--color", "never", "--"])
        .args(["--test-threads", "1", "--color", "never"])
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        // A failing case's panic is what matters, not the runtime's frames.
        .env("RUST_BACKTRACE", "0");
    if let Some(target_dir) = &request.target_dir {
        command.env("CARGO_TARGET_DIR", target_dir);
    }
    let output = command.output().map_err(GradeError::Cargo)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let log = format!("{stdout}{stderr}");

    let reported = parse_trybuild_report(&stderr);
    let grade_ran = stdout.contains("running ");
    let outcomes = manifest
        .cases
        .iter()
        .map(|case| {
            let path = manifest.case_path(case);
            let outcome = reported
                .iter()
                .find(|outcome| request.crate_dir.join(&outcome.path) == path)
                .cloned()
                .unwrap_or_else(|| not_run(&path, grade_ran, &stderr));
            (case.clone(), outcome)
        })
        .collect();
    Ok(Grade {
        manifest,
        outcomes,
        log,
    })
}

fn not_run(path: &Path, grade_ran: bool, stderr: &str) -> CaseOutcome {
    let (reason, details) = if grade_ran {
        (
            "trybuild stopped before it reached this case",
            stderr_errors(stderr),
        )
    } else {
        ("the crate does not compile", stderr_errors(stderr))
    };
    CaseOutcome {
        path: path.to_path_buf(),
        status: Status::NotRun(reason.to_owned()),
        details,
    }
}

/// The error messages in cargo's output, without its progress lines.
fn stderr_errors(stderr: &str) -> String {
    let start = stderr
        .find("error")
        .or_else(|| stderr.find("ERROR"))
        .unwrap_or(stderr.len());
    stderr[start..].trim().to_owned()
}
