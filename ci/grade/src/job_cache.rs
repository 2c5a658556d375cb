//! Replaying a confined job's output instead of running it again.
//!
//! **Invariant**: [`JobCache::replay`] gives back a recorded output only for
//! a job that would run with exactly the same inputs, and only an output
//! that a run of it really gave:
//!
//! * jobs are cached only under bubblewrap, and only jobs whose writable
//!   folders are all fresh: whatever such a job did besides its archive
//!   ended with its sandbox, so its recorded output is all it did;
//! * the key holds the cache's format, the isolation, the toolchain's
//!   version, the job's whole script and sandbox arguments (its steps'
//!   programs, arguments, environments and time limits, its reads, seeds
//!   and sizes; only the run's own output folder and archive nonce are left
//!   out), the job's bounds as a whole (time, processor time, output,
//!   memory), and every file the job could read under its reads and its
//!   seeds: small files of its reads by content (a submission copied
//!   afresh has new times but the same bytes), everything else by size,
//!   inode and modification and change times, which any write changes; a
//!   link counts by where it points and is never followed;
//! * only a run that ended by itself, each step of which succeeded or
//!   failed the way code fails (the compiler's errors, with no sign of the
//!   machine: see [`failed_as_code_fails`]) is recorded: a failure that
//!   may be the machine's (a limit reached, a process killed, a full disk)
//!   is never inherited by a later grade, which runs the job again;
//! * an entry is read only if its checksum holds, and the cache's folder is
//!   one no job can see: a job whose reads, seeds or folders contain it, or
//!   lie inside it, is not cached.
//!
//! The cache is bounded: past its budget, the entries used longest ago go.
//! Only the instructor's grader uses it ([`crate::Freshness::PerGrade`]):
//! a re-grade of an unchanged submission then runs its cases again but none
//! of its builds.

use crate::confine::{JobOutput, StepOutput};
use crate::limits::Ending;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read as _;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The entries' format: a change to it (or to the engine's version) makes
/// every older entry a miss.
const FORMAT: &str = "xsafe-job-cache-1";

/// The system files that stand for the system's version in a key.
const MACHINE: [&str; 3] = ["/etc/ld.so.cache", "/usr/bin/cc", "/usr/bin/ld"];

/// Files of a job's reads up to this size count by content.
const CONTENT_BYTES: u64 = 64 << 10;

/// A folder of recorded job outputs, with a budget.
#[derive(Debug, Clone)]
pub struct JobCache {
    dir: PathBuf,
    budget: u64,
}

/// What a job may read or write, for the key and the check that it cannot
/// reach the cache.
#[derive(Debug)]
pub struct JobInputs<'a> {
    /// The job's script, with its output folder and nonce as placeholders.
    pub script: &'a str,
    /// The sandbox's arguments, likewise.
    pub sandbox: &'a [std::ffi::OsString],
    /// The job's bounds as a whole (time, processor time, output, memory).
    pub bounds: crate::limits::Bounds,
    /// The toolchain's version.
    pub toolchain: &'a str,
    /// The folders and files it reads (without the toolchain's).
    pub reads: &'a [PathBuf],
    /// The folders its fresh folders are seeded from.
    pub seeds: &'a [PathBuf],
    /// Its writable folders.
    pub writes: &'a [PathBuf],
}

impl JobCache {
    /// A cache in `dir` holding at most about `budget` bytes.
    pub fn new(dir: &Path, budget: u64) -> JobCache {
        JobCache {
            dir: dir.to_path_buf(),
            budget,
        }
    }

