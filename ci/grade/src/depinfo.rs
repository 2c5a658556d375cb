//! What the compiler read.
//!
//! **Invariant**: a build that compiles learner bytes is accepted only when
//! every file the compiler read for it, as its dep-info (`.d`) files list
//! them, is under a folder the build was allowed to read: the crate under
//! test, the cases, the workspace the grader wrote, the course's path
//! dependencies, the registry's sources, the toolchain, or the build's own
//! target folder. A file anywhere else fails the exercise, named. So
//! `#[path]`, `include!`, `include_str!` and `include_bytes!` cannot bring
//! in another file (the course's solutions, another submission), at any
//! depth of modules or macros, whatever the isolation (under bubblewrap the
//! file is not even there to read; this check holds without it). A path
//! the listing names under the crate under test must be one of its
//! regular files: a name the listing's format mangles (`h1\` before a
//! space reads as one name with the next path) lists a file that is not
//! there, and counts as outside.
//!
//! The learner's own crates are held tighter: a listing that names a
//! learner file (under the manifest's `learner_files` folders: the crate's
//! `src`, a macro crate's `derive/src`) may name no file outside them,
//! though the build around it may read the cases (which sit in the
//! exercise's folder) and the course's path dependencies. A learner's
//! crate compiles from its own files alone; the cases' models (a whole
//! set, a whole bank) are not files it can bring in.

use crate::build::normalized;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The files a dep-info file lists as read. Paths that are not absolute
/// are relative to `base` (the workspace's root, where cargo runs rustc
/// for its members).
pub fn files_read(dep_info: &str, base: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for line in dep_info.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // `TARGETS: DEPS`, with spaces in names escaped as `\ `.
        let Some(colon) = unescaped_colon(line) else {
            continue;
        };
        for name in split_escaped(&line[colon + 1..]) {
            let path = PathBuf::from(&name);
            let path = if path.is_absolute() {
                path
            } else {
                base.join(path)
            };
            files.push(normalized(&path));
        }
    }
    files
}

/// The position of the `:` that ends a rule's targets: the first one
/// followed by a space or the end of the line (a path may hold `:`).
fn unescaped_colon(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    (0..bytes.len()).find(|&at| {
        bytes[at] == b':'
            && (at + 1 == bytes.len() || bytes[at + 1] == b' ')
            && (at == 0 || bytes[at - 1] != b'\\')
    })
}

/// The names of a rule's right side: separated by spaces, `\ ` inside a
/// name.
fn split_escaped(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                current.push(' ');
                chars.next();
            }
            ' ' => {
                if !current.is_empty() {
                    names.push(std::mem::take(&mut current));
                }
            }
            other => current.push(other),
        }
    }
    if !current.is_empty() {
        names.push(current);
    }
    names
}

/// Every file the dep-info files list that is under none of `allowed`,
/// or under one of `existing` without being a regular file there, once
/// each, sorted.
pub fn outside<'a>(
    dep_infos: impl Iterator<Item = &'a [u8]>,
    base: &Path,
    allowed: &[PathBuf],
    existing: &[PathBuf],
) -> Vec<PathBuf> {
    let allowed: Vec<PathBuf> = allowed.iter().map(|path| normalized(path)).collect();
    let existing: Vec<PathBuf> = existing.iter().map(|path| normalized(path)).collect();
    let mut found = BTreeSet::new();
    for dep_info in dep_infos {
        let text = String::from_utf8_lossy(dep_info);
        for file in files_read(&text, base) {
            let inside = allowed.iter().any(|root| file.starts_with(root));
            let missing = existing.iter().any(|root| file.starts_with(root))
                && !std::fs::symlink_metadata(&file).is_ok_and(|meta| meta.is_file());
            if !inside || missing {
                found.insert(file);
            }
        }
    }
    found.into_iter().collect()
}

