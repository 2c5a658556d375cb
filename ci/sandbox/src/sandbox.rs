//! Building a sandbox: a standalone copy of an exercise crate, pristine but
//! for the learner's files.

use crate::mirror::{LeftOut, mirror};
use crate::overlay::{Overlay, OverlayError};
use crate::submission::reached_without_links;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item, Table};
use xsafe_course::{Manifest, ManifestError};

/// What goes into a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct SandboxSpec<'a> {
    /// The pristine exercise crate: everything but the learner's files comes
    /// from here.
    pub exercise_dir: &'a Path,
    /// The folder whose learner files replace the starter's (a submission's
    /// copy of the exercise); `None` keeps the starter as it is.
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
    /// Learner files the manifest names that the learner's folder lacks
    /// (or reaches only through a symbolic link).
    pub missing: Vec<PathBuf>,
    /// Entries under the learner files that were not copied (links, special
    /// files, unsafe names), relative to the exercise.
    pub left_out: Vec<LeftOut>,
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

/// Builds (or brings up to date) the sandbox described by `spec` at
/// `dest`, a folder the caller owns, such as one under `target/`. Files
/// already in place are not rewritten, so a second grade is warm.
pub fn build_sandbox(spec: &SandboxSpec<'_>, dest: &Path) -> Result<Sandbox, SandboxError> {
    let manifest = Manifest::load(&spec.exercise_dir.join("grading"))?;
    let learner_roots = manifest.learner_files.clone();
    let is_learners = |relative: &Path| learner_roots.iter().any(|root| relative.starts_with(root));
    mirror(spec.exercise_dir, dest, &|relative| {
        is_learners(relative)
            || relative == Path::new("Cargo.toml")
            || relative == Path::new("Cargo.lock")
    })?;

    let mut missing = Vec::new();
    let mut left_out = Vec::new();
    let source = spec.learner_dir.unwrap_or(spec.exercise_dir);
    for root in &learner_roots {
        let ours = dest.join(root);
        let theirs = source.join(root);
        let usable = reached_without_links(source, root)
            && std::fs::symlink_metadata(&theirs).is_ok_and(|meta| meta.is_dir() || meta.is_file());
        if !usable {
            missing.push(root.clone());
            remove(&ours)?;
            continue;
        }
        if std::fs::symlink_metadata(&theirs).is_ok_and(|meta| meta.is_dir()) {
            left_out.extend(
                mirror(&theirs, &ours, &|_| false)?
                    .into_iter()
                    .map(|left| LeftOut {
                        path: root.join(left.path),
                        why: left.why,
                    }),
            );
        } else {
            remove(&ours)?;
            let content = std::fs::read(&theirs).map_err(io(&theirs))?;
            write_if_changed(&ours, &content)?;
        }
    }

    let standalone = standalone_manifest(spec.exercise_dir)?;
    write_if_changed(&dest.join("Cargo.toml"), standalone.as_bytes())?;
    if let Some(lockfile) = spec.lockfile {
        let content = std::fs::read(lockfile).map_err(io(lockfile))?;
        write_if_changed(&dest.join("Cargo.lock"), &content)?;
    }
    if let Some(overlay) = spec.overlay {
        overlay.apply(dest)?;
    }
    Ok(Sandbox {
        dir: dest.to_path_buf(),
        missing,
        left_out,
    })
}

fn remove(path: &Path) -> Result<(), SandboxError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).map_err(io(path)),
        Ok(_) => std::fs::remove_file(path).map_err(io(path)),
        Err(_) => Ok(()),
    }
}

fn write_if_changed(path: &Path, content: &[u8]) -> Result<(), SandboxError> {
    if std::fs::read(path).is_ok_and(|old| old == content) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, content).map_err(io(path))
}

/// The exercise's `Cargo.toml` as its own workspace, with every path
/// dependency outside the exercise made absolute (pointing where it
/// pointed from the original crate).
fn standalone_manifest(original_dir: &Path) -> Result<String, SandboxError> {
    let cargo_toml = original_dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&cargo_toml).map_err(io(&cargo_toml))?;
    let mut doc: DocumentMut = text.parse().map_err(|err| SandboxError::CargoToml {
        path: cargo_toml.clone(),
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
    Ok(doc.to_string())
}
