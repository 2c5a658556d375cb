//! Building a generated workspace with cargo, and reading what it reports
//! as data (`--message-format=json`), never as text.
//!
//! **Invariant**: one target directory is built by one grading build at a
//! time, and the time a build waits for another is not counted against its
//! limit: the build takes the target directory's lock file before its clock
//! starts. So two graders, or two exercises of one grade, sharing a target
//! directory never spend each other's time limits.

use crate::isolation::{Confinement, Isolation};
use crate::limits::{Bounded, Bounds, Ending, run_bounded};
use crate::toolchain::Toolchain;
use cargo_metadata::Message;
use cargo_metadata::diagnostic::Diagnostic;
use std::fs::File;
use std::path::{Path, PathBuf};

/// One `cargo build` of a generated workspace.
#[derive(Debug, Clone)]
pub struct BuildRun {
    /// What cargo reported, in order.
    pub messages: Vec<Message>,
    /// How the build process ended.
    pub ending: Ending,
    /// cargo's own errors (not the compiler's, which are in `messages`).
    pub stderr: String,
}

/// How to build.
#[derive(Debug, Clone)]
pub struct BuildSpec<'a> {
    /// The workspace root.
    pub workspace: &'a Path,
    /// The packages to build (all their binaries).
    pub packages: Vec<&'a str>,
    /// Cargo's target directory.
    pub target_dir: &'a Path,
    /// The toolchain.
    pub toolchain: &'a Toolchain,
    /// The build's limits.
    pub bounds: Bounds,
    /// When the build runs learner code (a learner's macro), the isolation
    /// to confine it with; it then runs offline.
    pub confined: Option<(&'a Isolation, Confinement)>,
}

impl BuildRun {
    /// Whether a limit stopped the build, in words.
    pub fn stopped_because(&self) -> Option<String> {
        Bounded {
            stdout: String::new(),
            stderr: String::new(),
            ending: self.ending,
        }
        .stopped_because()
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

    /// The executable of the binary target whose root is `source`, if it
    /// was built.
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
                        && is_under(message.target.src_path.as_std_path(), dir)
                        && !is_under(message.target.src_path.as_std_path(), &grading) =>
                {
                    Some(&message.message)
                }
                _ => None,
            })
    }
}

fn is_under(path: &Path, dir: &Path) -> bool {
    path.starts_with(dir)
        || match (path.canonicalize(), dir.canonicalize()) {
            (Ok(path), Ok(dir)) => path.starts_with(dir),
            _ => false,
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

fn same_path(a: &Path, b: &Path) -> bool {
    a == b
        || match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
}

/// Runs `cargo build --keep-going --message-format=json` over the spec's
/// packages, after taking the target directory's lock.
pub fn build(spec: &BuildSpec<'_>) -> std::io::Result<BuildRun> {
    std::fs::create_dir_all(spec.target_dir)?;
    let lock = File::create(spec.target_dir.join(".xsafe-build.lock"))?;
    lock.lock()?;
    let mut command = spec.toolchain.cargo_command();
    command
        .arg("build")
        .arg("--keep-going")
        .arg("--message-format=json")
        .arg("--bins")
        .arg("--manifest-path")
        .arg(spec.workspace.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(spec.target_dir)
        .current_dir(spec.workspace);
    for package in &spec.packages {
        command.arg("--package").arg(package);
    }
    if let Some(home) = cargo_home() {
        command.env("CARGO_HOME", home);
    }
    let run = match &spec.confined {
        Some((isolation, confinement)) => {
            command.arg("--offline").env("HOME", "/tmp");
            let mut confinement = confinement.clone();
            confinement.read_only.extend(
                [spec.toolchain.sysroot.clone()]
                    .into_iter()
                    .chain(cargo_home()),
            );
            confinement.writable.push(spec.target_dir.to_path_buf());
            confinement.writable.push(spec.workspace.to_path_buf());
            run_bounded(isolation.confine(&command, &confinement), spec.bounds, None)?
        }
        None => run_bounded(command, spec.bounds, None)?,
    };
    drop(lock);
    let messages = Message::parse_stream(run.stdout.as_bytes())
        .filter_map(Result::ok)
        .collect();
    Ok(BuildRun {
        messages,
        ending: run.ending,
        stderr: run.stderr,
    })
}

/// Fetches the workspace's dependencies (trusted: the course's manifests
/// and lockfile decide them), so that a confined build can run offline.
pub fn fetch(workspace: &Path, toolchain: &Toolchain, bounds: Bounds) -> std::io::Result<Bounded> {
    let mut command = toolchain.cargo_command();
    command
        .arg("fetch")
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .current_dir(workspace);
    if let Some(home) = cargo_home() {
        command.env("CARGO_HOME", home);
    }
    run_bounded(command, bounds, None)
}

/// Cargo's home: `CARGO_HOME`, or `~/.cargo`.
fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
}
