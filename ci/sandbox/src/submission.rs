//! Reading a learner's submission without trusting it.
//!
//! **Invariant**: the only files of a submission that reach a grade are the
//! learner files its exercise's pristine manifest names (`src/`, and for
//! some exercises a second crate's `src/`), and only those reached without
//! passing through a symbolic link. Everything else in the submission
//! (tests, manifests, `Cargo.toml`, a new `build.rs`, exercises the course
//! does not have, links, pipes, names with control characters) is compared
//! with the pristine course and reported as [`Ignored`], never copied and
//! never followed. A git revision is read from git's objects directly (no
//! checkout, no filter, no attribute, no hook), and its links and
//! submodules are reported the same way.

use crate::mirror::is_safe_name;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use walkdir::WalkDir;

/// How an ignored entry differs from the pristine course.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// The file is not in the pristine course.
    Added,
    /// The file's content differs.
    Modified,
    /// The pristine file is not in the submission.
    Deleted,
    /// A symbolic link (or a git submodule), never followed.
    Symlink,
    /// Not a regular file or folder: a pipe, a socket, a device.
    NotAFile,
    /// A name that is not UTF-8, holds control characters or a
    /// backslash (which the compiler's dep-info cannot carry).
    UnsafeName,
    /// A file larger than the grader reads.
    TooLarge,
}

/// An entry of the submission the grader ignored.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ignored {
    /// Its path, relative to the exercise (or to the submission's
    /// `exercises/` folder for entries outside any exercise), with `/`
    /// between parts, and control characters escaped (see [`display`]).
    pub path: String,
    /// How it differs.
    pub change: Change,
}

/// Why a submission could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// The path does not exist or is not a folder (a link is not one).
    #[error("{}: not a folder (symbolic links are never followed)", display(.0))]
    NotAFolder(PathBuf),
    /// `git` failed to read the revision.
    #[error("cannot read revision `{}` of {}: {problem}", escape(.revision), display(.repo))]
    Git {
        /// The repository.
        repo: PathBuf,
        /// The revision asked for.
        revision: String,
        /// git's complaint.
        problem: String,
    },
    /// Writing the exported revision failed.
    #[error("{}: {source}", display(.path))]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// How much of a submission the grader takes on, per exercise: past
/// either bound the exercise is not graded, and the report says which
/// bound and why. The grader's own work (listing, comparing, copying)
/// grows with a submission's files, so it is bounded by them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Entries (files, folders, links) under the exercise's folder.
    pub entries: usize,
    /// Bytes of the regular files under it.
    pub bytes: u64,
}

impl Budget {
    /// Twenty times the largest exercise's files (under 100 entries).
    pub const DEFAULT_ENTRIES: usize = 2_000;
    /// Sixteen times the largest exercise's bytes (under 1 MiB).
    pub const DEFAULT_BYTES: u64 = 16 << 20;
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            entries: Self::DEFAULT_ENTRIES,
            bytes: Self::DEFAULT_BYTES,
        }
    }
}

/// Whether the folder `dir` (an exercise of a submission) is within
/// `budget`, counted without following a link and without reading a file;
/// the walk stops at the first bound passed. `Err` says which, in words.
pub fn within_budget(dir: &Path, budget: Budget) -> Result<(), String> {
    let mut entries = 0usize;
    let mut bytes = 0u64;
    let walk = WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_entry(|entry| {
            // Build output of the learner's own machine is not read.
            !(entry.depth() == 1 && entry.file_name() == "target")
        });
    for entry in walk.flatten() {
        if entry.depth() == 0 {
            continue;
        }
        entries += 1;
        if entries > budget.entries {
            return Err(format!(
                "it holds more than {} files and folders, the grader's limit",
                budget.entries
            ));
        }
        if entry.file_type().is_file() {
            bytes = bytes.saturating_add(entry.metadata().map_or(0, |meta| meta.len()));
            if bytes > budget.bytes {
                return Err(format!(
                    "its files hold more than {} KiB, the grader's limit",
                    budget.bytes / 1024
                ));
            }
        }
    }
    Ok(())
}

