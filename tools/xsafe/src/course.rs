//! The course on disk (read by `xsafe-grade`), and where this tool keeps
//! what it can rebuild.

use std::path::PathBuf;
pub use xsafe_grade::{Course, CourseExercise as Exercise};

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