    /// The key of a job with these inputs, or `None` when it may not be
    /// cached (it can reach the cache, or a file cannot be read).
    pub fn key(&self, inputs: &JobInputs) -> Option<String> {
        let reaches = |path: &Path| path.starts_with(&self.dir) || self.dir.starts_with(path);
        if inputs
            .reads
            .iter()
            .chain(inputs.seeds)
            .chain(inputs.writes)
            .any(|path| reaches(path))
        {
            return None;
        }
        let mut hasher = Sha256::new();
        let mut field = |bytes: &[u8]| {
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        field(FORMAT.as_bytes());
        field(env!("CARGO_PKG_VERSION").as_bytes());
        field(inputs.toolchain.as_bytes());
        field(inputs.script.as_bytes());
        // The system's linker and libraries, which every build reads, are
        // not keyed file by file: a package update rewrites the loader's
        // cache and moves the linker, and that is keyed.
        for system in MACHINE {
            let meta = Path::new(system).canonicalize().and_then(std::fs::metadata);
            if let Ok(meta) = meta {
                metadata_digest(&meta, &mut field);
            }
        }
        for arg in inputs.sandbox {
            field(arg.as_encoded_bytes());
        }
        let bounds = inputs.bounds;
        field(&bounds.time.as_nanos().to_le_bytes());
        field(
            &bounds
                .processor
                .map_or(u128::MAX, |limit| limit.as_nanos())
                .to_le_bytes(),
        );
        field(&(bounds.output_bytes as u64).to_le_bytes());
        field(&bounds.memory_bytes.to_le_bytes());
        for (paths, by_content) in [(inputs.reads, true), (inputs.seeds, false)] {
            field(b"--");
            for path in paths {
                field(path.as_os_str().as_encoded_bytes());
                tree_digest(path, by_content, &mut field)?;
            }
        }
        Some(format!("{:x}", hasher.finalize()))
    }

    /// The output recorded under `key`, when there is an intact one.
    pub fn replay(&self, key: &str) -> Option<JobOutput> {
        let path = self.dir.join(key);
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .ok()?
            .read_to_end(&mut bytes)
            .ok()?;
        let (sum, body) = bytes.split_at_checked(32)?;
        if Sha256::digest(body).as_slice() != sum {
            let _ = std::fs::remove_file(&path);
            return None;
        }
        let output = decode(body)?;
        // Used now: the last to go when the cache is over its budget.
        if let Ok(file) = std::fs::File::options().append(true).open(&path) {
            let _ = file.set_modified(std::time::SystemTime::now());
        }
        Some(output)
    }

    /// Records `output` under `key` when the run may be replayed (the job
    /// ended by itself, and each step succeeded or failed as code fails:
    /// see [`failed_as_code_fails`]), then keeps the cache within its
    /// budget. A failure to write only loses the entry.
    pub fn record(&self, key: &str, output: &JobOutput, steps: &[String]) {
        let ended_well = matches!(output.ending, Ending::Exited(status) if status.success());
        if !ended_well
            || output.unreadable.is_some()
            || steps.iter().any(|step| {
                let step = output.step(step);
                !step.succeeded() && !failed_as_code_fails(&step)
            })
        {
            return;
        }
        let Some(body) = encode(output) else { return };
        if body.len() as u64 > self.budget / 2 {
            return;
        }
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let mut bytes = Sha256::digest(&body).to_vec();
        bytes.extend_from_slice(&body);
        let partial = self.dir.join(format!(
            ".{key}.{}-{:x}",
            std::process::id(),
            xsafe_case::Rng::new().u64(..)
        ));
        if std::fs::write(&partial, &bytes).is_err()
            || std::fs::rename(&partial, self.dir.join(key)).is_err()
        {
            let _ = std::fs::remove_file(&partial);
            return;
        }
        self.keep_within_budget();
    }

    /// Removes the entries used longest ago until the rest fit the budget.
    fn keep_within_budget(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let meta = entry.metadata().ok()?;
                let name = entry.file_name();
                // Another grader's entry being written is not counted.
                (meta.is_file() && !name.as_encoded_bytes().starts_with(b"."))
                    .then(|| Some((meta.modified().ok()?, meta.len(), entry.path())))?
            })
            .collect();
        let mut total: u64 = entries.iter().map(|(_, len, _)| len).sum();
        entries.sort();
        for (_, len, path) in entries {
            if total <= self.budget {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
}

/// Whether a step that failed failed the way a program fails on its
/// input, the same on every run: cargo or the compiler reporting errors
/// (status 101 or 1), with no sign of the machine in what it printed (a
/// process killed by a signal, as the kernel does when memory runs out; a
/// full disk; no memory, processes or files left; a program file still
/// being written). A limit's stop (status 137) or a step that never ran is
/// no such failure. Text a step printed can only make this `false`, so
/// the worst it can do is keep a job from being cached.
pub fn failed_as_code_fails(step: &StepOutput) -> bool {
    const MACHINE: [&str; 9] = [
        "signal:",
        "SIGKILL",
        "Killed",
        "No space left",
        "Cannot allocate memory",
        "memory allocation of",
        "Resource temporarily unavailable",
        "Text file busy",
        "Too many open files",
    ];
    matches!(step.status, Some(1 | 101)) && !MACHINE.iter().any(|mark| step.stderr.contains(mark))
}

/// Feeds to `field` what any write to a file changes: its size, inode,
/// device, mode and modification and change times.
fn metadata_digest(meta: &std::fs::Metadata, field: &mut impl FnMut(&[u8])) {
    for number in [
        meta.len(),
        meta.ino(),
        meta.dev(),
        u64::from(meta.mode()),
        meta.mtime() as u64,
        meta.mtime_nsec() as u64,
        meta.ctime() as u64,
        meta.ctime_nsec() as u64,
    ] {
        field(&number.to_le_bytes());
    }
}

/// Feeds the tree at `path` to `field`: each entry's name and kind, a
/// link's target, a file's bytes (`by_content`, small files) or its size,
/// inode and times. `None` when something cannot be read.
fn tree_digest(path: &Path, by_content: bool, field: &mut impl FnMut(&[u8])) -> Option<()> {
    for entry in walkdir::WalkDir::new(path)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.ok()?;
        let relative = entry.path().strip_prefix(path).ok()?;
        field(relative.as_os_str().as_encoded_bytes());
        let meta = entry.path().symlink_metadata().ok()?;
        let kind = meta.file_type();
        if kind.is_symlink() {
            field(b"link");
            field(
                std::fs::read_link(entry.path())
                    .ok()?
                    .as_os_str()
                    .as_encoded_bytes(),
            );
        } else if kind.is_dir() {
            field(b"dir");
        } else if kind.is_file() && by_content && meta.len() <= CONTENT_BYTES {
            field(b"bytes");
            field(&std::fs::read(entry.path()).ok()?);
            field(&meta.mode().to_le_bytes());
        } else {
            field(b"meta");
            metadata_digest(&meta, field);
        }
    }
    Some(())
}

/// An entry's body: a tar archive of the job's own message, each step's
/// output and time, and the collected files.
fn encode(output: &JobOutput) -> Option<Vec<u8>> {
    let mut archive = tar::Builder::new(Vec::new());
    let mut add = |name: &Path, bytes: &[u8]| -> Option<()> {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o600);
        header.set_entry_type(tar::EntryType::Regular);
        archive.append_data(&mut header, name, bytes).ok()
    };
    add(Path::new("job/stderr"), output.stderr.as_bytes())?;
    for (name, step) in &output.steps {
        let dir = Path::new("step").join(name);
        add(&dir.join("out"), &step.stdout)?;
        add(&dir.join("err"), step.stderr.as_bytes())?;
        let times = format!(
            "{} {} {}",
            step.time.as_nanos(),
            step.took.map_or(-1, |took| took.as_nanos() as i128),
            step.status?
        );
        add(&dir.join("times"), times.as_bytes())?;
    }
    for (path, bytes) in &output.files {
        add(&Path::new("file").join(path.strip_prefix("/").ok()?), bytes)?;
    }
    archive.into_inner().ok()
}

