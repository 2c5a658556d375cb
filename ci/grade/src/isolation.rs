//! Isolation of the processes that run a learner's code.
//!
//! **Invariant**: a process that runs learner code (a behaviour case's
//! observing program; a build that loads a learner's procedural macro) is
//! started through [`Isolation::confine`]. With bubblewrap it then sees no
//! other process of the machine, has no network, sees only the system's
//! programs and libraries, the toolchain and the paths the caller lists,
//! can write only to the paths the caller marks writable and its own
//! `/tmp`, and every process it starts dies with it (its process namespace
//! ends when its first process does). Where bubblewrap is missing but the
//! grader runs as root, `unshare` gives the process namespace alone. Where
//! neither works, the run is not isolated, and reports say so: see
//! [`Isolation::name`].
//!
//! Whatever the isolation, the verdict never rests on what these processes
//! print (see `behaviour` and `compile_fail`); isolation keeps them from
//! reaching anything else: other submissions, the grader's files, its
//! pipes, later grades.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// How untrusted processes are isolated on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// bubblewrap: process, network and IPC namespaces, a read-only view of
    /// only what the run needs, writes only where it is allowed.
    Bubblewrap(PathBuf),
    /// `unshare --pid --fork --mount-proc` (root only): a process namespace,
    /// so no view of other processes and nothing outlives the run; but the
    /// run can read and write what the grader's user can.
    PidNamespace,
    /// No isolation: the run can do whatever the grader's user can; only
    /// the process group, the subreaper and the limits hold it.
    None,
}

/// What a confined process may see and change.
#[derive(Debug, Clone, Default)]
pub struct Confinement {
    /// Paths it may read, beyond the system's programs and libraries.
    pub read_only: Vec<PathBuf>,
    /// Paths it may write (they must exist).
    pub writable: Vec<PathBuf>,
}

impl Isolation {
    /// The best isolation that works here, found once per process: the
    /// environment variable `XSAFE_ISOLATION` (`bubblewrap`, `pid-namespace`
    /// or `none`) asks for one, and an isolation that is asked for but does
    /// not work falls back to the next.
    pub fn detect() -> Isolation {
        static DETECTED: OnceLock<Isolation> = OnceLock::new();
        DETECTED
            .get_or_init(|| {
                let wanted = std::env::var("XSAFE_ISOLATION").unwrap_or_default();
                if wanted != "none"
                    && wanted != "pid-namespace"
                    && let Some(bwrap) = find_program("bwrap")
                    && works(Isolation::Bubblewrap(bwrap.clone()))
                {
                    return Isolation::Bubblewrap(bwrap);
                }
                if wanted != "none" && works(Isolation::PidNamespace) {
                    return Isolation::PidNamespace;
                }
                Isolation::None
            })
            .clone()
    }

    /// How reports name it: `bubblewrap`, `pid-namespace` or `none`.
    pub fn name(&self) -> &'static str {
        match self {
            Isolation::Bubblewrap(_) => "bubblewrap",
            Isolation::PidNamespace => "pid-namespace",
            Isolation::None => "none",
        }
    }

    /// What a run loses under this isolation, in one sentence for reports.
    pub fn caveat(&self) -> Option<&'static str> {
        match self {
            Isolation::Bubblewrap(_) => None,
            Isolation::PidNamespace => Some(
                "install bubblewrap: without it, a submission's code can read and write every file the grader's user can (other submissions, the build cache)",
            ),
            Isolation::None => Some(
                "install bubblewrap: without it, a submission's code can read and write every file the grader's user can, and see and signal its processes",
            ),
        }
    }

    /// `command`, to be run confined. Its program, arguments, working
    /// folder and the environment variables set on it carry over; nothing
    /// else of the grader's environment does, but `PATH`.
    pub fn confine(&self, command: &Command, confinement: &Confinement) -> Command {
        let program = command.get_program().to_owned();
        let args: Vec<OsString> = command.get_args().map(ToOwned::to_owned).collect();
        let workdir = command
            .get_current_dir()
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        let mut confined = match self {
            Isolation::Bubblewrap(bwrap) => {
                let mut bwrap = Command::new(bwrap);
                bwrap.args(bubblewrap_args(confinement, &program));
                bwrap.arg("--chdir").arg(&workdir).arg("--").arg(&program);
                bwrap
            }
            Isolation::PidNamespace => {
                let mut unshare = Command::new("unshare");
                unshare
                    .args(["--pid", "--fork", "--mount-proc", "--kill-child", "--"])
                    .arg(&program);
                unshare
            }
            Isolation::None => Command::new(&program),
        };
        confined.args(args).current_dir(&workdir).env_clear();
        if let Some(path) = std::env::var_os("PATH") {
            confined.env("PATH", path);
        }
        for (key, value) in command.get_envs() {
            match value {
                Some(value) => confined.env(key, value),
                None => confined.env_remove(key),
            };
        }
        confined
    }
}

