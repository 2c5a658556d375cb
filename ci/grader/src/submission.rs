//! Reading a submission without trusting it.
//!
//! **Invariant**: the only files of a submission that reach a grade are the
//! learner files its exercise's pristine manifest names (`src/`, and for
//! some exercises a second crate's `src/`). Everything else in the
//! submission (tests, `.stderr` snapshots, manifests, `Cargo.toml`, a new
//! `build.rs`, exercises the course does not have) is compared with the
//! pristine course and reported as [`Ignored`], never copied. Symbolic
//! links are never followed, so a submission cannot point the grader at a
//! file outside it.
//!
//! The sandbox itself (a fresh copy of the pristine exercise with the
//! learner files put in) is built by `xsafe-sandbox`; this module finds the
//! submission's files and says what was left out.

use crate::report::{Change, Ignored};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use walkdir::WalkDir;

/// Why a submission could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// The path does not exist or is not a folder.
    #[error("{0}: not a folder")]
    NotAFolder(PathBuf),
    /// `git` failed to export the revision.
    #[error("cannot read revision `{revision}` of {repo}: {problem}")]
    Git {
        /// The repository.
        repo: PathBuf,
        /// The revision asked for.
        revision: String,
        /// git's complaint.
        problem: String,
    },
    /// Writing the exported revision failed.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// The folder that holds a submission's exercises: `SUBMISSION/exercises`
/// when there is one, else the submission itself (a bare copy of
/// `exercises/`).
pub fn exercises_root(submission: &Path) -> PathBuf {
    let nested = submission.join("exercises");
    if nested.is_dir() {
        nested
    } else {
        submission.to_path_buf()
    }
}

/// Exports `revision` of the git repository at `repo` into `dest` (which is
/// emptied first), with `git archive`, so the student's working tree and
/// repository are left as they are.
pub fn export_revision(repo: &Path, revision: &str, dest: &Path) -> Result<(), SubmissionError> {
    let git_error = |problem: String| SubmissionError::Git {
        repo: repo.to_path_buf(),
        revision: revision.to_owned(),
        problem,
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SubmissionError::Io { path, source }
    };
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(io(dest))?;
    }
    std::fs::create_dir_all(dest).map_err(io(dest))?;
    let mut child = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar"])
        // `--` keeps a revision that starts with `-` from being an option.
        .arg(format!("{revision}^{{tree}}"))
        .arg("--")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| git_error(format!("cannot run git: {err}")))?;
    let unpacked = match child.stdout.take() {
        Some(stdout) => tar::Archive::new(stdout).unpack(dest),
        None => Ok(()),
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    let status = child
        .wait()
        .map_err(|err| git_error(format!("git did not finish: {err}")))?;
    if !status.success() {
        return Err(git_error(stderr.trim().to_owned()));
    }
    unpacked.map_err(io(dest))
}

/// The files under `dir`, relative to it, with symbolic links apart;
/// `target/` and `.git/` are skipped. Unreadable entries are skipped too
/// (the sandbox build reports them if they matter).
fn listing(dir: &Path) -> (BTreeSet<PathBuf>, BTreeSet<PathBuf>) {
    let mut files = BTreeSet::new();
    let mut links = BTreeSet::new();
    let walk = WalkDir::new(dir).into_iter().filter_entry(|entry| {
        entry.depth() == 0 || (entry.file_name() != "target" && entry.file_name() != ".git")
    });
    for entry in walk.flatten() {
        let Ok(relative) = entry.path().strip_prefix(dir) else {
            continue;
        };
        if entry.path_is_symlink() {
            links.insert(relative.to_path_buf());
        } else if entry.file_type().is_file() {
            files.insert(relative.to_path_buf());
        }
    }
    (files, links)
}

fn same_content(a: &Path, b: &Path) -> bool {
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A path as the reports write it: `/` between parts, on every platform.
pub fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// What the grader ignores in the submission's copy of one exercise:
/// every file outside `learner_files` that differs from the pristine
/// exercise, and every symbolic link (inside learner files too: the
/// sandbox does not copy them).
pub fn ignored_in_exercise(
    pristine: &Path,
    submitted: &Path,
    learner_files: &[PathBuf],
) -> Vec<Ignored> {
    let is_learners = |path: &Path| learner_files.iter().any(|root| path.starts_with(root));
    let (theirs, their_links) = listing(submitted);
    let (ours, _) = listing(pristine);
    let mut ignored = Vec::new();
    for path in &theirs {
        if is_learners(path) {
            continue;
        }
        if !ours.contains(path) {
            ignored.push(Ignored {
                path: display(path),
                change: Change::Added,
            });
        } else if !same_content(&pristine.join(path), &submitted.join(path)) {
            ignored.push(Ignored {
                path: display(path),
                change: Change::Modified,
            });
        }
    }
    for path in &ours {
        if !is_learners(path) && !theirs.contains(path) && !their_links.contains(path) {
            ignored.push(Ignored {
                path: display(path),
                change: Change::Deleted,
            });
        }
    }
    ignored.extend(their_links.iter().map(|path| Ignored {
        path: display(path),
        change: Change::Symlink,
    }));
    ignored.sort();
    ignored
}

/// Entries of the submission's exercises folder that are not exercises of
/// the course (`known`): ignored folders and files.
pub fn ignored_outside(root: &Path, known: &[String]) -> Vec<Ignored> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut ignored: Vec<Ignored> = entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            !known.iter().any(|known| *known == name) && name != "target" && name != ".git"
        })
        .map(|entry| {
            let is_link = entry.file_type().is_ok_and(|kind| kind.is_symlink());
            let mut path = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() && !is_link {
                path.push('/');
            }
            Ignored {
                path,
                change: if is_link {
                    Change::Symlink
                } else {
                    Change::Added
                },
            }
        })
        .collect();
    ignored.sort();
    ignored
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create folder");
        }
        std::fs::write(path, text).expect("write file");
    }

    /// Edited, added and deleted course files are reported; learner files
    /// and build output are not.
    #[test]
    fn reports_every_difference_outside_learner_files() {
        let scratch =
            std::env::temp_dir().join(format!("xsafe-grader-diff-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let (pristine, submitted) = (scratch.join("pristine"), scratch.join("submitted"));
        for dir in [&pristine, &submitted] {
            write(&dir.join("Cargo.toml"), "[package]");
            write(&dir.join("src/lib.rs"), "pub fn f() {}");
            write(&dir.join("grading/cases/a.rs"), "//! Proves a");
            write(&dir.join("grading/cases/b.rs"), "//! Proves b");
        }
        write(&submitted.join("src/lib.rs"), "pub fn g() {}");
        write(&submitted.join("src/extra.rs"), "");
        write(&submitted.join("grading/cases/a.rs"), "fn main() {}");
        std::fs::remove_file(submitted.join("grading/cases/b.rs")).expect("remove");
        write(&submitted.join("build.rs"), "fn main() {}");
        write(&submitted.join("target/debug/junk"), "");

        let ignored = ignored_in_exercise(&pristine, &submitted, &[PathBuf::from("src")]);
        let seen: Vec<(&str, Change)> = ignored
            .iter()
            .map(|ignored| (ignored.path.as_str(), ignored.change))
            .collect();
        assert_eq!(
            seen,
            [
                ("build.rs", Change::Added),
                ("grading/cases/a.rs", Change::Modified),
                ("grading/cases/b.rs", Change::Deleted),
            ]
        );
        let _ = std::fs::remove_dir_all(&scratch);
    }
}
