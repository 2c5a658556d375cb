//! The course on disk: its exercises in the order the book teaches them.
//!
//! Shared by the learner's tool, the instructor's grader and the proofs,
//! so that all three agree on which exercises the course has, and in which
//! order: the order of their chapters in `book/src/SUMMARY.md`. An exercise
//! whose chapter is not in the summary is an error, not the last exercise.

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
    /// An exercise's chapter is not linked from `book/src/SUMMARY.md`.
    NotInSummary {
        /// The exercise.
        exercise: String,
        /// The chapter its manifest names.
        chapter: String,
    },
}

impl std::fmt::Display for CourseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CourseError::Io(path, err) => write!(f, "cannot read {}: {err}", path.display()),
            CourseError::Manifest(err) => err.fmt(f),
            CourseError::NotInSummary { exercise, chapter } => write!(
                f,
                "exercise `{exercise}` names the chapter `{chapter}`, which book/src/SUMMARY.md does not link"
            ),
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
        let mut placed = Vec::new();
        for exercise in exercises {
            let link = format!("]({})", exercise.manifest.chapter);
            let Some(at) = summary.find(&link) else {
                return Err(CourseError::NotInSummary {
                    exercise: exercise.manifest.exercise.clone(),
                    chapter: exercise.manifest.chapter.clone(),
                });
            };
            placed.push((at, exercise));
        }
        placed.sort_by_key(|(at, exercise)| (*at, exercise.manifest.exercise.clone()));
        Ok(Course {
            root,
            exercises: placed.into_iter().map(|(_, exercise)| exercise).collect(),
        })
    }

    /// The exercise called `name`.
    pub fn exercise(&self, name: &str) -> Option<&Exercise> {
        self.exercises
            .iter()
            .find(|exercise| exercise.name() == name)
    }
}