/// bubblewrap's arguments: namespaces, then the system read-only, then the
/// caller's read-only paths, then its writable ones (later binds win).
fn bubblewrap_args(confinement: &Confinement, program: &OsString) -> Vec<OsString> {
    let mut args: Vec<OsString> = [
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-net",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    let system = [
        "/usr",
        "/bin",
        "/sbin",
        "/lib",
        "/lib32",
        "/lib64",
        "/etc/ld.so.cache",
        "/etc/alternatives",
    ];
    let mut read_only: Vec<PathBuf> = system.iter().map(PathBuf::from).collect();
    read_only.extend(confinement.read_only.iter().cloned());
    // The program itself, wherever it is.
    let program = Path::new(program);
    if program.is_absolute() {
        read_only.push(program.to_path_buf());
    }
    for path in read_only {
        args.push("--ro-bind-try".into());
        args.push(path.clone().into_os_string());
        args.push(path.into_os_string());
    }
    for path in &confinement.writable {
        args.push("--bind".into());
        args.push(path.clone().into_os_string());
        args.push(path.clone().into_os_string());
    }
    args
}

/// The first `name` on `PATH`.
fn find_program(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// Whether `isolation` can run `true` here.
fn works(isolation: Isolation) -> bool {
    let Some(truth) = find_program("true") else {
        return false;
    };
    let mut probe = Command::new(truth);
    probe.current_dir("/");
    let mut command = isolation.confine(&probe, &Confinement::default());
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command.status().is_ok_and(|status| status.success())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::limits::{Bounds, Limits, run_bounded};
    use std::time::Duration;

    fn run(isolation: &Isolation, script: &str, confinement: &Confinement) -> String {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", script]).current_dir("/tmp");
        let bounds = Bounds {
            time: Duration::from_secs(20),
            output_bytes: 1 << 16,
            memory_bytes: Limits::DEFAULT_MEMORY_BYTES,
        };
        let run = run_bounded(isolation.confine(&command, confinement), bounds, None)
            .expect("the sandbox starts");
        format!("{}{}", run.stdout, run.stderr)
    }

    /// Under bubblewrap a process sees only its own processes, cannot
    /// write outside its writable paths, cannot read what it was not given,
    /// and gets only the environment the caller set.
    #[test]
    fn bubblewrap_confines() {
        let Isolation::Bubblewrap(bwrap) = Isolation::detect() else {
            eprintln!("bubblewrap does not work here: nothing to check");
            return;
        };
        let isolation = Isolation::Bubblewrap(bwrap);
        let scratch = std::env::temp_dir().join(format!("xsafe-isolation-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).expect("scratch");
        let secret = std::env::current_exe().expect("this test's program");
        let confinement = Confinement {
            read_only: Vec::new(),
            writable: vec![scratch.clone()],
        };
        // SAFETY: no other thread of this test reads the variable.
        unsafe { std::env::set_var("XSAFE_ISOLATION_PROBE", "leaked") };
        let out = run(
            &isolation,
            &format!(
                "ls /proc | grep -c '^[0-9]'; echo x > {}/ok && echo wrote; echo x > /usr/nope || echo refused; cat {} >/dev/null 2>&1 || echo unseen; echo \"[$XSAFE_ISOLATION_PROBE]\"",
                scratch.display(),
                secret.display()
            ),
            &confinement,
        );
        let lines: Vec<&str> = out.lines().filter(|line| !line.contains(':')).collect();
        let processes: u32 = lines[0].trim().parse().expect("a count of processes");
        assert!(processes <= 4, "it sees {processes} processes:\n{out}");
        assert!(lines.contains(&"wrote"), "{out}");
        assert!(lines.contains(&"refused"), "{out}");
        assert!(lines.contains(&"unseen"), "{out}");
        assert!(lines.contains(&"[]"), "the environment leaked: {out}");
        let _ = std::fs::remove_dir_all(&scratch);
    }

    /// Every isolation runs a program with its arguments and working
    /// folder.
    #[test]
    fn every_isolation_runs_the_program() {
        for isolation in [Isolation::detect(), Isolation::None] {
            let out = run(&isolation, "pwd; echo $0", &Confinement::default());
            assert_eq!(out, "/tmp\n/bin/sh\n", "{}", isolation.name());
        }
    }
}
