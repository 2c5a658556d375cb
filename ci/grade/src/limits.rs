//! Bounded child processes: the one place where grading starts a program.
//!
//! **Invariant**: every build and every run that grading starts ends within
//! its time limit, keeps at most its output cap of what it prints, gets at
//! most its memory limit, and leaves no process behind. A child that runs
//! too long or prints too much is killed, together with everything it
//! started: it runs in its own process group, and on Linux the grader is a
//! *subreaper*, so a process that leaves the group (a daemon, a new
//! session) is re-parented to the grader when its parent dies, and killed
//! when the run ends. (Isolated runs are in a process namespace as well:
//! see `isolation`.) The caller learns which limit stopped the child.
//!
//! A behaviour case's time limit is processor time, not time on the
//! clock: a case that loops uses its limit at the same point of its work
//! however busy the machine is, so a verdict does not depend on the load
//! (on a class's shared CI runner, or under the proofs' parallel grades).
//! A case that waits (a deadlock) uses no processor time: the clock stops
//! it at [`WAIT_FACTOR`] times its limit. The processor time is the run's
//! cgroup's, all its processes together (see `cgroup`); where no cgroup
//! counts it, each process's own (`RLIMIT_CPU`).
//!
//! The rest of the crate never calls `Command::output`: it goes through
//! [`run_bounded`], so a submission that loops, floods its output, eats
//! memory, forks or hangs the compiler cannot hang or exhaust the grader.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// The limits of one grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long one build may take: a `cargo test --no-run`, or one step's
    /// compile-fail batch (trybuild compiles every case of the step).
    pub build_time: Duration,
    /// How much processor time one behaviour case (all the tests of one
    /// case file) may use; on the clock it may take [`WAIT_FACTOR`] times
    /// as long.
    pub case_time: Duration,
    /// How many bytes of each of stdout and stderr a child may print before
    /// it is stopped.
    pub output_bytes: usize,
    /// How much memory (address space) each process of a build or a run
    /// may take.
    pub memory_bytes: u64,
    /// How much a build may write into its target folders (a fresh tmpfs
    /// each, for the grader).
    pub build_bytes: u64,
    /// The size of a build's `/tmp`.
    pub build_tmp_bytes: u64,
    /// The size of the `/tmp` of a behaviour case's run (and of the judge).
    pub run_tmp_bytes: u64,
    /// How long one behaviour case may run under Miri (which interprets it,
    /// some hundred times slower).
    pub miri_case_time: Duration,
}

impl Limits {
    /// Generous for a cold build on a 2-core machine (about a minute and a
    /// half), short enough that a hung compiler does not stall a class's CI.
    pub const DEFAULT_BUILD_TIME: Duration = Duration::from_secs(600);
    /// A behaviour case uses milliseconds of processor time when it is
    /// right, and the slowest (the forced schedules) about a second.
    pub const DEFAULT_CASE_TIME: Duration = Duration::from_secs(10);
    /// Far more than any honest report (a full compile-fail batch prints
    /// tens of kilobytes).
    pub const DEFAULT_OUTPUT_BYTES: usize = 4 << 20;
    /// Four times what a build of the course needs (rustc stays under
    /// 1 GiB of address space on these exercises).
    pub const DEFAULT_MEMORY_BYTES: u64 = 4 << 30;
    /// Eight times what the largest exercise's build writes (its copied
    /// dependency cache and its programs, under 250 MiB).
    pub const DEFAULT_BUILD_BYTES: u64 = 2 << 30;
    /// rustc and the linker keep little in `/tmp`.
    pub const DEFAULT_BUILD_TMP_BYTES: u64 = 512 << 20;
    /// No case writes to `/tmp`; a little room for what std may.
    pub const DEFAULT_RUN_TMP_BYTES: u64 = 64 << 20;
    /// Miri's cases are kept small: a minute is far more than they need.
    pub const DEFAULT_MIRI_CASE_TIME: Duration = Duration::from_secs(120);

