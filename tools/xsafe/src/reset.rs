//! `reset`: put an exercise's starter back, after backing up the learner's
//! files.
//!
//! The starter's files are taken from git's object store by the blob ids
//! that the manifest's `[starter]` table records, so a reset works whatever
//! the learner has committed since. Every blob is read before anything is
//! touched, and the learner's files are copied to a named backup folder
//! first: a reset never loses work.

use crate::course::{Course, Exercise};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where backups go: outside `target/`, so `cargo clean` keeps them.
pub fn backups_dir(course: &Course) -> PathBuf {
    course.root.join(".xsafe-backups")
}

/// Resets `exercise`; returns the backup folder.
pub fn reset(course: &Course, exercise: &Exercise) -> Result<PathBuf, String> {
    let starter = &exercise.manifest.starter;
    if starter.is_empty() {
        return Err(format!(
            "the manifest of {} records no starter files",
            exercise.name()
        ));
    }
    let mut restored = Vec::new();
    for (file, blob) in starter {
        let output = Command::new("git")
            .arg("-C")
            .arg(&course.root)
            .args(["cat-file", "blob", blob])
            .output()
            .map_err(|err| format!("cannot run git, which reset needs: {err}"))?;
        if !output.status.success() {
            return Err(format!(
                "git does not have the starter's {} (blob {blob}): is this a clone of the course? ({})",
                file.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        restored.push((file.clone(), output.stdout));
    }

    let backup = backup(course, exercise)?;
    for root in &exercise.manifest.learner_files {
        let path = exercise.dir.join(root);
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else if path.exists() {
            std::fs::remove_file(&path)
        } else {
            Ok(())
        };
        removed.map_err(|err| {
            format!(
                "cannot remove {}: {err} (your files are in {})",
                path.display(),
                backup.display()
            )
        })?;
    }
    for (file, content) in restored {
        let path = exercise.dir.join(&file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|err| format!("{}: {err}", parent.display()))?;
        }
        std::fs::write(&path, content).map_err(|err| format!("{}: {err}", path.display()))?;
    }
    Ok(backup)
}

/// Copies the learner's files to `.xsafe-backups/NAME-SECONDS/`.
fn backup(course: &Course, exercise: &Exercise) -> Result<PathBuf, String> {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let mut dest = backups_dir(course).join(format!("{}-{seconds}", exercise.name()));
    let mut attempt = 1;
    while dest.exists() {
        attempt += 1;
        dest = backups_dir(course).join(format!("{}-{seconds}-{attempt}", exercise.name()));
    }
    for root in &exercise.manifest.learner_files {
        copy_tree(&exercise.dir.join(root), &dest.join(root))?;
    }
    Ok(dest)
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    if !from.exists() {
        return Ok(());
    }
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.map_err(|err| format!("cannot back up {}: {err}", from.display()))?;
        let relative = entry.path().strip_prefix(from).unwrap_or(Path::new(""));
        let target = to.join(relative);
        let copied = if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)
        } else {
            std::fs::copy(entry.path(), &target).map(drop)
        };
        copied.map_err(|err| format!("cannot back up to {}: {err}", target.display()))?;
    }
    Ok(())
}
