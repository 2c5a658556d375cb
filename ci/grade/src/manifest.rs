//! The per-exercise grading manifest: which cases exist, which step each one
//! belongs to, what it is worth, and the hints for each step. It is data, kept
//! in `grading/manifest.toml`, so that tools and the book can read it too.

use serde::Deserialize;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The three steps of the method, in the order a learner meets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepName {
    /// The property is attached to a type or trait and documented.
    Definition,
    /// One module upholds the property; privacy or `unsafe` keeps others out.
    Enforcement,
    /// The rest of the code relies on the property.
    Consumption,
}

impl StepName {
    /// All steps, in order.
    pub const ALL: [StepName; 3] = [
        StepName::Definition,
        StepName::Enforcement,
        StepName::Consumption,
    ];

    /// The step's name as written in manifests and test names.
    pub fn as_str(self) -> &'static str {
        match self {
            StepName::Definition => "definition",
            StepName::Enforcement => "enforcement",
            StepName::Consumption => "consumption",
        }
    }

    /// Parses a step name as written in manifests.
    pub fn parse(name: &str) -> Option<StepName> {
        StepName::ALL.into_iter().find(|step| step.as_str() == name)
    }
}

impl fmt::Display for StepName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a case expects of the code under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    /// The case compiles, runs and exits successfully (its asserts hold).
    Pass,
    /// The case is rejected by the compiler with exactly the diagnostics in
    /// the `.stderr` file next to it.
    CompileFail,
}

/// One step of an exercise, with the hints a learner can ask for.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Which step this is.
    pub name: StepName,
    /// One sentence: what the learner does in this step.
    pub goal: String,
    /// Hints, from gentle to explicit.
    #[serde(default)]
    pub hints: Vec<String>,
}

/// One grading case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case's source, relative to the `cases/` folder.
    pub file: PathBuf,
    /// The step the case belongs to.
    pub step: StepName,
    /// Whether it must pass or fail to compile.
    pub expect: Expect,
    /// Points it is worth.
    #[serde(default = "one")]
    pub points: u32,
    /// `true` when the starter already passes this case: it checks that the
    /// learner keeps what the starter gives (the definition), not new work.
    #[serde(default)]
    pub given: bool,
}

fn one() -> u32 {
    1
}

/// An exercise's `grading/manifest.toml`, with the folder it was read from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The exercise's folder name under `exercises/`.
    pub exercise: String,
    /// The exercise's title, as in the book.
    pub title: String,
    /// The book chapter that teaches it, relative to `book/src`.
    pub chapter: String,
    /// Files and folders of the crate that the learner writes; everything
    /// else in the crate belongs to the course.
    pub learner_files: Vec<PathBuf>,
    /// The steps, in order.
    #[serde(rename = "step")]
    pub steps: Vec<Step>,
    /// The cases.
    #[serde(rename = "case")]
    pub cases: Vec<Case>,
    /// The starter's learner files, each with its git blob id, so that the
    /// starter can be restored from the repository's objects whatever the
    /// learner committed since (`cargo xsafe reset`). Written by
    /// `cargo run -p xsafe-grading-proofs --bin bless`.
    #[serde(default)]
    pub starter: std::collections::BTreeMap<PathBuf, String>,
    /// The `grading/` folder this manifest was read from.
    #[serde(skip)]
    pub dir: PathBuf,
}

