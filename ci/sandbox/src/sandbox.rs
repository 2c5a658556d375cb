//! Building a sandbox: a standalone copy of an exercise crate.

use crate::overlay::{Overlay, OverlayError};
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item, Table};
use walkdir::WalkDir;
use xsafe_grade::{Manifest, ManifestError};

/// What goes into a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct SandboxSpec<'a> {
    /// The pristine exercise crate: everything but the learner's files comes
    /// from here.
    pub exercise_dir: &'a Path,
    /// The crate whose learner files replace the starter's; `None` keeps the
    /// starter as it is.
    pub learner_dir: Option<&'a Path>,
    /// Edits applied once the learner's files are in place.
    pub overlay: Option<&'a Overlay>,
    /// A `Cargo.lock` to start from, so the sandbox builds with the same
    /// dependency versions as the course.
    pub lockfile: Option<&'a Path>,
}

/// A sandbox that is ready to grade.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// The sandbox crate.
    pub dir: PathBuf,
    /// Learner files the manifest names that the learner's crate lacks.
    pub missing: Vec<PathBuf>,
}

/// Why a sandbox could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A file could not be copied, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The exercise's manifest is broken.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The exercise's `Cargo.toml` cannot be rewritten.
    #[error("{path}: {problem}")]
    CargoToml {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// The overlay does not fit.
    #[error(transparent)]
    Overlay(#[from] OverlayError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SandboxError + '_ {
    move |source| SandboxError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Builds the sandbox described by `spec` at `dest`, replacing whatever was
/// there (so `dest` must be a folder the caller owns, such as one under
/// `target/`).
pub fn build_sandbox(spec: &SandboxSpec<'_>, dest: &Path) -> Result<Sandbox, SandboxError> {
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(io(dest))?;
    }
    copy_tree(spec.exercise_dir, dest)?;
    let manifest = Manifest::load(&dest.join("grading"))?;

    let mut missing = Vec::new();
    if let Some(learner_dir) = spec.learner_dir {
        for file in &manifest.learner_files {
            let ours = dest.join(file);
            if ours.is_dir() {
                std::fs::remove_dir_all(&ours).map_err(io(&ours))?;
            } else if ours.exists() {
                std::fs::remove_file(&ours).map_err(io(&ours))?;
            }
            let theirs = learner_dir.join(file);
            if theirs.exists() {
                copy_tree(&theirs, &ours)?;
            } else {
                missing.push(file.clone());
            }
        }
    }

    make_standalone(spec.exercise_dir, &dest.join("Cargo.toml"))?;
    if let Some(lockfile) = spec.lockfile {
        let copy = dest.join("Cargo.lock");
        std::fs::copy(lockfile, &copy).map_err(io(&copy))?;
    }
    if let Some(overlay) = spec.overlay {
        overlay.apply(dest)?;
    }
    Ok(Sandbox {
        dir: dest.to_path_buf(),
        missing,
    })
}

/// Copies a file, or a folder's regular files and folders (no symbolic
/// links, no `target/`), to `to`.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), SandboxError> {
    let walk = WalkDir::new(from)
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || entry.file_name() != "target");
    for entry in walk {
        let entry = entry.map_err(|err| SandboxError::Io {
            path: err.path().unwrap_or(from).to_path_buf(),
            source: err.into(),
        })?;
        let relative = entry.path().strip_prefix(from).unwrap_or(Path::new(""));
        let target = to.join(relative);
        let kind = entry.file_type();
        if kind.is_dir() {
            std::fs::create_dir_all(&target).map_err(io(&target))?;
        } else if kind.is_file() {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(io(parent))?;
            }
            std::fs::copy(entry.path(), &target).map_err(io(&target))?;
        }
    }
    Ok(())
}

/// Makes the copied `Cargo.toml` its own workspace, with every path
/// dependency outside the exercise pointing where it pointed from the
/// original crate.
fn make_standalone(original_dir: &Path, cargo_toml: &Path) -> Result<(), SandboxError> {
    let text = std::fs::read_to_string(cargo_toml).map_err(io(cargo_toml))?;
    let mut doc: DocumentMut = text.parse().map_err(|err| SandboxError::CargoToml {
        path: cargo_toml.to_path_buf(),
        problem: format!("not valid TOML: {err}"),
    })?;
    if !doc.contains_key("workspace") {
        doc["workspace"] = Item::Table(Table::new());
    }
    let original_dir = original_dir.canonicalize().map_err(io(original_dir))?;
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(table) = doc.get_mut(section).and_then(Item::as_table_like_mut) else {
            continue;
        };
        for (_, dependency) in table.iter_mut() {
            let Some(dependency) = dependency.as_table_like_mut() else {
                continue;
            };
            let Some(path) = dependency.get("path").and_then(|path| path.as_str()) else {
                continue;
            };
            let absolute = original_dir.join(path);
            let absolute = absolute.canonicalize().map_err(io(&absolute))?;
            if absolute.starts_with(&original_dir) {
                // A crate inside the exercise (such as a learner's derive
                // crate) was copied along: keep pointing at the copy.
                continue;
            }
            dependency.insert(
                "path",
                toml_edit::value(absolute.to_string_lossy().into_owned()),
            );
        }
    }
    std::fs::write(cargo_toml, doc.to_string()).map_err(io(cargo_toml))
}