/// A file of an exported revision is read up to this size; a larger one
/// is reported as [`Change::TooLarge`] and left out.
pub const LARGEST_FILE: u64 = 4 << 20;

/// The most entries a revision's tree may list: a hundred times the
/// course's own files. A tree that lists more (a "tree bomb", a few
/// kilobytes of trees that name each other thousands of times) is refused
/// while git is still listing it, before anything reaches the disk.
pub const MOST_TREE_ENTRIES: usize = 50_000;

/// The most bytes of files a revision's tree may list (the sizes git
/// records): far more than any course fork.
pub const MOST_TREE_BYTES: u64 = 1 << 30;

/// Whether `path` is a real folder: not a link to one.
pub fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir())
}

/// Whether `relative`, under `base`, is reached without passing through a
/// symbolic link (every component is checked, the last included).
pub fn reached_without_links(base: &Path, relative: &Path) -> bool {
    let mut path = base.to_path_buf();
    for component in relative.components() {
        let Component::Normal(part) = component else {
            return false;
        };
        path.push(part);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    true
}

/// The folder that holds a submission's exercises: `SUBMISSION/exercises`
/// when it is a real folder, else the submission itself (a bare copy of
/// `exercises/`).
pub fn exercises_root(submission: &Path) -> PathBuf {
    let nested = submission.join("exercises");
    if is_real_dir(&nested) {
        nested
    } else {
        submission.to_path_buf()
    }
}

/// Exports `revision` of the git repository at `repo` into `dest` (emptied
/// first): regular files only, read with `git ls-tree` and `git cat-file`,
/// so that nothing in the repository (its attributes, filters, hooks) runs
/// and no link is created. Returns the entries left out (links,
/// submodules, unsafe names, files over [`LARGEST_FILE`]).
pub fn export_revision(
    repo: &Path,
    revision: &str,
    dest: &Path,
) -> Result<Vec<Ignored>, SubmissionError> {
    let git_error = |problem: String| SubmissionError::Git {
        repo: repo.to_path_buf(),
        revision: revision.to_owned(),
        problem,
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SubmissionError::Io { path, source }
    };
    if revision.starts_with('-') || revision.contains(char::is_control) {
        return Err(git_error("not a revision".to_owned()));
    }
    if std::fs::symlink_metadata(dest).is_ok() {
        std::fs::remove_dir_all(dest).map_err(io(dest))?;
    }
    std::fs::create_dir_all(dest).map_err(io(dest))?;

    let listing = bounded_listing(repo, revision).map_err(git_error)?;
    let mut ignored = Vec::new();
    let mut wanted: Vec<(String, PathBuf)> = Vec::new();
    for entry in listing.split(|&byte| byte == 0) {
        if entry.is_empty() {
            continue;
        }
        // `MODE TYPE OBJECT SIZE\tPATH`
        let Some(tab) = entry.iter().position(|&byte| byte == b'\t') else {
            continue;
        };
        let (head, name) = (&entry[..tab], &entry[tab + 1..]);
        let head = String::from_utf8_lossy(head);
        let fields: Vec<&str> = head.split_whitespace().collect();
        let [mode, _kind, object, size] = fields.as_slice() else {
            continue;
        };
        let path_text = String::from_utf8_lossy(name).into_owned();
        let path = PathBuf::from(&path_text);
        let safe = std::str::from_utf8(name).is_ok()
            && path.components().all(|part| {
                matches!(part, Component::Normal(part) if is_safe_name(part) && part != ".git")
            });
        let change = if !safe {
            Some(Change::UnsafeName)
        } else if *mode == "120000" || *mode == "160000" {
            Some(Change::Symlink)
        } else if size.parse::<u64>().map_or(true, |size| size > LARGEST_FILE) {
            Some(Change::TooLarge)
        } else {
            None
        };
        match change {
            Some(change) => ignored.push(Ignored {
                path: escape(&path_text),
                change,
            }),
            None => wanted.push(((*object).to_owned(), path)),
        }
    }

    // One `cat-file --batch` for every blob, in order.
    let mut cat = git(repo)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|err| git_error(format!("cannot run git: {err}")))?;
    let mut input = cat
        .stdin
        .take()
        .ok_or_else(|| git_error("no pipe".into()))?;
    let objects: String = wanted
        .iter()
        .map(|(object, _)| format!("{object}\n"))
        .collect();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(objects.as_bytes());
    });
    let mut output = BufReader::new(
        cat.stdout
            .take()
            .ok_or_else(|| git_error("no pipe".into()))?,
    );
    for (_, path) in &wanted {
        let mut header = String::new();
        output
            .read_line(&mut header)
            .map_err(|err| git_error(format!("reading git's output: {err}")))?;
        // `OBJECT blob SIZE`
        let size: u64 = header
            .split_whitespace()
            .nth(2)
            .and_then(|size| size.parse().ok())
            .ok_or_else(|| git_error(format!("unexpected output from git: {}", header.trim())))?;
        let mut content = Vec::new();
        (&mut output)
            .take(size.min(LARGEST_FILE))
            .read_to_end(&mut content)
            .map_err(|err| git_error(format!("reading git's output: {err}")))?;
        let mut newline = [0u8; 1];
        let _ = output.read_exact(&mut newline);
        let target = dest.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        std::fs::write(&target, content).map_err(io(&target))?;
    }
    let _ = feeder.join();
    let _ = cat.wait();
    ignored.sort();
    Ok(ignored)
}