    /// The bounds of one build: the memory limit, but never less than
    /// the default (a build's memory is the compiler's, not the learner's
    /// code's).
    pub fn build(&self) -> Bounds {
        Bounds {
            time: self.build_time,
            processor: None,
            output_bytes: self.output_bytes,
            memory_bytes: self.memory_bytes.max(Self::DEFAULT_MEMORY_BYTES),
        }
    }

    /// The bounds of one build of the course's own code (the judge, the
    /// dependencies' caches, the lockfile), which no student wrote: the
    /// build limit a class sets bounds builds of student code, and never
    /// makes the course's own first, cold build fail. So at least the
    /// default build time.
    pub fn course_build(&self) -> Bounds {
        Bounds {
            time: self.build_time.max(Self::DEFAULT_BUILD_TIME),
            processor: None,
            ..self.build()
        }
    }

    /// The bounds of one behaviour case's run: its processor time, and
    /// [`WAIT_FACTOR`] times as long on the clock.
    pub fn case(&self) -> Bounds {
        Bounds {
            time: self.case_time.saturating_mul(WAIT_FACTOR),
            processor: Some(self.case_time),
            output_bytes: self.output_bytes,
            memory_bytes: self.memory_bytes,
        }
    }
}

/// How many times its processor time limit a behaviour case may take on
/// the clock: room for a machine whose other work leaves the case a third
/// of a core, and the bound of a case that waits without end.
pub const WAIT_FACTOR: u32 = 3;

/// The bounds of one child process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// How long it may run, on the clock.
    pub time: Duration,
    /// How much processor time its processes may use together, if that
    /// is bounded (behaviour cases; builds are bounded by the clock only).
    pub processor: Option<Duration>,
    /// How much of each of its output streams is kept before it is stopped.
    pub output_bytes: usize,
    /// Its address-space limit (each of its processes).
    pub memory_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            build_time: Self::DEFAULT_BUILD_TIME,
            case_time: Self::DEFAULT_CASE_TIME,
            output_bytes: Self::DEFAULT_OUTPUT_BYTES,
            memory_bytes: Self::DEFAULT_MEMORY_BYTES,
            build_bytes: Self::DEFAULT_BUILD_BYTES,
            build_tmp_bytes: Self::DEFAULT_BUILD_TMP_BYTES,
            run_tmp_bytes: Self::DEFAULT_RUN_TMP_BYTES,
            miri_case_time: Self::DEFAULT_MIRI_CASE_TIME,
        }
    }
}

/// How a bounded child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited by itself.
    Exited(ExitStatus),
    /// It ran past its time limit (on the clock) and was killed.
    TimedOut(Duration),
    /// Its processes used more processor time than the limit and were
    /// killed.
    ProcessorCapped(Duration),
    /// It ran past its time on the clock without using its processor
    /// time (it waited: for a lock, say) and was killed.
    Waited {
        /// The limit on the clock.
        clock: Duration,
        /// The processor time it had.
        processor: Duration,
    },
    /// It printed more than the cap and was killed.
    OutputCapped(usize),
    /// Its processes together took more memory than the run may (in its
    /// cgroup: see `cgroup`), and the kernel killed one.
    MemoryCapped(u64),
}

/// What a bounded child printed (up to the cap) and how it ended.
#[derive(Debug, Clone)]
pub struct Bounded {
    /// Its standard output, lossily decoded.
    pub stdout: String,
    /// Its standard error, lossily decoded.
    pub stderr: String,
    /// How it ended.
    pub ending: Ending,
    /// The processor time its processes used together, where the run's
    /// cgroup counts it.
    pub processor_used: Option<Duration>,
}