/// Why a manifest could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The manifest's path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a valid manifest.
    #[error("{path} is not a valid grading manifest: {source}")]
    Parse {
        /// The manifest's path.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<toml::de::Error>,
    },
    /// The manifest parsed but says something that cannot be right.
    #[error("{path}: {problem}")]
    Invalid {
        /// The manifest's path.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl Manifest {
    /// The manifest's file name inside a `grading/` folder.
    pub const FILE: &'static str = "manifest.toml";

    /// Reads and checks `dir/manifest.toml`.
    pub fn load(dir: &Path) -> Result<Manifest, ManifestError> {
        let path = dir.join(Manifest::FILE);
        let text = std::fs::read_to_string(&path).map_err(|source| ManifestError::Read {
            path: path.clone(),
            source,
        })?;
        let mut manifest: Manifest =
            toml::from_str(&text).map_err(|source| ManifestError::Parse {
                path: path.clone(),
                source: Box::new(source),
            })?;
        manifest.dir = dir.to_path_buf();
        manifest
            .validate()
            .map_err(|problem| ManifestError::Invalid {
                path: path.clone(),
                problem,
            })?;
        Ok(manifest)
    }

    fn validate(&self) -> Result<(), String> {
        for (index, step) in self.steps.iter().enumerate() {
            if StepName::ALL.get(index) != Some(&step.name) {
                return Err(format!(
                    "steps must be definition, enforcement, consumption in that order; found `{}` in place {}",
                    step.name,
                    index + 1
                ));
            }
        }
        if self.steps.len() != StepName::ALL.len() {
            return Err("the manifest must describe all three steps".to_owned());
        }
        for case in &self.cases {
            let path = self.case_path(case);
            if !path.is_file() {
                return Err(format!("case file {} does not exist", path.display()));
            }
        }
        for (index, case) in self.cases.iter().enumerate() {
            if self.cases[..index]
                .iter()
                .any(|seen| seen.file == case.file)
            {
                return Err(format!("case {} is listed twice", case.file.display()));
            }
        }
        Ok(())
    }

    /// The absolute path of a case's source file.
    pub fn case_path(&self, case: &Case) -> PathBuf {
        self.dir.join("cases").join(&case.file)
    }

    /// The cases of one step, in manifest order.
    pub fn cases_of(&self, step: StepName) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(move |case| case.step == step)
    }

    /// The step's description.
    pub fn step(&self, name: StepName) -> Option<&Step> {
        self.steps.iter().find(|step| step.name == name)
    }

    /// The points all cases are worth together.
    pub fn total_points(&self) -> u32 {
        self.cases.iter().map(|case| case.points).sum()
    }
}

impl Case {
    /// The case's name: its file path without extension, such as
    /// `enforcement/no_node_literal`.
    pub fn name(&self) -> String {
        self.file
            .with_extension("")
            .to_string_lossy()
            .replace('\\', "/")
    }

    /// What the case proves: the comment lines it starts with, joined.
    /// Empty if the file cannot be read or does not start with a comment.
    pub fn proves(&self, manifest: &Manifest) -> String {
        let text = std::fs::read_to_string(manifest.case_path(self)).unwrap_or_default();
        leading_comment(&text)
    }
}

/// The `//` or `//!` comment lines a source text starts with, without their
/// markers, joined by spaces.
pub(crate) fn leading_comment(text: &str) -> String {
    let mut words = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(comment) = line.strip_prefix("//") else {
            break;
        };
        let comment = comment.strip_prefix('!').unwrap_or(comment).trim();
        if !comment.is_empty() {
            words.push(comment);
        }
    }
    words.join(" ")
}

/// The git blob id of a file's content: what `git hash-object` prints.
pub fn git_blob_id(content: &[u8]) -> String {
    let mut hasher = sha1_smol::Sha1::new();
    let mut header = Vec::new();
    let _ = write!(header, "blob {}\0", content.len());
    hasher.update(&header);
    hasher.update(content);
    hasher.digest().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comment is read up to the first line of code, markers stripped.
    #[test]
    fn leading_comment_stops_at_code() {
        let text =
            "//! Proves that outside code\n//! cannot build a node.\n\nuse x;\n// not this\n";
        assert_eq!(
            leading_comment(text),
            "Proves that outside code cannot build a node."
        );
    }

    /// The blob id is git's: `printf 'hello\n' | git hash-object --stdin`.
    #[test]
    fn blob_id_matches_git() {
        assert_eq!(
            git_blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    /// A file that starts with code has no "proves" comment.
    #[test]
    fn no_leading_comment() {
        assert_eq!(leading_comment("fn main() {}\n// late"), "");
    }
}