/// `git ls-tree -r` of `revision`, read as git writes it and stopped as
/// soon as it lists more than [`MOST_TREE_ENTRIES`] entries or
/// [`MOST_TREE_BYTES`] bytes of files: the NUL-separated listing, or why
/// there is none.
fn bounded_listing(repo: &Path, revision: &str) -> Result<Vec<u8>, String> {
    let mut child = git(repo)
        .args(["ls-tree", "-r", "-z", "--full-tree", "--long"])
        .arg(format!("{revision}^{{tree}}"))
        .arg("--")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("cannot run git: {err}"))?;
    let stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stderr) = stderr {
            let _ = stderr.take(64 * 1024).read_to_string(&mut text);
        }
        text
    });
    let mut listing = Vec::new();
    let mut refused = None;
    if let Some(stdout) = child.stdout.take() {
        let mut reader = BufReader::new(stdout);
        let (mut entries, mut bytes) = (0usize, 0u64);
        loop {
            let mut entry = Vec::new();
            match reader.read_until(0, &mut entry) {
                Ok(0) => break,
                Ok(_) => {}
                Err(err) => {
                    refused = Some(format!("reading git's output: {err}"));
                    break;
                }
            }
            entries += 1;
            // `MODE TYPE OBJECT SIZE\tPATH`: the size is the fourth field.
            let head = entry
                .split(|&byte| byte == b'\t')
                .next()
                .unwrap_or_default();
            bytes += String::from_utf8_lossy(head)
                .split_whitespace()
                .nth(3)
                .and_then(|size| size.parse::<u64>().ok())
                .unwrap_or(0);
            if entries > MOST_TREE_ENTRIES || bytes > MOST_TREE_BYTES {
                refused = Some(format!(
                    "the revision's tree lists more than {MOST_TREE_ENTRIES} files or {} MiB: it is refused before any of it is written",
                    MOST_TREE_BYTES >> 20
                ));
                break;
            }
            listing.extend_from_slice(&entry);
        }
    }
    if refused.is_some() {
        let _ = child.kill();
    }
    let status = child
        .wait()
        .map_err(|err| format!("cannot wait for git: {err}"))?;
    let errors = errors.join().unwrap_or_default();
    if let Some(why) = refused {
        return Err(why);
    }
    if !status.success() {
        return Err(errors.trim().to_owned());
    }
    Ok(listing)
}

/// `git -C REPO` with the user's and system's configuration left out and
/// the repository's dangerous settings off.
fn git(repo: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "safe.directory=*",
            "--no-pager",
            "-C",
        ])
        .arg(repo)
        .stdin(Stdio::null());
    command
}