impl Bounded {
    /// Why a limit stopped the child, in words, or `None` if it exited.
    pub fn stopped_because(&self) -> Option<String> {
        match self.ending {
            Ending::Exited(_) => None,
            Ending::TimedOut(limit) => Some(format!(
                "stopped after {}: it ran longer than the time limit",
                seconds(limit)
            )),
            Ending::ProcessorCapped(limit) => Some(format!(
                "stopped after {} of processor time: it ran longer than the time limit",
                seconds(limit)
            )),
            Ending::Waited { clock, processor } => Some(format!(
                "stopped after {} on the clock: it ran longer than the time limit without using its {} of processor time, so it mostly waited (threads waiting for each other's locks?)",
                seconds(clock),
                seconds(processor)
            )),
            Ending::OutputCapped(cap) => Some(format!(
                "stopped: it printed more than {} KiB, the output limit",
                cap / 1024
            )),
            Ending::MemoryCapped(bytes) => Some(format!(
                "stopped: its processes together took more than {} MiB of memory (their pages and what they put in /tmp, /dev/shm or memory files), the memory limit",
                bytes >> 20
            )),
        }
    }
}

/// `1.5 s`, `600 s`.
fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0} s")
    } else {
        format!("{secs:.1} s")
    }
}

/// Runs `command` with `input` on its standard input (or none), its
/// output piped and capped, its memory limited, and kills it (with its
/// process group, and any process it left behind) when it exceeds the time
/// limit or prints more than the cap on either stream.
///
/// Returns an error only if the program cannot be started.
pub fn run_bounded(
    command: Command,
    bounds: Bounds,
    input: Option<Vec<u8>>,
) -> std::io::Result<Bounded> {
    let run = run_bounded_bytes(command, bounds, input)?;
    Ok(Bounded {
        stdout: String::from_utf8_lossy(&run.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&run.stderr).into_owned(),
        ending: run.ending,
        processor_used: run.processor_used,
    })
}

/// What a bounded child printed, as bytes (an archive, say).
#[derive(Debug, Clone)]
pub struct BoundedBytes {
    /// Its standard output, up to the cap.
    pub stdout: Vec<u8>,
    /// Its standard error, up to the cap.
    pub stderr: Vec<u8>,
    /// How it ended.
    pub ending: Ending,
    /// The processor time its processes used together, where the run's
    /// cgroup counts it.
    pub processor_used: Option<Duration>,
}

