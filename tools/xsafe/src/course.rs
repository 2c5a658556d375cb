//! The course on disk (read by `xsafe-grade`), and what the tool shows
//! about an exercise without grading it: its chapter, its files, its
//! reference solution, the chapter's further reading.

use std::path::{Path, PathBuf};
pub use xsafe_grade::{Course, CourseExercise as Exercise};

/// The port `mdbook serve` listens on by default.
pub const BOOK_PORT: u16 = 3000;

/// The tool's folders inside a course.
pub trait CourseDirs {
    /// Where the tool builds and keeps what it can rebuild: under `target/`.
    fn work_dir(&self) -> PathBuf;
    /// The shared target directory of every grade (the proofs use it too).
    fn build_dir(&self) -> PathBuf;
}

impl CourseDirs for Course {
    fn work_dir(&self) -> PathBuf {
        self.root.join("target/xsafe")
    }

    fn build_dir(&self) -> PathBuf {
        std::env::var_os("XSAFE_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| self.work_dir().join("build"))
    }
}

/// What the tool says about an exercise that needs no grade.
pub trait ExerciseInfo {
    /// The chapter's source, relative to the course root
    /// (`book/src/ordered-tree.md`).
    fn chapter_path(&self) -> String;
    /// The chapter's page when `cargo xsafe book` serves the book.
    fn chapter_url(&self) -> String;
    /// The learner's files (`.rs` files under the manifest's learner
    /// folders), as (path relative to the exercise, absolute path), sorted.
    /// The starter's list when none exists (the learner deleted them).
    fn learner_files(&self) -> Vec<(String, PathBuf)>;
    /// The reference solution's folder, relative to the course root.
    fn solution_dir(&self) -> String;
}

impl ExerciseInfo for Exercise {
    fn chapter_path(&self) -> String {
        format!("book/src/{}", self.manifest.chapter)
    }

    fn chapter_url(&self) -> String {
        let page = self
            .manifest
            .chapter
            .strip_suffix(".md")
            .unwrap_or(&self.manifest.chapter);
        format!("http://localhost:{BOOK_PORT}/{page}.html")
    }

    fn learner_files(&self) -> Vec<(String, PathBuf)> {
        let mut files = Vec::new();
        for root in &self.manifest.learner_files {
            let walk = walkdir::WalkDir::new(self.dir.join(root))
                .sort_by_file_name()
                .into_iter()
                .filter_map(Result::ok);
            for entry in walk {
                let is_source = entry.file_type().is_file()
                    && entry.path().extension().is_some_and(|ext| ext == "rs");
                if !is_source {
                    continue;
                }
                if let Ok(relative) = entry.path().strip_prefix(&self.dir) {
                    files.push((slashed(relative), entry.path().to_path_buf()));
                }
            }
        }
        if files.is_empty() {
            files = self
                .manifest
                .starter
                .keys()
                .map(|file| (slashed(file), self.dir.join(file)))
                .collect();
        }
        files.sort();
        files
    }

    fn solution_dir(&self) -> String {
        format!("solutions/{}", self.name())
    }
}

/// A relative path with `/` separators.
pub fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// The items of the chapter's "Further reading" section, each as one line
/// of plain text (Markdown's `<url>` brackets removed). Empty when the
/// chapter has no such section.
pub fn further_reading(course: &Course, exercise: &Exercise) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(course.root.join(exercise.chapter_path())) else {
        return Vec::new();
    };
    let mut items: Vec<String> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            inside = line.trim_end() == "## Further reading";
            continue;
        }
        if !inside || line.starts_with('#') {
            continue;
        }
        let trimmed = line.trim();
        if let Some(item) = trimmed
            .strip_prefix("* ")
            .or_else(|| trimmed.strip_prefix("- "))
        {
            items.push(item.to_owned());
        } else if !trimmed.is_empty()
            && let Some(last) = items.last_mut()
        {
            last.push(' ');
            last.push_str(trimmed);
        }
    }
    items
        .into_iter()
        .map(|item| item.replace(['<', '>'], ""))
        .collect()
}

/// A place in a learner file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The file, relative to the exercise (`src/tree.rs`).
    pub relative: String,
    /// The file.
    pub path: PathBuf,
    /// The line, from 1.
    pub line: usize,
}

impl Place {
    /// `src/tree.rs:21`.
    pub fn shown(&self) -> String {
        format!("{}:{}", self.relative, self.line)
    }
}

/// The places the starter marks as work for `step`: lines with
/// `TODO(step):` in the learner files, in file order.
pub fn todo_places(exercise: &Exercise, step: &str) -> Vec<Place> {
    let marker = format!("TODO({step}):");
    let mut places = Vec::new();
    for (relative, path) in exercise.learner_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if line.contains(&marker) {
                places.push(Place {
                    relative: relative.clone(),
                    path: path.clone(),
                    line: number + 1,
                });
            }
        }
    }
    places
}

/// The learner file a compiler's error points at (its first `-->` line
/// under `exercises/NAME/`), if it is one of the learner files.
pub fn error_place(exercise: &Exercise, rendered: &str) -> Option<Place> {
    let prefix = format!("exercises/{}/", exercise.name());
    rendered.lines().find_map(|line| {
        let location = line.trim_start().strip_prefix("--> ")?;
        let relative_location = location.strip_prefix(&prefix)?;
        let mut parts = relative_location.split(':');
        let relative = parts.next()?.to_owned();
        let line = parts.next()?.parse().ok()?;
        exercise
            .learner_files()
            .into_iter()
            .find(|(known, _)| *known == relative)
            .map(|(relative, path)| Place {
                relative,
                path,
                line,
            })
    })
}