/// The entries under `dir`, relative to it, apart: regular files, and
/// everything else (links, pipes, unsafe names) with its change. `target/`
/// and `.git/` are skipped; links are never followed.
fn listing(dir: &Path) -> (BTreeSet<PathBuf>, Vec<Ignored>) {
    let mut files = BTreeSet::new();
    let mut others = Vec::new();
    let walk = WalkDir::new(dir)
        .follow_links(false)
        .follow_root_links(false)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0 || (entry.file_name() != "target" && entry.file_name() != ".git")
        });
    for entry in walk.flatten() {
        let Ok(relative) = entry.path().strip_prefix(dir) else {
            continue;
        };
        if entry.depth() == 0 {
            continue;
        }
        let kind = entry.file_type();
        let change = if !is_safe_name(entry.file_name()) {
            Some(Change::UnsafeName)
        } else if kind.is_symlink() {
            Some(Change::Symlink)
        } else if !kind.is_file() && !kind.is_dir() {
            Some(Change::NotAFile)
        } else {
            None
        };
        match change {
            Some(change) => others.push(Ignored {
                path: display(relative),
                change,
            }),
            None if kind.is_file() => {
                files.insert(relative.to_path_buf());
            }
            None => {}
        }
    }
    (files, others)
}

fn same_content(a: &Path, b: &Path) -> bool {
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A path as reports write it: `/` between parts, control characters
/// escaped.
pub fn display(path: &Path) -> String {
    let text = path.to_string_lossy();
    // On Windows `\\` separates folders; elsewhere it is part of a name
    // (one the grader leaves out, and must show as it is).
    if cfg!(windows) {
        escape(&text.replace('\\', "/"))
    } else {
        escape(&text)
    }
}

/// `text` with control characters written as `\u{..}` escapes, so that a
/// name cannot start a new line or drive a terminal.
pub fn escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// What the grader ignores in the submission's copy of one exercise:
/// every file outside `learner_files` that differs from the pristine
/// exercise, and every link, special file or unsafe name (inside learner
/// files too: they are never copied).
pub fn ignored_in_exercise(
    pristine: &Path,
    submitted: &Path,
    learner_files: &[PathBuf],
) -> Vec<Ignored> {
    let is_learners = |path: &Path| learner_files.iter().any(|root| path.starts_with(root));
    let (theirs, mut ignored) = listing(submitted);
    let (ours, _) = listing(pristine);
    let other_paths: BTreeSet<String> =
        ignored.iter().map(|ignored| ignored.path.clone()).collect();
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
        if !is_learners(path) && !theirs.contains(path) && !other_paths.contains(&display(path)) {
            ignored.push(Ignored {
                path: display(path),
                change: Change::Deleted,
            });
        }
    }
    ignored.sort();
    ignored
}

