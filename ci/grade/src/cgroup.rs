//! Limits for a run as a whole, where the machine offers cgroups.
//!
//! **Invariant**: where a cgroup can be made (cgroup v2, or v1's `memory`
//! and `pids` hierarchies, writable by the grader: root, or a delegated
//! subtree), every bounded run is started inside a cgroup of its own,
//! before its program runs, whose memory (its processes' pages, what they
//! put in a tmpfs, `/dev/shm` or a memfd, and the kernel's memory for
//! them, such as a tmpfs's inodes; no swap) and number of processes and
//! threads are limited for all of the run's processes together. When the
//! run ends, every process left in the cgroup is killed and the cgroup is
//! removed. Where no cgroup can be made, [`availability`] says why, and
//! the report's header says so: each process is then bounded alone
//! (address space), not the run.
//!
//! The same cgroup counts the processor time of all the run's processes
//! together ([`RunGroup::processor_time`]: v2's `cpu.stat`, which every
//! cgroup has; v1's `cpuacct` hierarchy where it is mounted and writable),
//! so that a time limit can bound work done rather than time waited for a
//! busy machine (see `limits`).

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many processes and threads one run may hold at once: far more
/// than a build (cargo, rustc's threads, the linker) or a case's threads
/// need.
pub const MOST_TASKS: u64 = 512;

/// Which cgroups this machine lets the grader make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// cgroup v2: runs are made under this folder, whose children may
    /// use the `memory` and `pids` controllers.
    V2(PathBuf),
    /// cgroup v1: runs are made under these folders of the `memory` and
    /// `pids` hierarchies.
    V1 {
        /// Under the `memory` hierarchy.
        memory: PathBuf,
        /// Under the `pids` hierarchy.
        pids: PathBuf,
        /// Under the `cpuacct` hierarchy, where it is mounted and writable.
        cpuacct: Option<PathBuf>,
    },
    /// None: why.
    Unavailable(String),
}

impl Availability {
    /// In one sentence, for the report's header.
    pub fn describe(&self) -> String {
        match self {
            Availability::V2(_) => {
                "a cgroup (v2) per run bounds its memory, processes and processor time".to_owned()
            }
            Availability::V1 {
                cpuacct: Some(_), ..
            } => "a cgroup (v1) per run bounds its memory, processes and processor time".to_owned(),
            Availability::V1 { cpuacct: None, .. } => {
                "a cgroup (v1) per run bounds its memory and processes (processor time is bounded per process)".to_owned()
            }
            Availability::Unavailable(why) => format!(
                "no cgroup ({why}): memory and processor time are bounded per process, not per run, and the number of processes is not bounded"
            ),
        }
    }
}

/// What this machine offers, found once: `XSAFE_CGROUPS=off` turns cgroups
/// off (to test the grader without them).
pub fn availability() -> &'static Availability {
    static FOUND: OnceLock<Availability> = OnceLock::new();
    FOUND.get_or_init(|| {
        if std::env::var("XSAFE_CGROUPS").is_ok_and(|value| value == "off") {
            return Availability::Unavailable("turned off by XSAFE_CGROUPS=off".to_owned());
        }
        detect(Path::new("/sys/fs/cgroup"))
    })
}

fn detect(root: &Path) -> Availability {
    // One folder for every grader of the machine; each run's cgroup in it
    // is named by the grader's process and the run.
    let name = "xsafe";
    if root.join("cgroup.controllers").is_file() {
        // v2: a folder of ours under the grader's own cgroup when that is
        // the root, where the controllers can be handed down.
        let base = root.join(name);
        let ready = std::fs::create_dir_all(&base).is_ok()
            && std::fs::write(root.join("cgroup.subtree_control"), "+memory +pids").is_ok()
            && std::fs::write(base.join("cgroup.subtree_control"), "+memory +pids").is_ok();
        if ready {
            return Availability::V2(base);
        }
        return Availability::Unavailable(
            "cgroup v2 is mounted, but the grader cannot make a cgroup with the memory and pids controllers (run as root, or in a delegated subtree)".to_owned(),
        );
    }
    let (memory, pids) = (root.join("memory").join(name), root.join("pids").join(name));
    if root.join("memory/memory.limit_in_bytes").is_file()
        && root.join("pids/cgroup.procs").is_file()
        && std::fs::create_dir_all(&memory).is_ok()
        && std::fs::create_dir_all(&pids).is_ok()
    {
        let cpuacct = root.join("cpuacct").join(name);
        let cpuacct = (root.join("cpuacct/cpuacct.usage").is_file()
            && std::fs::create_dir_all(&cpuacct).is_ok())
        .then_some(cpuacct);
        return Availability::V1 {
            memory,
            pids,
            cpuacct,
        };
    }
    Availability::Unavailable(
        "no writable cgroup hierarchy with the memory and pids controllers".to_owned(),
    )
}

/// The cgroup of one run.
#[derive(Debug)]
pub struct RunGroup {
    /// Its folders (one in v2; memory and pids in v1).
    dirs: Vec<PathBuf>,
    /// The `cgroup.procs` files the child writes itself into, made before
    /// the fork (nothing is allocated between fork and exec).
    procs: Vec<CString>,
    /// The file that counts the run's processor time: v2's `cpu.stat`,
    /// v1's `cpuacct.usage`.
    usage: Option<PathBuf>,
}

