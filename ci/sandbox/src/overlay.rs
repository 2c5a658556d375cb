//! Overlays: small, literal edits on top of a reference solution, to build
//! an alternative correct solution or a wrong one without keeping a full copy.
//! They are data, kept next to the solution in `variants.toml`.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The variants of a solution, as read from its `variants.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variants {
    /// The variants, in file order.
    #[serde(rename = "variant")]
    pub variants: Vec<Overlay>,
}

/// One variant: the solution with some edits, and the cases it must fail.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// A short name, such as `public-node-key`.
    pub name: String,
    /// What the variant gets right or wrong, in one or two sentences.
    pub about: String,
    /// The cases it must fail, by name (`step/file` without `.rs`); empty for
    /// an alternative correct solution, which must score full marks.
    #[serde(default)]
    pub fails: Vec<String>,
    /// The cases it fails only under Miri (undefined behaviour that no
    /// observation can see): where the machine has no Miri, they pass.
    #[serde(default)]
    pub fails_under_miri: Vec<String>,
    /// Cases that catch this variant only in some runs: a case that runs
    /// threads and looks at the bank while they run sees a lock released
    /// too early only when an interleaving falls in the gap. They may pass
    /// or fail; the cases in `fails` must fail every time. (A case that
    /// decides a *correct* solution by timing is a defect; one that catches
    /// a wrong one by chance is extra, never the only catch.)
    #[serde(default)]
    pub may_fail: Vec<String>,
    /// The edits that turn the solution into this variant.
    #[serde(rename = "edit")]
    pub edits: Vec<Edit>,
}

/// A literal find-and-replace in one file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    /// The file, relative to the crate.
    pub file: PathBuf,
    /// The exact text to find.
    pub find: String,
    /// What replaces every occurrence.
    pub replace: String,
    /// How many times `find` must occur; anything else is an error, so that
    /// an overlay that no longer fits its solution fails loudly.
    #[serde(default = "one")]
    pub count: usize,
    /// `find` is a regular expression (`regex` crate syntax; `replace` may
    /// use `$1`): for renames such as `\bT\b` to `K` across a file.
    #[serde(default)]
    pub regex: bool,
}

fn one() -> usize {
    1
}

/// Why an overlay could not be read or applied.
#[derive(Debug, thiserror::Error)]
pub enum OverlayError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// `variants.toml` is not valid.
    #[error("{path} is not a valid variants file: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<toml::de::Error>,
    },
    /// An edit's regular expression is not valid.
    #[error("variant `{variant}`: {problem}")]
    Pattern {
        /// The variant's name.
        variant: String,
        /// What is wrong with the pattern.
        problem: String,
    },
    /// An edit's text does not occur as often as the edit says.
    #[error(
        "variant `{variant}`: expected to find this text {expected} time(s) in {file}, found it {found} time(s):\n{find}"
    )]
    NoFit {
        /// The variant's name.
        variant: String,
        /// The edited file.
        file: PathBuf,
        /// The text searched for.
        find: String,
        /// How often it should occur.
        expected: usize,
        /// How often it occurs.
        found: usize,
    },
}

impl Variants {
    /// Reads a `variants.toml`.
    pub fn load(path: &Path) -> Result<Variants, OverlayError> {
        let text = std::fs::read_to_string(path).map_err(|source| OverlayError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        toml::from_str(&text).map_err(|source| OverlayError::Parse {
            path: path.to_path_buf(),
            source: Box::new(source),
        })
    }
}

impl Overlay {
    /// Applies every edit to the crate at `crate_dir`, in order.
    pub fn apply(&self, crate_dir: &Path) -> Result<(), OverlayError> {
        for edit in &self.edits {
            let path = crate_dir.join(&edit.file);
            let io = |source| OverlayError::Io {
                path: path.clone(),
                source,
            };
            let text = std::fs::read_to_string(&path).map_err(io)?;
            let no_fit = |found| OverlayError::NoFit {
                variant: self.name.clone(),
                file: edit.file.clone(),
                find: edit.find.clone(),
                expected: edit.count,
                found,
            };
            let edited = if edit.regex {
                let pattern =
                    regex::Regex::new(&edit.find).map_err(|err| OverlayError::Pattern {
                        variant: self.name.clone(),
                        problem: err.to_string(),
                    })?;
                let found = pattern.find_iter(&text).count();
                if found != edit.count {
                    return Err(no_fit(found));
                }
                pattern
                    .replace_all(&text, edit.replace.as_str())
                    .into_owned()
            } else {
                let found = text.matches(&edit.find).count();
                if found != edit.count || edit.find.is_empty() {
                    return Err(no_fit(found));
                }
                text.replace(&edit.find, &edit.replace)
            };
            std::fs::write(&path, edited).map_err(io)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlay(find: &str, count: usize) -> Overlay {
        Overlay {
            may_fail: Vec::new(),
            name: "test".into(),
            about: String::new(),
            fails: Vec::new(),
            fails_under_miri: Vec::new(),
            edits: vec![Edit {
                file: "lib.rs".into(),
                find: find.into(),
                replace: "pub key".into(),
                count,
                regex: false,
            }],
        }
    }

    /// An edit replaces its text, and refuses to apply when the text does
    /// not occur exactly as often as it says.
    #[test]
    fn edits_must_fit() {
        let dir = std::env::temp_dir().join(format!("xsafe-overlay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("lib.rs"), "struct S { key: u8, key: u8 }").expect("write");
        assert!(matches!(
            overlay("key", 1).apply(&dir),
            Err(OverlayError::NoFit { found: 2, .. })
        ));
        overlay("key", 2).apply(&dir).expect("fits");
        let text = std::fs::read_to_string(dir.join("lib.rs")).expect("read");
        assert_eq!(text, "struct S { pub key: u8, pub key: u8 }");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