/// Every file that a listing of one of the learner's crates (a listing
/// that names a file under one of `own`, the learner's folders of the
/// crate) names outside all of them, once each, sorted.
pub fn beyond_own<'a>(
    dep_infos: impl Iterator<Item = &'a [u8]>,
    base: &Path,
    own: &[PathBuf],
) -> Vec<PathBuf> {
    let own: Vec<PathBuf> = own.iter().map(|path| normalized(path)).collect();
    let is_own = |file: &PathBuf| own.iter().any(|root| file.starts_with(root));
    let mut found = BTreeSet::new();
    for dep_info in dep_infos {
        let files = files_read(&String::from_utf8_lossy(dep_info), base);
        if files.iter().any(is_own) {
            found.extend(files.into_iter().filter(|file| !is_own(file)));
        }
    }
    found.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rustc's dep-info: a rule per output, then one empty rule per file;
    /// escaped spaces, relative names and `..` are read as paths.
    #[test]
    fn reads_the_files_a_rule_lists() {
        let text = "/t/deps/libx-1.rmeta: src/lib.rs /s/my\\ crate/src/a.rs /s/c/../../etc/passwd\n\nsrc/lib.rs:\n/s/my\\ crate/src/a.rs:\n# env-dep:CARGO_PKG_NAME=x\n";
        let files = files_read(text, Path::new("/w"));
        assert_eq!(
            files,
            [
                PathBuf::from("/w/src/lib.rs"),
                PathBuf::from("/s/my crate/src/a.rs"),
                PathBuf::from("/etc/passwd"),
            ]
        );
    }

    /// A file outside every allowed folder is named once, however many
    /// dep-info files list it; files inside pass.
    #[test]
    fn names_each_file_outside_once() {
        let a = b"/t/a.d: /sandbox/src/lib.rs /course/solutions/x/src/lib.rs\n".as_slice();
        let b = b"/t/b.d: /course/solutions/x/src/lib.rs /registry/src/serde/lib.rs\n".as_slice();
        let outside = outside(
            [a, b].into_iter(),
            Path::new("/w"),
            &[PathBuf::from("/sandbox"), PathBuf::from("/registry")],
            &[],
        );
        assert_eq!(outside, [PathBuf::from("/course/solutions/x/src/lib.rs")]);
    }

    /// The learner's crate (its `src`) may not name the cases, though they
    /// sit in the crate's folder and the build may read them for the
    /// cases' own crate; a listing of another crate may.
    #[test]
    fn the_learners_crate_reads_only_its_own_files() {
        let learner =
            b"/t/deps/ordered_tree-1.d: /sub/src/lib.rs /sub/grading/cases/support.rs\n".as_slice();
        let cases =
            b"/t/deps/observe-2.d: cases/observe.rs /sub/grading/cases/support.rs\n".as_slice();
        let own = [PathBuf::from("/sub/src"), PathBuf::from("/sub/derive/src")];
        let found = beyond_own([learner, cases].into_iter(), Path::new("/w"), &own);
        assert_eq!(found, [PathBuf::from("/sub/grading/cases/support.rs")]);
        let found = beyond_own([cases].into_iter(), Path::new("/w"), &own);
        assert!(
            found.is_empty(),
            "the cases' own listing is not the learner's"
        );
    }

    /// A learner file named `h1\` makes rustc list `src/h1\ /course/x.rs`,
    /// which reads as one name under the crate: that name is no file of
    /// the crate, so it counts as outside.
    #[test]
    fn a_mangled_name_under_the_crate_is_outside() {
        let dir = std::env::temp_dir().join(format!("xsafe-depinfo-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).expect("scratch");
        std::fs::write(dir.join("src/lib.rs"), "").expect("write");
        let listing = format!(
            "/t/a.d: {0}/src/lib.rs {0}/src/h1\\ /course/solutions/x/src/lib.rs\n",
            dir.display()
        );
        let found = outside(
            [listing.as_bytes()].into_iter(),
            Path::new("/w"),
            std::slice::from_ref(&dir),
            std::slice::from_ref(&dir),
        );
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            found,
            [dir.join("src/h1 /course/solutions/x/src/lib.rs")],
            "the mangled name is reported"
        );
    }
}