impl RunGroup {
    /// A new cgroup for a run limited to `memory_bytes` in all and
    /// [`MOST_TASKS`] tasks, or `None` when the machine offers none (or
    /// making one failed).
    pub fn new(memory_bytes: u64) -> Option<RunGroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let run = format!(
            "{}-run-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let (dirs, usage) = match availability() {
            Availability::V2(base) => {
                let dir = base.join(&run);
                let usage = dir.join("cpu.stat");
                (vec![dir], Some(usage))
            }
            Availability::V1 {
                memory,
                pids,
                cpuacct,
            } => {
                let mut dirs = vec![memory.join(&run), pids.join(&run)];
                let usage = cpuacct.as_ref().map(|cpuacct| {
                    let dir = cpuacct.join(&run);
                    dirs.push(dir.clone());
                    dir.join("cpuacct.usage")
                });
                (dirs, usage)
            }
            Availability::Unavailable(_) => return None,
        };
        for dir in &dirs {
            if std::fs::create_dir(dir).is_err() {
                remove(&dirs);
                return None;
            }
        }
        let memory = memory_bytes.to_string();
        let tasks = MOST_TASKS.to_string();
        let settings: Vec<(PathBuf, &str, bool)> = match availability() {
            Availability::V2(_) => vec![
                (dirs[0].join("memory.max"), memory.as_str(), true),
                (dirs[0].join("memory.swap.max"), "0", false),
                (dirs[0].join("pids.max"), tasks.as_str(), true),
            ],
            _ => vec![
                (dirs[0].join("memory.limit_in_bytes"), memory.as_str(), true),
                (
                    dirs[0].join("memory.memsw.limit_in_bytes"),
                    memory.as_str(),
                    false,
                ),
                (dirs[1].join("pids.max"), tasks.as_str(), true),
            ],
        };
        for (file, value, required) in settings {
            if std::fs::write(&file, value).is_err() && required {
                remove(&dirs);
                return None;
            }
        }
        let procs = dirs
            .iter()
            .filter_map(|dir| {
                CString::new(dir.join("cgroup.procs").as_os_str().as_encoded_bytes()).ok()
            })
            .collect();
        Some(RunGroup { dirs, procs, usage })
    }

    /// The processor time the run's processes used so far, all together
    /// (those that ended included), or `None` where the cgroup does not
    /// count it.
    pub fn processor_time(&self) -> Option<std::time::Duration> {
        let text = std::fs::read_to_string(self.usage.as_ref()?).ok()?;
        match text
            .lines()
            .find_map(|line| line.strip_prefix("usage_usec "))
        {
            // v2: microseconds, in a line of `cpu.stat`.
            Some(micros) => micros
                .trim()
                .parse()
                .ok()
                .map(std::time::Duration::from_micros),
            // v1: nanoseconds, the whole file.
            None => text
                .trim()
                .parse()
                .ok()
                .map(std::time::Duration::from_nanos),
        }
    }

    /// The files the child writes `0` into to join the cgroup.
    pub fn procs_files(&self) -> &[CString] {
        &self.procs
    }

    /// Every process of the run still in the cgroup.
    pub fn members(&self) -> Vec<i32> {
        let mut found = Vec::new();
        for dir in &self.dirs {
            if let Ok(text) = std::fs::read_to_string(dir.join("cgroup.procs")) {
                found.extend(
                    text.lines()
                        .filter_map(|line| line.trim().parse::<i32>().ok()),
                );
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Whether the kernel killed a process of the run for its memory (the
    /// `oom_kill` count of v2's `memory.events`, v1's `memory.oom_control`).
    pub fn ran_out_of_memory(&self) -> bool {
        let dir = &self.dirs[0];
        ["memory.events", "memory.oom_control"].iter().any(|file| {
            std::fs::read_to_string(dir.join(file)).is_ok_and(|text| {
                text.lines().any(|line| {
                    line.strip_prefix("oom_kill ")
                        .and_then(|count| count.trim().parse::<u64>().ok())
                        .is_some_and(|count| count > 0)
                })
            })
        })
    }
}

impl Drop for RunGroup {
    /// Kills what is left of the run, then removes its cgroup.
    fn drop(&mut self) {
        // Up to a second, looked at every millisecond: an ended run's
        // last processes leave its cgroup within a few.
        for _ in 0..1000 {
            let members = self.members();
            if members.is_empty() {
                break;
            }
            for pid in members {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        remove(&self.dirs);
    }
}

fn remove(dirs: &[PathBuf]) {
    for dir in dirs {
        for _ in 0..500 {
            if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// Joins the cgroup whose `cgroup.procs` files are `procs`: between fork
/// and exec, in the child. Only `open`, `write` and `close` run: they are
/// async-signal-safe and allocate nothing.
pub fn join(procs: &[CString]) -> std::io::Result<()> {
    for file in procs {
        let fd = nix::fcntl::open(
            file.as_c_str(),
            nix::fcntl::OFlag::O_WRONLY,
            nix::sys::stat::Mode::empty(),
        )
        .map_err(std::io::Error::from)?;
        let written = nix::unistd::write(&fd, b"0");
        drop(fd);
        written.map_err(std::io::Error::from)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where this machine offers cgroups, a run's cgroup bounds its tasks
    /// and memory together and is gone after; where it does not, the
    /// reason is said.
    #[test]
    fn a_run_group_bounds_and_cleans_up() {
        let Some(group) = RunGroup::new(64 << 20) else {
            let described = availability().describe();
            assert!(described.starts_with("no cgroup ("), "{described}");
            return;
        };
        let dirs = group.dirs.clone();
        assert!(dirs.iter().all(|dir| dir.is_dir()));
        assert!(group.members().is_empty());
        assert!(!group.ran_out_of_memory());
        if group.usage.is_some() {
            assert_eq!(
                group.processor_time(),
                Some(std::time::Duration::ZERO),
                "nothing ran in it yet"
            );
        }
        drop(group);
        assert!(dirs.iter().all(|dir| !dir.exists()), "removed");
    }
}
