//! Grading a crate from outside: run its `compile_fail` and `behaviour` test
//! targets in child `cargo test`s and map their reports onto the manifest's
//! cases.

use crate::manifest::{Case, Expect, Manifest, ManifestError, StepName};
use crate::outcome::{
    CaseOutcome, Status, TestResult, parse_libtest_report, parse_trybuild_report,
};
use std::path::PathBuf;
use std::process::Command;

/// What to grade, and where to build it.
#[derive(Debug, Clone)]
pub struct GradeRequest {
    /// The crate under test: it has the test targets `compile_fail` and
    /// `behaviour` and its cases in `grading/`.
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
    /// Everything the child `cargo test`s printed.
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

/// Runs the crate's compile-fail and behaviour tests and returns the
/// outcome of every case.
///
/// A crate that does not compile is still graded: the cases that could not
/// run are [`Status::NotRun`], with the compiler's errors as their details.
pub fn grade_crate(request: &GradeRequest) -> Result<Grade, GradeError> {
    let manifest = Manifest::load(&request.crate_dir.join("grading"))?;
    let compile_fail = run_test_target(request, "compile_fail")?;
    let behaviour = run_test_target(request, "behaviour")?;
    let log = format!(
        "{}{}{}{}",
        compile_fail.stdout, compile_fail.stderr, behaviour.stdout, behaviour.stderr
    );

    let reported = parse_trybuild_report(&compile_fail.stderr);
    let tests = parse_libtest_report(&behaviour.stdout);
    let outcomes = manifest
        .cases
        .iter()
        .map(|case| {
            let outcome = match case.expect {
                Expect::CompileFail => {
                    let path = manifest.case_path(case);
                    reported
                        .iter()
                        .find(|outcome| request.crate_dir.join(&outcome.path) == path)
                        .cloned()
                        .unwrap_or_else(|| not_run(case, &compile_fail))
                }
                Expect::Pass if behaviour.ran => behaviour_outcome(case, &tests),
                Expect::Pass => not_run(case, &behaviour),
            };
            (case.clone(), outcome)
        })
        .collect();
    Ok(Grade {
        manifest,
        outcomes,
        log,
    })
}

/// What one `cargo test --test TARGET` printed.
struct TargetRun {
    stdout: String,
    stderr: String,
    /// Whether the test binary was built and started.
    ran: bool,
}

fn run_test_target(request: &GradeRequest, target: &str) -> Result<TargetRun, GradeError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("test")
        .arg("--manifest-path")
        .arg(request.crate_dir.join("Cargo.toml"))
        .args([
            "--test", target, "--color", "never", "--", "--color", "never",
        ])
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        // A failing case's panic is what matters, not the runtime's frames.
        .env("RUST_BACKTRACE", "0");
    if target == "compile_fail" {
        // One trybuild batch at a time keeps its report in case order.
        command.args(["--test-threads", "1"]);
    }
    if let Some(target_dir) = &request.target_dir {
        command.env("CARGO_TARGET_DIR", target_dir);
    }
    let output = command.output().map_err(GradeError::Cargo)?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    Ok(TargetRun {
        ran: stdout.contains("running "),
        stdout,
        stderr,
    })
}

/// A behaviour case passes when it has tests and all of them pass.
fn behaviour_outcome(case: &Case, tests: &[TestResult]) -> CaseOutcome {
    let prefix = format!("{}::", case.name().replace('/', "::"));
    let mine: Vec<&TestResult> = tests
        .iter()
        .filter(|test| test.name.starts_with(&prefix))
        .collect();
    let status = if mine.is_empty() {
        Status::NotRun("the case has no test that ran".to_owned())
    } else if mine.iter().all(|test| test.passed) {
        Status::Passed
    } else {
        Status::Failed
    };
    let details = mine
        .iter()
        .filter(|test| !test.passed)
        .map(|test| format!("test {} failed:\n{}", test.name, test.output))
        .collect::<Vec<_>>()
        .join("\n\n");
    CaseOutcome {
        path: case.file.clone(),
        status,
        details,
    }
}

fn not_run(case: &Case, run: &TargetRun) -> CaseOutcome {
    let reason = if run.ran {
        "the test run stopped before it reached this case"
    } else if case.expect == Expect::Pass {
        "the behaviour cases do not compile against this crate"
    } else {
        "the crate does not compile"
    };
    CaseOutcome {
        path: case.file.clone(),
        status: Status::NotRun(reason.to_owned()),
        details: stderr_errors(&run.stderr),
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
