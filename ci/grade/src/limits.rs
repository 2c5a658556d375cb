//! Bounded child processes: the one place where grading starts a program.
//!
//! **Invariant**: every build and every test run that grading starts ends
//! within its time limit, and at most its output cap of what it prints is
//! kept. A child that runs too long or prints too much is killed, together
//! with everything it started (on Unix it runs in its own process group, so
//! the `rustc`s under a `cargo` and the threads-turned-processes of a test
//! die with it), and the caller learns which limit stopped it.
//!
//! The rest of the crate never calls `Command::output`: it goes through
//! [`run_bounded`], so a submission that loops, floods its output or hangs
//! the compiler cannot hang or exhaust the grader.

use std::io::Read;
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
    /// How long one behaviour case (all the tests of one case file) may run.
    pub case_time: Duration,
    /// How many bytes of each of stdout and stderr a child may print before
    /// it is stopped.
    pub output_bytes: usize,
}

impl Limits {
    /// Generous for a cold build on a 2-core machine (about a minute and a
    /// half), short enough that a hung compiler does not stall a class's CI.
    pub const DEFAULT_BUILD_TIME: Duration = Duration::from_secs(600);
    /// A behaviour case finishes in milliseconds when it is right.
    pub const DEFAULT_CASE_TIME: Duration = Duration::from_secs(10);
    /// Far more than any honest report (a full compile-fail batch prints
    /// tens of kilobytes).
    pub const DEFAULT_OUTPUT_BYTES: usize = 4 << 20;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            build_time: Self::DEFAULT_BUILD_TIME,
            case_time: Self::DEFAULT_CASE_TIME,
            output_bytes: Self::DEFAULT_OUTPUT_BYTES,
        }
    }
}

/// How a bounded child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited by itself.
    Exited(ExitStatus),
    /// It ran past its time limit and was killed.
    TimedOut(Duration),
    /// It printed more than the cap and was killed.
    OutputCapped(usize),
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
            Ending::OutputCapped(cap) => Some(format!(
                "stopped: it printed more than {} KiB, the output limit",
                cap / 1024
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

/// Runs `command` with no input, its output piped and capped, and kills it
/// (with its process group) when it exceeds `time` or prints more than
/// `output_bytes` on either stream.
///
/// Returns an error only if the program cannot be started.
pub fn run_bounded(
    mut command: Command,
    time: Duration,
    output_bytes: usize,
) -> std::io::Result<Bounded> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn()?;
    let overflow = Arc::new(AtomicBool::new(false));
    let stdout = capture(child.stdout.take(), output_bytes, &overflow);
    let stderr = capture(child.stderr.take(), output_bytes, &overflow);

    let started = Instant::now();
    let ending = loop {
        if overflow.load(Ordering::SeqCst) {
            kill_group(&mut child);
            break Ending::OutputCapped(output_bytes);
        }
        match child.try_wait()? {
            Some(status) => break Ending::Exited(status),
            None if started.elapsed() >= time => {
                kill_group(&mut child);
                break Ending::TimedOut(time);
            }
            None => thread::sleep(Duration::from_millis(10)),
        }
    };
    // Whatever the child left running (a grandchild holding the pipes open)
    // goes too; then the readers see the end of their pipes.
    kill_group(&mut child);
    let _ = child.wait();
    Ok(Bounded {
        stdout: stdout.finish(),
        stderr: stderr.finish(),
        ending,
    })
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
    fn finish(self) -> String {
        if let Some(done) = self.done {
            let deadline = Instant::now() + Duration::from_secs(2);
            while !done.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(5));
            }
        }
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8_lossy(&kept).into_owned()
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
            Duration::from_secs(10),
            1024,
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
            Duration::from_millis(300),
            1024,
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
        let run = run_bounded(shell("yes flood >&2"), Duration::from_secs(20), 64 * 1024)
            .expect("sh starts");
        assert_eq!(run.ending, Ending::OutputCapped(64 * 1024));
        assert_eq!(run.stderr.len(), 64 * 1024);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
