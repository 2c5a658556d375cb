//! Copying a folder without following or copying a symbolic link, at any
//! depth, and without rewriting what has not changed.
//!
//! **Invariant**: [`mirror`] writes only regular files and folders under
//! its destination, each the copy of a regular file or folder found under
//! its source *without passing through a symbolic link* (the source root
//! included). Anything else (a link, a device, a pipe, a name with control
//! characters) is left out and listed, so the caller can say so. A file
//! whose content is already in place is not rewritten, which keeps its
//! modification time, and with it cargo's build cache, valid.

use crate::SandboxError;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// An entry the mirror left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct LeftOut {
    /// Its path, relative to the source.
    pub path: PathBuf,
    /// Why.
    pub why: LeftOutBecause,
}

/// Why an entry was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LeftOutBecause {
    /// A symbolic link, never followed.
    SymbolicLink,
    /// Not a regular file or folder (a pipe, a socket, a device).
    NotAFile,
    /// Its name is not UTF-8, holds control characters (a newline, an
    /// escape sequence), which could forge lines in logs and reports, or a
    /// backslash, which the compiler's list of the files it read cannot
    /// carry (`h1\` followed by a space reads as one name with the next).
    UnsafeName,
}

/// Whether a file name can be shown and listed safely: UTF-8, no control
/// character, no backslash.
pub fn is_safe_name(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|name| !name.chars().any(|c| c.is_control() || c == '\\'))
}

/// Makes `to` hold exactly the regular files and folders of `from` (minus
/// `target/` folders and the paths `skip` says to leave alone, relative to
/// `from`), and returns what was left out. `from` must be a real folder, not
/// a link to one.
pub fn mirror(
    from: &Path,
    to: &Path,
    skip: &dyn Fn(&Path) -> bool,
) -> Result<Vec<LeftOut>, SandboxError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SandboxError::Io { path, source }
    };
    let root = std::fs::symlink_metadata(from).map_err(io(from))?;
    if !root.is_dir() {
        return Err(SandboxError::Io {
            path: from.to_path_buf(),
            source: std::io::Error::other("not a folder (a symbolic link is never followed)"),
        });
    }
    let mut left_out = Vec::new();
    let mut kept: Vec<PathBuf> = Vec::new();
    std::fs::create_dir_all(to).map_err(io(to))?;
    let walk = WalkDir::new(from)
        .follow_links(false)
        .follow_root_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            if entry.depth() == 0 {
                return true;
            }
            let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
            let build_output = entry.file_type().is_dir() && entry.file_name() == "target";
            !build_output && !skip(relative)
        });
    let mut walk = walk;
    while let Some(entry) = walk.next() {
        let entry = entry.map_err(|err| SandboxError::Io {
            path: err.path().unwrap_or(from).to_path_buf(),
            source: err.into(),
        })?;
        if entry.depth() == 0 {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(from)
            .unwrap_or(entry.path())
            .to_path_buf();
        let kind = entry.file_type();
        let why = if !is_safe_name(entry.file_name()) {
            Some(LeftOutBecause::UnsafeName)
        } else if kind.is_symlink() {
            Some(LeftOutBecause::SymbolicLink)
        } else if !kind.is_dir() && !kind.is_file() {
            Some(LeftOutBecause::NotAFile)
        } else {
            None
        };
        if let Some(why) = why {
            if kind.is_dir() {
                walk.skip_current_dir();
            }
            left_out.push(LeftOut {
                path: relative,
                why,
            });
            continue;
        }
        let target = to.join(&relative);
        if kind.is_dir() {
            if std::fs::symlink_metadata(&target).is_ok_and(|meta| !meta.is_dir()) {
                std::fs::remove_file(&target).map_err(io(&target))?;
            }
            std::fs::create_dir_all(&target).map_err(io(&target))?;
        } else {
            copy_if_changed(entry.path(), &target)?;
        }
        kept.push(relative);
    }
    remove_others(to, to, &kept, skip)?;
    Ok(left_out)
}

/// Copies a regular file unless the target already has its content.
fn copy_if_changed(from: &Path, to: &Path) -> Result<(), SandboxError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SandboxError::Io { path, source }
    };
    let content = std::fs::read(from).map_err(io(from))?;
    match std::fs::symlink_metadata(to) {
        Ok(meta) if meta.is_file() => {
            if meta.len() == content.len() as u64
                && std::fs::read(to).is_ok_and(|old| old == content)
            {
                return Ok(());
            }
        }
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(to).map_err(io(to))?,
        Ok(_) => std::fs::remove_file(to).map_err(io(to))?,
        Err(_) => {}
    }
    std::fs::write(to, content).map_err(io(to))
}