/// [`run_bounded`], keeping what the child printed as bytes.
pub fn run_bounded_bytes(
    mut command: Command,
    bounds: Bounds,
    input: Option<Vec<u8>>,
) -> std::io::Result<BoundedBytes> {
    // The run's own cgroup, where the machine has one: its processes'
    // memory and number bounded together (see `cgroup`).
    let group = crate::cgroup::RunGroup::new(bounds.memory_bytes);
    command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        let memory = bounds.memory_bytes;
        let procs: Vec<std::ffi::CString> = group
            .as_ref()
            .map(|group| group.procs_files().to_vec())
            .unwrap_or_default();
        // Each process's own processor time, bounded by the kernel: where
        // the cgroup counts the run's, that bound is met first (a second
        // later), and where it does not, this is the bound.
        let processor = bounds
            .processor
            .map(|limit| limit.as_secs().saturating_add(1));
        // SAFETY: between fork and exec, only `setrlimit` and the
        // `open`/`write`/`close` of joining the cgroup run, which are
        // async-signal-safe and allocate nothing (the paths were made
        // before the fork).
        unsafe {
            command.pre_exec(move || {
                use nix::sys::resource::{Resource, setrlimit};
                setrlimit(Resource::RLIMIT_AS, memory, memory).map_err(std::io::Error::from)?;
                if let Some(seconds) = processor {
                    setrlimit(Resource::RLIMIT_CPU, seconds, seconds.saturating_add(1))
                        .map_err(std::io::Error::from)?;
                }
                crate::cgroup::join(&procs)
            });
        }
    }
    let mut child = {
        // Registered before it can fork, so the sweep never takes it for
        // an orphan.
        let mut roots = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        let child = command.spawn()?;
        roots.insert(child.id());
        child
    };
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        thread::spawn(move || {
            // A child that does not read its input is its own problem.
            let _ = stdin.write_all(&input);
        });
    }
    let overflow = Arc::new(AtomicBool::new(false));
    let stdout = capture(child.stdout.take(), bounds.output_bytes, &overflow);
    let stderr = capture(child.stderr.take(), bounds.output_bytes, &overflow);

    let started = Instant::now();
    let ending = loop {
        if overflow.load(Ordering::SeqCst) {
            kill_group(&mut child);
            break Ending::OutputCapped(bounds.output_bytes);
        }
        match child.try_wait() {
            Ok(Some(status)) => break Ending::Exited(status),
            Ok(None) if started.elapsed() >= bounds.time => {
                kill_group(&mut child);
                break match bounds.processor {
                    Some(processor) => Ending::Waited {
                        clock: bounds.time,
                        processor,
                    },
                    None => Ending::TimedOut(bounds.time),
                };
            }
            Ok(None)
                if bounds.processor.is_some_and(|limit| {
                    group
                        .as_ref()
                        .and_then(crate::cgroup::RunGroup::processor_time)
                        .is_some_and(|used| used >= limit)
                }) =>
            {
                kill_group(&mut child);
                break Ending::ProcessorCapped(bounds.processor.unwrap_or_default());
            }
            // Most runs (a case, a judge) end within a few tens of
            // milliseconds: looked at often then, less after.
            Ok(None) if started.elapsed() < Duration::from_millis(200) => {
                thread::sleep(Duration::from_millis(1));
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(err) => {
                kill_group(&mut child);
                forget(&child);
                return Err(err);
            }
        }
    };
    // Whatever the child left running in its group (a grandchild holding
    // the pipes open) goes too, and so does any orphan it left outside it;
    // then the readers see the end of their pipes.
    kill_group(&mut child);
    let _ = child.wait();
    forget(&child);
    let ending = match (&group, ending) {
        (Some(group), Ending::Exited(status)) if !status.success() && group.ran_out_of_memory() => {
            Ending::MemoryCapped(bounds.memory_bytes)
        }
        (_, Ending::Exited(status)) if bounds.processor.is_some() && by_processor_limit(status) => {
            Ending::ProcessorCapped(bounds.processor.unwrap_or_default())
        }
        (_, ending) => ending,
    };
    let processor_used = group
        .as_ref()
        .and_then(crate::cgroup::RunGroup::processor_time);
    // What is left in the cgroup is killed, and the cgroup removed.
    drop(group);
    if ADOPTING.load(Ordering::SeqCst) {
        sweep_orphans();
    }
    Ok(BoundedBytes {
        stdout: stdout.finish(),
        stderr: stderr.finish(),
        ending,
        processor_used,
    })
}

/// Whether a child ended by the kernel's processor time limit
/// (`RLIMIT_CPU`): SIGXCPU at the soft limit, or the status a sandbox
/// reports for a child it killed (128 plus the signal's number). A process
/// that ignores SIGXCPU meets SIGKILL at the hard limit a second later,
/// and is reported as killed by a signal, not as over this limit.
fn by_processor_limit(status: ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        let xcpu = nix::sys::signal::Signal::SIGXCPU as i32;
        status.signal() == Some(xcpu) || status.code() == Some(128 + xcpu)
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        false
    }
}

/// The children this process started through [`run_bounded`] that are
/// still running: every other child it has is an orphan some run left.
static RUNNING: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn forget(child: &Child) {
    RUNNING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&child.id());
}

static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes this process adopt the orphans of its descendants (Linux), and
/// kill them as each bounded run ends. For a program that runs untrusted
/// code (the instructor's grader, the proofs): every child outside this
/// process's own process group that [`run_bounded`] did not start, or
/// whose run has ended, is killed. Every bounded run gets a process group
/// of its own, so whatever it leaves behind is outside ours; the grader's
/// own short-lived children (`rustc --version`, `git`, `cargo metadata`,
/// started by other threads meanwhile) stay in ours and are left alone.
/// (A process that escaped a run could join our group only without
/// isolation, where it can do anything the grader's user can anyway.)
/// Returns whether adoption is on.
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        if nix::sys::prctl::set_child_subreaper(true).is_ok() {
            ADOPTING.store(true, Ordering::SeqCst);
        }
    }
    ADOPTING.load(Ordering::SeqCst)
}