/// The output an entry's body holds.
fn decode(body: &[u8]) -> Option<JobOutput> {
    use std::os::unix::process::ExitStatusExt as _;
    let mut archive = tar::Archive::new(body);
    let mut steps: BTreeMap<String, StepOutput> = BTreeMap::new();
    let mut output = JobOutput {
        steps: BTreeMap::new(),
        files: BTreeMap::new(),
        ending: Ending::Exited(std::process::ExitStatus::from_raw(0)),
        stderr: String::new(),
        unreadable: None,
    };
    for entry in archive.entries().ok()? {
        let mut entry = entry.ok()?;
        let path = entry.path().ok()?.into_owned();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).ok()?;
        let mut parts = path.components().map(|part| part.as_os_str().to_str());
        match (parts.next().flatten(), parts.next().flatten()) {
            (Some("job"), Some("stderr")) => output.stderr = String::from_utf8(bytes).ok()?,
            (Some("step"), Some(name)) => {
                let step = steps.entry(name.to_owned()).or_insert(StepOutput {
                    stdout: Vec::new(),
                    stderr: String::new(),
                    status: None,
                    time: Duration::ZERO,
                    took: None,
                });
                match parts.next().flatten() {
                    Some("out") => step.stdout = bytes,
                    Some("err") => step.stderr = String::from_utf8(bytes).ok()?,
                    Some("times") => {
                        let text = String::from_utf8(bytes).ok()?;
                        let mut numbers = text.split(' ');
                        step.time = Duration::from_nanos(numbers.next()?.parse().ok()?);
                        let took: i128 = numbers.next()?.parse().ok()?;
                        step.took = u64::try_from(took).ok().map(Duration::from_nanos);
                        step.status = Some(numbers.next()?.parse().ok()?);
                    }
                    _ => return None,
                }
            }
            (Some("file"), Some(_)) => {
                let file = Path::new("/").join(path.strip_prefix("file").ok()?);
                output.files.insert(file, bytes);
            }
            _ => return None,
        }
    }
    output.steps = steps;
    Some(output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt as _;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xsafe-job-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch");
        dir
    }

    fn output(status: i32) -> JobOutput {
        let step = StepOutput {
            stdout: b"{\"reason\":\"build-finished\"}\n".to_vec(),
            stderr: "warning: unused\n".to_owned(),
            status: Some(status),
            time: Duration::from_secs(600),
            took: Some(Duration::from_millis(1234)),
        };
        JobOutput {
            steps: BTreeMap::from([("build".to_owned(), step)]),
            files: BTreeMap::from([(PathBuf::from("/w/target/observe"), vec![0x7f, b'E', 0])]),
            ending: Ending::Exited(std::process::ExitStatus::from_raw(0)),
            stderr: String::new(),
            unreadable: None,
        }
    }

    fn inputs<'a>(reads: &'a [PathBuf], script: &'a str) -> JobInputs<'a> {
        JobInputs {
            script,
            sandbox: &[],
            bounds: crate::limits::Bounds {
                time: Duration::from_secs(600),
                processor: None,
                output_bytes: 1 << 20,
                memory_bytes: 1 << 30,
            },
            toolchain: "rustc 1.95.0",
            reads,
            seeds: &[],
            writes: &[],
        }
    }

    /// A recorded run comes back whole; a step stopped by a limit or
    /// killed is never recorded; a damaged entry is a miss.
    #[test]
    fn records_what_code_decides_and_checks_entries() {
        let dir = scratch("record");
        let cache = JobCache::new(&dir.join("cache"), 1 << 30);
        let steps = vec!["build".to_owned()];
        cache.record("ok", &output(0), &steps);
        let back = cache.replay("ok").expect("recorded");
        assert_eq!(back.steps, output(0).steps);
        assert_eq!(back.files, output(0).files);
        cache.record("errors", &output(101), &steps);
        assert_eq!(
            cache
                .replay("errors")
                .expect("compile errors are the code's")
                .steps,
            output(101).steps
        );
        cache.record("stopped", &output(137), &steps);
        assert!(
            cache.replay("stopped").is_none(),
            "a limit's stop is the machine's"
        );
        let mut killed = output(101);
        if let Some(step) = killed.steps.get_mut("build") {
            step.stderr = "error: could not compile `x` (signal: 9, SIGKILL: kill)".into();
        }
        cache.record("killed", &killed, &steps);
        assert!(
            cache.replay("killed").is_none(),
            "a killed compiler is the machine's"
        );
        let entry = dir.join("cache/ok");
        let mut bytes = std::fs::read(&entry).expect("entry");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&entry, bytes).expect("damage");
        assert!(cache.replay("ok").is_none(), "a damaged entry is a miss");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The key changes with a read file's bytes (even at the same size and
    /// with its times put back), with the script, and with a link's target;
    /// it stays when a file is copied afresh with the same bytes. A job
    /// that can see the cache has no key.
    #[test]
    fn the_key_follows_what_the_job_reads() {
        let dir = scratch("key");
        let cache = JobCache::new(&dir.join("cache"), 1 << 30);
        let read = dir.join("crate");
        std::fs::create_dir_all(read.join("src")).expect("crate");
        std::fs::write(read.join("src/lib.rs"), "pub fn one() -> u8 { 1 }").expect("lib");
        let reads = vec![read.clone()];
        let key = |script: &str| cache.key(&inputs(&reads, script)).expect("a key");
        let first = key("cargo build");
        assert_eq!(first, key("cargo build"));
        assert_ne!(first, key("cargo build --release"));
        let mut smaller = inputs(&reads, "cargo build");
        smaller.bounds.memory_bytes = 64 << 20;
        assert_ne!(
            Some(first.clone()),
            cache.key(&smaller),
            "the memory limit is keyed"
        );
        let mut quieter = inputs(&reads, "cargo build");
        quieter.bounds.output_bytes = 16 << 10;
        assert_ne!(
            Some(first.clone()),
            cache.key(&quieter),
            "the output limit is keyed"
        );
        let lib = read.join("src/lib.rs");
        let times = std::fs::metadata(&lib)
            .expect("meta")
            .modified()
            .expect("mtime");
        std::fs::write(&lib, "pub fn one() -> u8 { 2 }").expect("edit");
        let file = std::fs::File::options()
            .append(true)
            .open(&lib)
            .expect("open");
        file.set_modified(times).expect("times back");
        assert_ne!(first, key("cargo build"), "same size and time, new bytes");
        std::fs::write(&lib, "pub fn one() -> u8 { 1 }").expect("copied afresh");
        assert_eq!(first, key("cargo build"), "the same bytes copied afresh");
        std::os::unix::fs::symlink("/etc/passwd", read.join("src/link")).expect("link");
        let linked = key("cargo build");
        std::fs::remove_file(read.join("src/link")).expect("unlink");
        std::os::unix::fs::symlink("/etc/hosts", read.join("src/link")).expect("link");
        assert_ne!(linked, key("cargo build"));
        let inside = vec![dir.clone()];
        assert!(cache.key(&inputs(&inside, "cargo build")).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Past its budget, the cache drops the entries used longest ago.
    #[test]
    fn stays_within_its_budget() {
        let dir = scratch("budget");
        let one = encode(&output(0)).expect("encodes").len() as u64 + 32;
        let cache = JobCache::new(&dir.join("cache"), one * 2 + one / 2);
        let steps = vec!["build".to_owned()];
        for key in ["a", "b"] {
            cache.record(key, &output(0), &steps);
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(cache.replay("a").is_some(), "a is now the newest");
        std::thread::sleep(Duration::from_millis(20));
        cache.record("c", &output(0), &steps);
        assert!(cache.replay("a").is_some());
        assert!(cache.replay("b").is_none(), "b was used longest ago");
        assert!(cache.replay("c").is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
