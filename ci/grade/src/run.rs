//! Grading a crate from outside: run its `compile_fail` and `behaviour` test
//! targets in child `cargo test`s and map their reports onto the manifest's
//! cases.

use crate::limits::{Bounded, Ending, Limits, run_bounded};
use crate::manifest::{Case, Expect, Manifest, ManifestError, StepName};
use crate::outcome::{
    CaseOutcome, Status, TestResult, parse_libtest_report, parse_trybuild_report,
};
use crate::parallel::in_parallel;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;

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
    /// The time and output limits of every build and run.
    pub limits: Limits,
}

impl GradeRequest {
    /// Grades `crate_dir` with the default limits, building into its own
    /// `target/`.
    pub fn new(crate_dir: impl Into<PathBuf>) -> GradeRequest {
        GradeRequest {
            crate_dir: crate_dir.into(),
            target_dir: None,
            limits: Limits::default(),
        }
    }
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
/// Every build and run is bounded by the request's [`Limits`]: a case that
/// hangs, floods its output or crashes is [`Status::Stopped`] with the
/// reason, and grading goes on with the next one.
pub fn grade_crate(request: &GradeRequest) -> Result<Grade, GradeError> {
    let manifest = Manifest::load(&request.crate_dir.join("grading"))?;
    let mut log = String::new();
    let mut found: Vec<(String, CaseOutcome)> = Vec::new();

    // Compile-fail cases: one trybuild batch per step, each in its own
    // bounded `cargo test`, so a step that hangs the compiler costs only
    // that step's cases.
    for step in StepName::ALL {
        let cases: Vec<&Case> = manifest
            .cases_of(step)
            .filter(|case| case.expect == Expect::CompileFail)
            .collect();
        if cases.is_empty() {
            continue;
        }
        let run = cargo_test(
            request,
            &["--test", "compile_fail"],
            &["--exact", step.as_str(), "--test-threads", "1"],
        )?;
        log.push_str(&run.stdout);
        log.push_str(&run.stderr);
        let reported = parse_trybuild_report(&run.stderr);
        let ran = run.stdout.contains("running ");
        for case in cases {
            let path = manifest.case_path(case);
            let outcome = reported
                .iter()
                .find(|outcome| request.crate_dir.join(&outcome.path) == path)
                .cloned()
                .unwrap_or_else(|| match run.stopped_because() {
                    Some(why) => stopped(
                        case,
                        format!("the compile-fail batch of the {step} step was {why}"),
                        &run.stderr,
                    ),
                    None => not_run(case, ran, &run.stderr),
                });
            found.push((case.name(), outcome));
        }
    }

    // Behaviour cases: one test binary, built once, then run once per case
    // with the case's own time limit, several at a time.
    let pass_cases: Vec<&Case> = manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::Pass)
        .collect();
    if !pass_cases.is_empty() {
        let build = cargo_test(
            request,
            &[
                "--test",
                "behaviour",
                "--no-run",
                "--message-format",
                "json-render-diagnostics",
            ],
            &[],
        )?;
        log.push_str(&build.stderr);
        match behaviour_executable(&build) {
            Some(executable) => {
                let runs = run_cases(request, &executable, &pass_cases);
                for (case, run) in pass_cases.iter().zip(runs) {
                    log.push_str(&run.log);
                    found.push((case.name(), run.outcome));
                }
            }
            None => {
                for case in &pass_cases {
                    let outcome = match build.stopped_because() {
                        Some(why) => stopped(
                            case,
                            format!("building the behaviour cases was {why}"),
                            &build.stderr,
                        ),
                        None => not_run(case, false, &build.stderr),
                    };
                    found.push((case.name(), outcome));
                }
            }
        }
    }

    let outcomes = manifest
        .cases
        .iter()
        .map(|case| {
            let name = case.name();
            let outcome = found
                .iter()
                .find(|(found, _)| *found == name)
                .map(|(_, outcome)| outcome.clone())
                .unwrap_or_else(|| CaseOutcome {
                    path: case.file.clone(),
                    status: Status::NotRun("the grader has no runner for this case".to_owned()),
                    details: String::new(),
                });
            (case.clone(), outcome)
        })
        .collect();
    Ok(Grade {
        manifest,
        outcomes,
        log,
    })
}