/// Kills and reaps every child of this process, outside its process group,
/// that is not a running [`run_bounded`] child: processes that escaped a
/// finished run and were re-parented here.
fn sweep_orphans() {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::signal::{Signal, kill};
        use nix::sys::wait::{WaitPidFlag, waitpid};
        use nix::unistd::Pid;
        let running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        // Killing an orphan re-parents its own children here: sweep until
        // none is left (a fork bomb is bounded by the passes and by its
        // run's memory limit).
        for _pass in 0..64 {
            let orphans: Vec<u32> = children_of_this_process()
                .into_iter()
                .filter(|pid| !running.contains(pid))
                .collect();
            if orphans.is_empty() {
                return;
            }
            for pid in orphans {
                let Ok(raw) = i32::try_from(pid) else {
                    continue;
                };
                let pid = Pid::from_raw(raw);
                let _ = kill(pid, Signal::SIGKILL);
                let _ = waitpid(pid, Some(WaitPidFlag::empty()));
            }
        }
    }
}

/// The process ids whose parent is this process and whose process group
/// is not this process's, read from `/proc`.
#[cfg(target_os = "linux")]
fn children_of_this_process() -> Vec<u32> {
    let me = std::process::id();
    let my_group = u32::try_from(nix::unistd::getpgrp().as_raw()).unwrap_or(0);
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            // `/proc/PID/stat`: `PID (COMM) STATE PPID ...`; COMM may hold
            // spaces and parentheses, so read after the last `)`.
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    let after = &stat[stat.rfind(')')? + 1..];
                    let mut fields = after.split_whitespace().skip(1);
                    let parent = fields.next()?.parse::<u32>().ok()?;
                    let group = fields.next()?.parse::<u32>().ok()?;
                    Some(parent == me && group != my_group)
                })
                == Some(true)
        })
        .collect()
}

/// A thread that keeps at most `cap` bytes of a pipe and raises `overflow`
/// when there is more.
struct Capture {
    kept: Arc<Mutex<Vec<u8>>>,
    done: Option<thread::JoinHandle<()>>,
}

fn capture(
    pipe: Option<impl Read + Send + 'static>,
    cap: usize,
    overflow: &Arc<AtomicBool>,
) -> Capture {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let done = pipe.map(|mut pipe| {
        let kept = Arc::clone(&kept);
        let overflow = Arc::clone(overflow);
        thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
                        let room = cap.saturating_sub(kept.len());
                        kept.extend_from_slice(&chunk[..n.min(room)]);
                        if n > room {
                            overflow.store(true, Ordering::SeqCst);
                            return;
                        }
                    }
                }
            }
        })
    });
    Capture { kept, done }
}

impl Capture {
    /// What was kept. Waits a moment for the reader to drain the pipe, but
    /// not forever: a process that escaped its group may hold it open.
    fn finish(self) -> Vec<u8> {
        if let Some(done) = self.done {
            let deadline = Instant::now() + Duration::from_secs(2);
            while !done.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(1));
            }
        }
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut *kept)
    }
}

/// Kills every child that [`run_bounded`] started and that still runs,
/// with its process group. For a program that quits while a grade runs in
/// one of its threads (the learner's tool, when the learner quits during
/// a build): no build is left running behind it, holding the target
/// directory's lock.
pub fn stop_running() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        let running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        for &pid in running.iter() {
            if let Ok(pid) = i32::try_from(pid) {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
    }
}

fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        if let Ok(pid) = i32::try_from(child.id()) {
            // The group may be gone already: nothing to do then.
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn bounds(millis: u64, output_bytes: usize) -> Bounds {
        Bounds {
            time: Duration::from_millis(millis),
            processor: None,
            output_bytes,
            memory_bytes: Limits::DEFAULT_MEMORY_BYTES,
        }
    }

    /// Input reaches the child, and a child that leaves its process group
    /// (a new session, as a daemon does) is gone once the run ends.
    /// Where a cgroup can be made, a run's processes share its limits:
    /// two processes that each stay under the memory limit, but not
    /// together, end the run as out of memory; a fork loop gets no more
    /// than the run's tasks. (Without cgroups the report says so instead:
    /// see `cgroup`.)
    #[test]
    fn a_run_is_bounded_as_a_whole_where_cgroups_exist() {
        if matches!(
            crate::cgroup::availability(),
            crate::cgroup::Availability::Unavailable(_)
        ) || Command::new("python3").arg("-V").output().is_err()
        {
            eprintln!("skipped: {}", crate::cgroup::availability().describe());
            return;
        }
        let hold = "python3 -c 'b = bytearray(160 << 20); import time; time.sleep(2)'";
        let run = run_bounded(
            shell(&format!(
                "{hold} & first=$!; {hold}; second=$?; wait $first; [ $? -eq 0 ] && [ $second -eq 0 ]"
            )),
            Bounds {
                time: Duration::from_secs(60),
                processor: None,
                output_bytes: 64 * 1024,
                memory_bytes: 256 << 20,
            },
            None,
        )
        .expect("sh starts");
        assert_eq!(run.ending, Ending::MemoryCapped(256 << 20), "{run:?}");
        let forks = run_bounded(
            shell("python3 -c 'import os, time\nstarted = 0\nfor _ in range(1000):\n    try:\n        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n        time.sleep(5)\n        os._exit(0)\n    started += 1\nprint(started)'"),
            bounds(60_000, 64 * 1024),
            None,
        )
        .expect("sh starts");
        let running: u64 = forks.stdout.trim().parse().expect("a count");
        assert!(
            running < crate::cgroup::MOST_TASKS,
            "{running} processes ran at once: {forks:?}"
        );
    }

    /// A case's limit is processor time: a loop is stopped when it has
    /// used it (however long that takes on a busy machine), and a wait,
    /// which uses none, by the clock at [`WAIT_FACTOR`] times the limit.
    /// Both reports say which.
    #[test]
    fn a_case_is_bounded_by_processor_time_and_a_wait_by_the_clock() {
        let limits = Limits {
            case_time: Duration::from_secs(1),
            ..Limits::default()
        };
        let bounds = limits.case();
        assert_eq!(bounds.time, Duration::from_secs(u64::from(WAIT_FACTOR)));
        let spin = run_bounded(shell("while :; do :; done"), bounds, None).expect("sh starts");
        assert_eq!(
            spin.ending,
            Ending::ProcessorCapped(Duration::from_secs(1)),
            "{spin:?}"
        );
        assert!(
            spin.stopped_because()
                .is_some_and(|why| why.contains("1 s of processor time")),
            "{spin:?}"
        );
        let wait = run_bounded(shell("sleep 60"), bounds, None).expect("sh starts");
        assert_eq!(
            wait.ending,
            Ending::Waited {
                clock: bounds.time,
                processor: Duration::from_secs(1)
            },
            "{wait:?}"
        );
        assert!(
            wait.stopped_because()
                .is_some_and(|why| why.contains("mostly waited")),
            "{wait:?}"
        );
    }

    /// A class's tight build limit bounds builds of student code only: the
    /// course's own builds keep at least the default time.
    #[test]
    fn the_course_builds_under_its_own_limit() {
        let tight = Limits {
            build_time: Duration::from_secs(20),
            ..Limits::default()
        };
        assert_eq!(tight.build().time, Duration::from_secs(20));
        assert_eq!(tight.course_build().time, Limits::DEFAULT_BUILD_TIME);
        let generous = Limits {
            build_time: Duration::from_secs(1200),
            ..Limits::default()
        };
        assert_eq!(generous.course_build().time, Duration::from_secs(1200));
    }

    #[test]
    fn feeds_input_and_leaves_no_process_behind() {
        assert!(adopt_orphans(), "this test needs Linux's subreaper");
        let marker = format!("xsafe-orphan-{}", std::process::id());
        let run = run_bounded(
            shell(&format!(
                "cat; setsid sh -c 'exec -a {marker} sleep 60' </dev/null >/dev/null 2>&1 & exit 0"
            )),
            bounds(10_000, 1024),
            Some(b"fed".to_vec()),
        )
        .expect("sh starts");
        assert_eq!(run.stdout, "fed");
        thread::sleep(Duration::from_millis(200));
        let left = std::fs::read_dir("/proc")
            .expect("/proc")
            .flatten()
            .filter(|entry| {
                std::fs::read(entry.path().join("cmdline"))
                    .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(&marker))
            })
            .count();
        assert_eq!(left, 0, "the daemon the run started is still running");
    }

    /// The sweep at the end of a run leaves alone what the grader itself
    /// started meanwhile on another thread (a `rustc --version`, a `git`):
    /// only processes outside the grader's process group are orphans of a
    /// run. Before this rule, one exercise's run ending killed the other
    /// exercise's toolchain probe, and that exercise could not be graded.
    #[test]
    fn the_sweep_spares_the_graders_own_children() {
        assert!(adopt_orphans(), "this test needs Linux's subreaper");
        let mut own = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep starts");
        let run = run_bounded(shell("exit 0"), bounds(10_000, 1024), None).expect("sh starts");
        assert!(matches!(run.ending, Ending::Exited(status) if status.success()));
        let still_running = own.try_wait().expect("try_wait").is_none();
        let _ = own.kill();
        let _ = own.wait();
        assert!(
            still_running,
            "the sweep killed a child the grader started itself"
        );
    }

    /// A child that allocates past the memory limit fails to, and is
    /// reported as it exits.
    #[test]
    fn limits_memory() {
        let run = run_bounded(
            shell("head -c 300000000 /dev/zero | tr '\\0' x | sort >/dev/null"),
            Bounds {
                memory_bytes: 64 << 20,
                ..bounds(20_000, 1024)
            },
            None,
        )
        .expect("sh starts");
        assert!(
            matches!(run.ending, Ending::Exited(status) if !status.success()),
            "{:?} {}",
            run.ending,
            run.stderr
        );
    }

    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    /// A child that exits is reported with its status and its output.
    #[test]
    fn keeps_output_and_status() {
        let run = run_bounded(
            shell("echo out; echo err >&2; exit 3"),
            bounds(10_000, 1024),
            None,
        )
        .expect("sh starts");
        assert_eq!(run.stdout, "out\n");
        assert_eq!(run.stderr, "err\n");
        assert!(matches!(run.ending, Ending::Exited(status) if status.code() == Some(3)));
        assert_eq!(run.stopped_because(), None);
    }

    /// A child that sleeps past the limit is killed at the limit, and so is
    /// the grandchild it started (its pipe would otherwise stay open).
    #[test]
    fn kills_a_hung_child_and_its_children() {
        let started = Instant::now();
        let run = run_bounded(
            shell("sleep 30 & sleep 30; echo never"),
            bounds(300, 1024),
            None,
        )
        .expect("sh starts");
        assert_eq!(run.ending, Ending::TimedOut(Duration::from_millis(300)));
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert!(!run.stdout.contains("never"));
        assert!(
            run.stopped_because()
                .is_some_and(|why| why.contains("0.3 s"))
        );
    }

    /// A child that floods its output is stopped once it passes the cap, and
    /// only the cap is kept.
    #[test]
    fn stops_a_flood_at_the_cap() {
        let started = Instant::now();
        let run = run_bounded(shell("yes flood >&2"), bounds(20_000, 64 * 1024), None)
            .expect("sh starts");
        assert_eq!(run.ending, Ending::OutputCapped(64 * 1024));
        assert_eq!(run.stderr.len(), 64 * 1024);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
