//! Cargo inside a confined job: the steps that build, document and expand
//! a generated workspace, and what they report, read as data
//! (`--message-format=json`), never as text.

use crate::confine::{Confiner, Step, StepOutput};
use cargo_metadata::Message;
use cargo_metadata::diagnostic::Diagnostic;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One `cargo build` of a generated workspace, as its step reported it.
#[derive(Debug, Clone, Default)]
pub struct BuildRun {
    /// What cargo reported, in order.
    pub messages: Vec<Message>,
    /// Why a limit stopped the build, when one did.
    pub stopped: Option<String>,
    /// cargo's own errors (not the compiler's, which are in `messages`).
    pub stderr: String,
}

impl BuildRun {
    /// The build a step reported.
    pub fn from_step(step: &StepOutput) -> BuildRun {
        BuildRun {
            messages: Message::parse_stream(step.stdout.as_slice())
                .filter_map(Result::ok)
                .collect(),
            stopped: step.stopped_because().or_else(|| {
                step.status
                    .is_none()
                    .then(|| "stopped before it ended".to_owned())
            }),
            stderr: step.stderr.clone(),
        }
    }

    /// Whether a limit stopped the build, in words.
    pub fn stopped_because(&self) -> Option<String> {
        self.stopped.clone()
    }

    /// The compiler's diagnostics for the target whose root source file is
    /// `source` (a case file, a generated `main`).
    pub fn diagnostics<'a>(
        &'a self,
        source: &'a Path,
    ) -> impl Iterator<Item = &'a Diagnostic> + 'a {
        self.messages
            .iter()
            .filter_map(move |message| match message {
                Message::CompilerMessage(message)
                    if same_path(message.target.src_path.as_std_path(), source) =>
                {
                    Some(&message.message)
                }
                _ => None,
            })
    }

    /// Where the job saw the executable of the binary target whose root is
    /// `source`, if it was built (its bytes are among the job's collected
    /// files).
    pub fn executable(&self, source: &Path) -> Option<PathBuf> {
        self.messages.iter().find_map(|message| match message {
            Message::CompilerArtifact(artifact)
                if same_path(artifact.target.src_path.as_std_path(), source) =>
            {
                artifact
                    .executable
                    .as_ref()
                    .map(|path| path.as_std_path().to_path_buf())
            }
            _ => None,
        })
    }

    /// Whether the target whose root is `source` was built (it compiled).
    pub fn built(&self, source: &Path) -> bool {
        self.messages.iter().any(|message| {
            matches!(message, Message::CompilerArtifact(artifact)
                if same_path(artifact.target.src_path.as_std_path(), source))
        })
    }

    /// The errors reported for the crate under test at `dir` and its macro
    /// crates: targets whose sources are under `dir`, but for its cases
    /// (under `dir/grading`).
    pub fn errors_under<'a>(&'a self, dir: &'a Path) -> impl Iterator<Item = &'a Diagnostic> + 'a {
        let grading = dir.join("grading");
        self.messages
            .iter()
            .filter_map(move |message| match message {
                Message::CompilerMessage(message)
                    if is_error(&message.message)
                        && message.target.src_path.as_std_path().starts_with(dir)
                        && !message.target.src_path.as_std_path().starts_with(&grading) =>
                {
                    Some(&message.message)
                }
                _ => None,
            })
    }
}

/// Whether a diagnostic is an error (not a warning, note or summary).
pub fn is_error(diagnostic: &Diagnostic) -> bool {
    use cargo_metadata::diagnostic::DiagnosticLevel;
    matches!(
        diagnostic.level,
        DiagnosticLevel::Error | DiagnosticLevel::Ice
    )
}

/// Whether two paths name the same file (paths in a job's view are the
/// grader's own paths, so they compare as written; `..` are resolved).
pub fn same_path(a: &Path, b: &Path) -> bool {
    a == b || normalized(a) == normalized(b)
}

/// `path` with `.` and `..` resolved by their text (no link is followed).
pub fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A cargo command of a job: `args` (a subcommand and its arguments,
/// rustc's after `--`) over the workspace at `workspace` into `target`,
/// offline and with the grader's lockfile (`--frozen`), from the
/// confiner's environment.
pub fn cargo_step(
    confiner: &Confiner,
    name: &str,
    workspace: &Path,
    target: &Path,
    args: &[&str],
    time: Duration,
) -> Step {
    let mut all: Vec<OsString> = Vec::new();
    if let Some((subcommand, rest)) = args.split_first() {
        all.push(subcommand.into());
        // `cargo miri` takes its own subcommand (`run`) before cargo's flags.
        let rest = match (*subcommand, rest.split_first()) {
            ("miri", Some((inner, rest))) => {
                all.push(inner.into());
                rest
            }
            _ => rest,
        };
        all.extend([
            "--frozen".into(),
            "--manifest-path".into(),
            workspace.join("Cargo.toml").into_os_string(),
            "--target-dir".into(),
            target.as_os_str().to_owned(),
        ]);
        all.extend(rest.iter().map(Into::into));
    }
    Step {
        name: name.to_owned(),
        program: confiner.cargo(),
        args: all,
        env: confiner.cargo_env(),
        time,
        stdin: None,
    }
}

/// `step` allowed the unstable outputs of every rustc (rustdoc's JSON, the
/// expansion), stable ones included: it asks for them and changes nothing
/// else (cargo fingerprints it, so such steps build into a target folder
/// of their own).
pub fn bootstrapped(mut step: Step) -> Step {
    step.env.insert("RUSTC_BOOTSTRAP".into(), "1".into());
    step
}