/// Removes what is under `dir` (inside the mirror `root`) but not `kept`.
fn remove_others(
    root: &Path,
    dir: &Path,
    kept: &[PathBuf],
    skip: &dyn Fn(&Path) -> bool,
) -> Result<(), SandboxError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        if skip(&relative) || (entry.file_name() == "target" && path.is_dir()) {
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
        if !kept.contains(&relative) {
            let removed = if is_dir {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            removed.map_err(|source| SandboxError::Io {
                path: path.clone(),
                source,
            })?;
        } else if is_dir {
            remove_others(root, &path, kept, skip)?;
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xsafe-mirror-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch");
        dir
    }

    /// Links (to files, to folders, at the root), odd names and extra
    /// files in the destination: only real files and folders end up there.
    #[test]
    fn copies_only_real_files() {
        let base = scratch("links");
        let (from, to, outside) = (base.join("from"), base.join("to"), base.join("outside"));
        std::fs::create_dir_all(from.join("src/deep")).expect("dirs");
        std::fs::create_dir_all(&outside).expect("dirs");
        std::fs::write(outside.join("secret.rs"), "secret").expect("write");
        std::fs::write(from.join("src/lib.rs"), "lib").expect("write");
        std::fs::write(from.join("src/deep/a.rs"), "a").expect("write");
        std::os::unix::fs::symlink(outside.join("secret.rs"), from.join("src/link.rs"))
            .expect("link");
        std::os::unix::fs::symlink(&outside, from.join("src/dir")).expect("link");
        std::fs::write(from.join("src/bad\nname.rs"), "x").expect("write");
        // rustc lists `h1\` then a space as one name with the next path.
        std::fs::write(from.join("src/h1\\"), "x").expect("write");
        std::fs::create_dir_all(to.join("src")).expect("dirs");
        std::fs::write(to.join("src/old.rs"), "old").expect("write");

        let left_out = mirror(&from, &to, &|_| false).expect("mirrors");
        let mut found: Vec<String> = walkdir::WalkDir::new(&to)
            .min_depth(1)
            .into_iter()
            .flatten()
            .map(|entry| {
                entry
                    .path()
                    .strip_prefix(&to)
                    .expect("inside")
                    .display()
                    .to_string()
            })
            .collect();
        found.sort();
        assert_eq!(found, ["src", "src/deep", "src/deep/a.rs", "src/lib.rs"]);
        let whys: Vec<(String, LeftOutBecause)> = left_out
            .iter()
            .map(|left| (left.path.display().to_string(), left.why))
            .collect();
        assert_eq!(
            whys,
            [
                ("src/bad\nname.rs".to_owned(), LeftOutBecause::UnsafeName),
                ("src/dir".to_owned(), LeftOutBecause::SymbolicLink),
                ("src/h1\\".to_owned(), LeftOutBecause::UnsafeName),
                ("src/link.rs".to_owned(), LeftOutBecause::SymbolicLink),
            ]
        );

        let link = base.join("root-link");
        std::os::unix::fs::symlink(&from, &link).expect("link");
        assert!(
            mirror(&link, &base.join("to2"), &|_| false).is_err(),
            "a linked root is refused"
        );
        let _ = std::fs::remove_dir_all(&base);
    }

    /// An unchanged file keeps its modification time; a changed one is
    /// rewritten.
    #[test]
    fn keeps_unchanged_files() {
        let base = scratch("times");
        let (from, to) = (base.join("from"), base.join("to"));
        std::fs::create_dir_all(&from).expect("dirs");
        std::fs::write(from.join("a.rs"), "a").expect("write");
        mirror(&from, &to, &|_| false).expect("mirrors");
        let before = std::fs::metadata(to.join("a.rs"))
            .and_then(|m| m.modified())
            .expect("time");
        std::thread::sleep(std::time::Duration::from_millis(20));
        mirror(&from, &to, &|_| false).expect("mirrors");
        let after = std::fs::metadata(to.join("a.rs"))
            .and_then(|m| m.modified())
            .expect("time");
        assert_eq!(before, after);
        std::fs::write(from.join("a.rs"), "b").expect("write");
        mirror(&from, &to, &|_| false).expect("mirrors");
        assert_eq!(std::fs::read_to_string(to.join("a.rs")).expect("read"), "b");
        let _ = std::fs::remove_dir_all(&base);
    }
}