/// Runs `cargo test --manifest-path CRATE CARGO_ARGS -- TEST_ARGS`, bounded
/// by the build limit, in the request's target directory.
fn cargo_test(
    request: &GradeRequest,
    cargo_args: &[&str],
    test_args: &[&str],
) -> Result<Bounded, GradeError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("test")
        .arg("--manifest-path")
        .arg(request.crate_dir.join("Cargo.toml"))
        .args(cargo_args)
        .args(["--color", "never", "--"])
        .args(test_args)
        .args(["--color", "never"]);
    quiet_environment(&mut command);
    // A snapshot is never rewritten while grading, whatever the caller's
    // environment says.
    command.env_remove("TRYBUILD");
    if let Some(target_dir) = &request.target_dir {
        command.env("CARGO_TARGET_DIR", target_dir);
    }
    run_bounded(
        command,
        request.limits.build_time,
        request.limits.output_bytes,
    )
    .map_err(GradeError::Cargo)
}

fn quiet_environment(command: &mut Command) {
    command
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        // A failing case's panic is what matters, not the runtime's frames.
        .env("RUST_BACKTRACE", "0");
}

/// The test binary that `cargo test --no-run --message-format json...`
/// reported building, if it did.
fn behaviour_executable(build: &Bounded) -> Option<PathBuf> {
    if !matches!(build.ending, Ending::Exited(status) if status.success()) {
        return None;
    }
    cargo_metadata::Message::parse_stream(build.stdout.as_bytes())
        .filter_map(Result::ok)
        .find_map(|message| match message {
            cargo_metadata::Message::CompilerArtifact(artifact)
                if artifact.target.name == "behaviour" =>
            {
                artifact.executable.map(PathBuf::from)
            }
            _ => None,
        })
}

/// One behaviour case's run.
struct CaseRun {
    outcome: CaseOutcome,
    log: String,
}

/// Runs every case's tests in their own bounded process, as many at a time
/// as the machine has cores, and returns the runs in the order of `cases`.
fn run_cases(request: &GradeRequest, executable: &Path, cases: &[&Case]) -> Vec<CaseRun> {
    let workers = thread::available_parallelism().map_or(1, usize::from);
    in_parallel(cases, workers, |case| run_case(request, executable, case))
}

/// Runs the tests of one behaviour case, in their own bounded process.
fn run_case(request: &GradeRequest, executable: &Path, case: &Case) -> CaseRun {
    let prefix = format!("{}::", case.name().replace('/', "::"));
    let mut command = Command::new(executable);
    command
        .arg(&prefix)
        .args(["--color", "never"])
        // Under cargo, libtest runs the tests from the package's folder.
        .current_dir(&request.crate_dir)
        .env("CARGO_MANIFEST_DIR", &request.crate_dir);
    quiet_environment(&mut command);
    let run = match run_bounded(
        command,
        request.limits.case_time,
        request.limits.output_bytes,
    ) {
        Ok(run) => run,
        Err(err) => {
            return CaseRun {
                outcome: stopped(case, format!("its test binary could not start: {err}"), ""),
                log: String::new(),
            };
        }
    };
    let log = format!("{}{}", run.stdout, run.stderr);
    let outcome = if let Some(why) = run.stopped_because() {
        stopped(case, format!("it was {why}"), &run.stderr)
    } else if run.stderr.contains("has overflowed its stack") {
        stopped(case, "it overflowed its stack".to_owned(), &run.stderr)
    } else if !run.stdout.contains("test result: ") {
        let how = match run.ending {
            Ending::Exited(status) => status.to_string(),
            _ => "stopped".to_owned(),
        };
        stopped(
            case,
            format!("its test process crashed ({how})"),
            &run.stderr,
        )
    } else {
        behaviour_outcome(case, &parse_libtest_report(&run.stdout))
    };
    CaseRun { outcome, log }
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

fn not_run(case: &Case, ran: bool, stderr: &str) -> CaseOutcome {
    // cargo names the target that failed: `could not compile `NAME` (lib)`.
    let library_failed = stderr
        .lines()
        .any(|line| line.contains("could not compile") && line.contains("(lib)"));
    let reason = if ran {
        "the test run stopped before it reached this case"
    } else if case.expect == Expect::Pass && !library_failed {
        "the behaviour cases do not compile against this crate"
    } else {
        "the crate does not compile"
    };
    CaseOutcome {
        path: case.file.clone(),
        status: Status::NotRun(reason.to_owned()),
        details: stderr_errors(stderr),
    }
}

fn stopped(case: &Case, reason: String, stderr: &str) -> CaseOutcome {
    CaseOutcome {
        path: case.file.clone(),
        status: Status::Stopped(reason),
        details: tail(stderr, 40),
    }
}

/// The last `lines` lines of `text`.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.trim().lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The error messages in cargo's output, without its progress lines.
fn stderr_errors(stderr: &str) -> String {
    let start = stderr
        .find("error")
        .or_else(|| stderr.find("ERROR"))
        .unwrap_or(stderr.len());
    stderr[start..].trim().to_owned()
}