/// Entries of the submission's exercises folder that are not exercises of
/// the course (`known`), or are exercises reached through a link.
pub fn ignored_outside(root: &Path, known: &[String]) -> Vec<Ignored> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut ignored: Vec<Ignored> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let kind = entry.file_type().ok()?;
            let is_known = name
                .to_str()
                .is_some_and(|name| known.iter().any(|k| k == name));
            let change = if !is_safe_name(&name) {
                Change::UnsafeName
            } else if kind.is_symlink() {
                Change::Symlink
            } else if is_known || name == "target" || name == ".git" {
                return None;
            } else if kind.is_dir() || kind.is_file() {
                Change::Added
            } else {
                Change::NotAFile
            };
            let mut path = display(Path::new(&name));
            if kind.is_dir() {
                path.push('/');
            }
            Some(Ignored { path, change })
        })
        .collect();
    ignored.sort();
    ignored
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder is within its budget up to the bounds and not past them,
    /// counting entries and bytes, and the walk names the bound passed.
    #[test]
    fn budget_counts_entries_and_bytes() {
        let dir = std::env::temp_dir().join(format!("xsafe-budget-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for index in 0..5 {
            write(&dir.join(format!("src/f{index}.rs")), "0123456789");
        }
        // src/ and five files: six entries, fifty bytes.
        assert_eq!(
            within_budget(
                &dir,
                Budget {
                    entries: 6,
                    bytes: 50
                }
            ),
            Ok(())
        );
        let entries = within_budget(
            &dir,
            Budget {
                entries: 5,
                bytes: 50,
            },
        );
        assert!(entries.is_err_and(|why| why.contains("more than 5 files")));
        let bytes = within_budget(
            &dir,
            Budget {
                entries: 6,
                bytes: 49,
            },
        );
        assert!(bytes.is_err_and(|why| why.contains("KiB")));
        let _ = std::fs::remove_dir_all(&dir);
    }

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
            std::env::temp_dir().join(format!("xsafe-sandbox-diff-{}", std::process::id()));
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
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&pristine, submitted.join("src/linked")).expect("link");
            write(&submitted.join("src/\u{1b}[2Jx.rs"), "");
        }

        let ignored = ignored_in_exercise(&pristine, &submitted, &[PathBuf::from("src")]);
        let seen: Vec<(&str, Change)> = ignored
            .iter()
            .map(|ignored| (ignored.path.as_str(), ignored.change))
            .collect();
        let mut expected = vec![
            ("build.rs", Change::Added),
            ("grading/cases/a.rs", Change::Modified),
            ("grading/cases/b.rs", Change::Deleted),
        ];
        if cfg!(unix) {
            expected.push(("src/linked", Change::Symlink));
            expected.push(("src/\\u{1b}[2Jx.rs", Change::UnsafeName));
        }
        expected.sort();
        assert_eq!(seen, expected);
        let _ = std::fs::remove_dir_all(&scratch);
    }
}

#[cfg(test)]
mod tree_bomb {
    use super::*;

    fn run(repo: &Path, args: &[&str], input: Option<&str>) -> String {
        let mut child = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "x")
            .env("GIT_AUTHOR_EMAIL", "x@example.com")
            .env("GIT_COMMITTER_NAME", "x")
            .env("GIT_COMMITTER_EMAIL", "x@example.com")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("git runs");
        if let Some(input) = input
            && let Some(mut stdin) = child.stdin.take()
        {
            stdin.write_all(input.as_bytes()).expect("input");
        }
        let output = child.wait_with_output().expect("git ends");
        assert!(output.status.success(), "git {args:?}");
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    /// A commit of a few kilobytes whose trees name each other ten times
    /// per level, six levels deep (a million files), is refused while git
    /// lists it, and nothing is written.
    #[test]
    fn a_tree_bomb_is_refused_before_it_reaches_the_disk() {
        let repo = std::env::temp_dir().join(format!("xsafe-tree-bomb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&repo);
        std::fs::create_dir_all(&repo).expect("scratch");
        run(&repo, &["init", "--quiet"], None);
        let blob = run(&repo, &["hash-object", "-w", "--stdin"], Some("x\n"));
        let mut listing: String = (0..10)
            .map(|n| format!("100644 blob {blob}\tf{n}\n"))
            .collect();
        let mut tree = run(&repo, &["mktree"], Some(&listing));
        for _ in 0..5 {
            listing = (0..10)
                .map(|n| format!("040000 tree {tree}\td{n}\n"))
                .collect();
            tree = run(&repo, &["mktree"], Some(&listing));
        }
        let commit = run(&repo, &["commit-tree", &tree, "-m", "bomb"], None);
        let dest = repo.join("out");
        let refused = export_revision(&repo, &commit, &dest).expect_err("refused");
        let files = walkdir::WalkDir::new(&dest)
            .into_iter()
            .flatten()
            .filter(|entry| entry.file_type().is_file())
            .count();
        let _ = std::fs::remove_dir_all(&repo);
        assert!(
            refused.to_string().contains("more than 50000 files"),
            "{refused}"
        );
        assert_eq!(files, 0);
    }
}
