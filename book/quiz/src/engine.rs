//! The one module that uses the grading engine (`xsafe-grade`), so that
//! the quiz check judges a program exactly as a compile-fail case is
//! judged, and so that a change of the engine's signatures is adapted here
//! alone.
//!
//! What it uses: the toolchain the engine finds, its one `cargo build
//! --keep-going --message-format=json` of a generated workspace, the
//! annotations of `xsafe-course`, the engine's verdict for a compile-fail
//! case, its reading of one reported error, and its bounded runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use xsafe_course::Expectations;
use xsafe_grade::build::{BuildRun, is_error};
use xsafe_grade::compile_fail::{ReportedError, verdict};
use xsafe_grade::limits::{Bounds, Ending, run_bounded};
use xsafe_grade::{Limits, Status, Toolchain};

/// The toolchain and limits every build and run of the check uses.
#[derive(Debug, Clone)]
pub struct Engine {
    toolchain: Toolchain,
    limits: Limits,
}

/// One error the compiler reported for a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reported {
    /// Its code, such as `E0451`.
    pub code: Option<String>,
    /// The line of the program it points at, if it points into it.
    pub line: Option<u32>,
    /// `E0451 at line 5`.
    pub description: String,
}

/// What running a program did.
#[derive(Debug, Clone)]
pub struct Ran {
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// Why it failed, if it did not exit with success.
    pub failure: Option<String>,
}

impl Engine {
    /// The toolchain that `rustc` resolves to in `root` (the course's
    /// `rust-toolchain.toml`, or `RUSTUP_TOOLCHAIN`), with the engine's
    /// default limits.
    pub fn new(root: &Path) -> std::io::Result<Engine> {
        Ok(Engine {
            toolchain: Toolchain::find(root, None)?,
            limits: Limits::default(),
        })
    }

    /// `rustc --version` of the toolchain.
    pub fn version(&self) -> &str {
        &self.toolchain.version
    }

    /// Its `rustc`.
    pub fn rustc(&self) -> PathBuf {
        self.toolchain.rustc()
    }

    /// Builds every binary of `packages` in the workspace at `workspace`,
    /// in one `cargo build --keep-going`.
    pub fn build(
        &self,
        workspace: &Path,
        packages: &[String],
        target_dir: &Path,
    ) -> std::io::Result<Build> {
        // The quiz programs are the course's own (no learner's bytes), so
        // the check builds them as the course's trusted builds are: with
        // the engine's toolchain and limits, without a sandbox.
        let mut command = self.toolchain.cargo_command();
        command
            .args(["build", "--keep-going", "--message-format=json", "--bins"])
            .arg("--manifest-path")
            .arg(workspace.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(workspace);
        for package in packages {
            command.arg("--package").arg(package);
        }
        let bounded = run_bounded(command, self.limits.build(), None)?;
        let run = BuildRun {
            messages: cargo_metadata::Message::parse_stream(bounded.stdout.as_bytes())
                .filter_map(Result::ok)
                .collect(),
            stopped: bounded.stopped_because(),
            stderr: bounded.stderr,
        };
        Ok(Build {
            run,
            workspace: workspace.to_path_buf(),
        })
    }

    /// Runs a built program, bounded like a behaviour case of the engine
    /// (a program of a quiz about deadlocks must not hang the check).
    pub fn run(&self, executable: &Path) -> std::io::Result<Ran> {
        let mut command = Command::new(executable);
        command.env("RUST_BACKTRACE", "0");
        let bounds = Bounds {
            time: self.limits.case_time.max(Duration::from_secs(10)),
            processor: None,
            ..self.limits.case()
        };
        let bounded = run_bounded(command, bounds, None)?;
        let failure = match bounded.ending {
            Ending::Exited(status) if status.success() => None,
            Ending::Exited(status) => Some(format!("it exited with {status}")),
            _ => bounded.stopped_because(),
        };
        Ok(Ran {
            stdout: bounded.stdout,
            stderr: bounded.stderr,
            failure,
        })
    }
}

/// One build of the generated workspace.
#[derive(Debug, Clone)]
pub struct Build {
    run: BuildRun,
    workspace: PathBuf,
}

impl Build {
    /// Why a limit stopped the build, if one did.
    pub fn stopped(&self) -> Option<String> {
        self.run.stopped_because()
    }

    /// What cargo itself printed on its standard error.
    pub fn cargo_stderr(&self) -> &str {
        &self.run.stderr
    }

    /// Whether the program whose source is `source` compiled.
    pub fn compiled(&self, source: &Path) -> bool {
        self.run.built(source)
    }

    /// Its executable, if it compiled.
    pub fn executable(&self, source: &Path) -> Option<PathBuf> {
        self.run.executable(source)
    }

    /// The errors the compiler reported for it.
    pub fn errors(&self, source: &Path) -> Vec<Reported> {
        self.run
            .diagnostics(source)
            .filter(|diagnostic| is_error(diagnostic))
            .map(|diagnostic| {
                let error = ReportedError::read(diagnostic, source, &self.workspace);
                Reported {
                    code: error.code.clone(),
                    line: error.line,
                    description: error.describe(),
                }
            })
            .collect()
    }

    /// Its errors as the compiler renders them.
    pub fn rendered(&self, source: &Path) -> String {
        self.run
            .diagnostics(source)
            .filter(|diagnostic| is_error(diagnostic))
            .filter_map(|diagnostic| diagnostic.rendered.clone())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The engine's verdict on a program that must not compile, whose
    /// source `source` holds `annotated`, the program with its `//~`
    /// annotations: `Ok` when the compiler rejected it exactly as they
    /// say, else the engine's one-line reason.
    pub fn judge(&self, source: &Path, annotated: &str) -> Result<(), String> {
        let expectations = Expectations::parse(annotated)
            .map_err(|err| format!("its annotation cannot be read: {err}"))?;
        let diagnostics: Vec<_> = self.run.diagnostics(source).collect();
        let outcome = verdict(
            &expectations,
            &diagnostics,
            self.compiled(source),
            source,
            &self.workspace,
            &|text| text.to_owned(),
        );
        match outcome.status {
            Status::Passed => Ok(()),
            status => Err(status
                .reason()
                .unwrap_or("the verdict gave no reason")
                .to_owned()),
        }
    }

    /// The errors reported for the crates in `dirs` themselves (the
    /// reference crates the programs use): if there are any, no program
    /// could be judged.
    pub fn crate_errors(&self, dirs: &[PathBuf]) -> Vec<String> {
        dirs.iter()
            .flat_map(|dir| self.run.errors_under(dir))
            .map(|diagnostic| {
                diagnostic
                    .rendered
                    .clone()
                    .unwrap_or_else(|| diagnostic.message.clone())
            })
            .collect()
    }
}
