//! The course on disk: its exercises in the order the book teaches them.
//!
//! Shared by the learner's tool, the instructor's grader and the proofs,
//! so that all three agree on which exercises the course has.

use crate::manifest::{Manifest, ManifestError};
use std::path::{Path, PathBuf};

/// One exercise, with its grading manifest.
#[derive(Debug, Clone)]
pub struct Exercise {
    /// `exercises/NAME`.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
}

impl Exercise {
    /// The exercise's folder name, such as `ordered-tree`.
    pub fn name(&self) -> &str {
        &self.manifest.exercise
    }
}

/// Why the course could not be read.
#[derive(Debug)]
pub enum CourseError {
    /// A file or folder is missing or unreadable.
    Io(PathBuf, std::io::Error),
    /// An exercise's manifest is broken.
    Manifest(ManifestError),
}

impl std::fmt::Display for CourseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CourseError::Io(path, err) => write!(f, "cannot read {}: {err}", path.display()),
            CourseError::Manifest(err) => err.fmt(f),
        }
    }
}

/// The course rooted at `root`.
#[derive(Debug, Clone)]
pub struct Course {
    /// The course's root folder.
    pub root: PathBuf,
    /// Its exercises, in the order of the book's chapters.
    pub exercises: Vec<Exercise>,
}

impl Course {
    /// Reads the course at `root`: every `exercises/*/grading/manifest.toml`,
    /// ordered as their chapters appear in `book/src/SUMMARY.md`.
    pub fn load(root: &Path) -> Result<Course, CourseError> {
        let root = root
            .canonicalize()
            .map_err(|err| CourseError::Io(root.to_path_buf(), err))?;
        let summary_path = root.join("book/src/SUMMARY.md");
        let summary = std::fs::read_to_string(&summary_path)
            .map_err(|err| CourseError::Io(summary_path.clone(), err))?;
        let exercises_dir = root.join("exercises");
        let entries = std::fs::read_dir(&exercises_dir)
            .map_err(|err| CourseError::Io(exercises_dir.clone(), err))?;
        let mut exercises = Vec::new();
        for entry in entries.flatten() {
            let dir = entry.path();
            if !dir.join("grading").join(Manifest::FILE).is_file() {
                continue;
            }
            let manifest = Manifest::load(&dir.join("grading")).map_err(CourseError::Manifest)?;
            exercises.push(Exercise { dir, manifest });
        }
        exercises.sort_by_key(|exercise| {
            let link = format!("]({})", exercise.manifest.chapter);
            (
                summary.find(&link).unwrap_or(usize::MAX),
                exercise.manifest.exercise.clone(),
            )
        });
        Ok(Course { root, exercises })
    }

    /// The exercise called `name`.
    pub fn exercise(&self, name: &str) -> Option<&Exercise> {
        self.exercises
            .iter()
            .find(|exercise| exercise.name() == name)
    }
}
