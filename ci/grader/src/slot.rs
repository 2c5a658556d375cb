//! The folder of one grade.
//!
//! **Invariant**: while a grade runs, no other grade uses its folder. A
//! grade of the same submission takes the same folder when it is free (its
//! sandboxes and builds are then warm), and a folder of its own when another
//! grade holds it: each slot has a lock file, held for the whole grade. Two
//! graders started on one work folder and one target directory therefore
//! never build or run each other's copies.

use std::fs::File;
use std::path::{Path, PathBuf};

/// A grade's folder, held until dropped.
#[derive(Debug)]
pub struct Slot {
    /// The folder.
    pub dir: PathBuf,
    _lock: File,
}

impl Slot {
    /// Takes the slot of `submission` (at `revision`) under `work_dir`.
    pub fn take(
        work_dir: &Path,
        submission: &Path,
        revision: Option<&str>,
    ) -> std::io::Result<Slot> {
        let key = {
            let path = submission
                .canonicalize()
                .unwrap_or_else(|_| submission.to_path_buf());
            let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
            for byte in path
                .to_string_lossy()
                .bytes()
                .chain(revision.unwrap_or("").bytes())
            {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
            format!("{hash:016x}")
        };
        let slots = work_dir.join("slots");
        std::fs::create_dir_all(&slots)?;
        for attempt in 0u32.. {
            let name = if attempt == 0 {
                key.clone()
            } else {
                format!("{key}-{attempt}")
            };
            let lock = File::create(slots.join(format!("{name}.lock")))?;
            match lock.try_lock() {
                Ok(()) => {
                    let dir = slots.join(name);
                    std::fs::create_dir_all(&dir)?;
                    return Ok(Slot { dir, _lock: lock });
                }
                Err(std::fs::TryLockError::WouldBlock) => continue,
                Err(std::fs::TryLockError::Error(err)) => return Err(err),
            }
        }
        unreachable!("some slot is always free")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same submission gets the same slot when it is free, and another
    /// one while the first is held.
    #[test]
    fn a_held_slot_is_not_shared() {
        let work = std::env::temp_dir().join(format!("xsafe-slots-{}", std::process::id()));
        let first = Slot::take(&work, Path::new("/some/submission"), None).expect("slot");
        let second = Slot::take(&work, Path::new("/some/submission"), None).expect("slot");
        assert_ne!(first.dir, second.dir);
        let first_dir = first.dir.clone();
        drop(first);
        let again = Slot::take(&work, Path::new("/some/submission"), None).expect("slot");
        assert_eq!(again.dir, first_dir);
        let _ = std::fs::remove_dir_all(&work);
    }
}
