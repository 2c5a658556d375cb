//! Confinement: the one way grading starts a process that reads, compiles
//! or runs a learner's bytes.
//!
//! **Invariant**: every process that reads, compiles or runs bytes of a
//! submission (cargo and rustc on the learner's crate, its procedural
//! macros, rustdoc and the expansion of the crate, the observing program,
//! and the judge that reads what it printed) is started by a [`Confiner`],
//! as one [`Job`]. Under bubblewrap, a job sees exactly:
//!
//! * the system's programs and libraries, the toolchain and the registry's
//!   sources, read-only;
//! * the files and folders the job names as [`Job::reads`], read-only;
//! * a `/tmp` and the job's writable folders, each a fresh tmpfs of a
//!   fixed size that ends with the job, seeded, where the job says so,
//!   from a read-only copy of a trusted cache (with [`Freshness::PerGrade`],
//!   which the instructor's grader uses);
//!
//! and nothing else: no network, no capability, the user `nobody` where the
//! machine allows user namespaces, no other process, and a root that is
//! read-only. Cargo inside runs from `/` with a `CARGO_HOME` that holds only
//! the registry (no configuration is discovered anywhere), offline and
//! with the grader's lockfile.
//!
//! Nothing a job wrote survives it but the archive its trusted last step
//! prints (the files the job asks to collect, and what each step printed),
//! which the grader reads as data: regular files only, names checked,
//! sizes bounded. So no folder a learner's process could write is ever
//! read afterwards by a process that is not confined, and no later job, no
//! later grade and no other submission sees what it left.
//!
//! A job whose writable folder is [`Writable::Kept`] keeps it between
//! grades. Only the learner's own tool ([`Freshness::Kept`]) and the
//! grader's trusted builds, which read no learner bytes, may ask for that.
//!
//! Without bubblewrap, the same jobs run with a process namespace (root,
//! `unshare`) or none; their writable folders are then fresh folders of the
//! grader's that are removed after the job, and reports say what is lost
//! ([`Isolation::caveat`]).

use crate::job_cache::{JobCache, JobInputs};
use crate::limits::{Bounded, Bounds, Ending, run_bounded, run_bounded_bytes};
use crate::toolchain::Toolchain;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::io::Read as _;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// How untrusted processes are isolated on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// bubblewrap: user (where allowed), process, network and IPC
    /// namespaces, no capabilities, a read-only view of only what the job
    /// needs, sized tmpfs folders for every write.
    Bubblewrap {
        /// The `bwrap` program.
        program: PathBuf,
        /// Whether the job runs as `nobody` in a user namespace (else as the
        /// grader's user, with every capability dropped).
        user_namespace: bool,
    },
    /// `unshare --pid --fork --mount-proc` (root only): a process namespace,
    /// so no view of other processes and nothing outlives the job; but the
    /// job can read and write what the grader's user can.
    PidNamespace,
    /// No isolation: the job can do whatever the grader's user can; only
    /// the process group, the subreaper and the limits hold it.
    None,
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
                    && let Some(program) = find_program("bwrap")
                {
                    for user_namespace in [true, false] {
                        let candidate = Isolation::Bubblewrap {
                            program: program.clone(),
                            user_namespace,
                        };
                        if works(&candidate) {
                            return candidate;
                        }
                    }
                }
                if wanted != "none" && works(&Isolation::PidNamespace) {
                    return Isolation::PidNamespace;
                }
                Isolation::None
            })
            .clone()
    }

    /// How reports name it: `bubblewrap`, `pid-namespace` or `none`.
    pub fn name(&self) -> &'static str {
        match self {
            Isolation::Bubblewrap { .. } => "bubblewrap",
            Isolation::PidNamespace => "pid-namespace",
            Isolation::None => "none",
        }
    }

    /// What a run loses under this isolation, in one sentence for reports.
    pub fn caveat(&self) -> Option<&'static str> {
        match self {
            Isolation::Bubblewrap { .. } => None,
            Isolation::PidNamespace => Some(
                "install bubblewrap: without it, a submission's code can read and write every file the grader's user can (other submissions, the course's solutions, the build cache)",
            ),
            Isolation::None => Some(
                "install bubblewrap: without it, a submission's code can read and write every file the grader's user can, and see and signal its processes",
            ),
        }
    }
}

/// Whether the writable folders of a grade's jobs are fresh for every job
/// or kept between grades.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// Every writable folder of a job that touches learner bytes is fresh
    /// and ends with the job: the instructor's grader and the proofs.
    PerGrade,
    /// Build folders are kept between grades, so a re-grade is warm: the
    /// learner's own tool, which grades only the learner's own code.
    Kept,
}

/// A folder a job may write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Writable {
    /// A fresh, empty folder at `path` (a tmpfs of `bytes` under
    /// bubblewrap), first filled with a copy of `seed` when there is one.
    /// It ends with the job.
    Fresh {
        /// Where the job sees it (a folder of the grader's that exists).
        path: PathBuf,
        /// A trusted folder to copy into it first (read-only to the job).
        seed: Option<PathBuf>,
        /// Its size.
        bytes: u64,
    },
    /// A folder kept between jobs: only for trusted jobs and for
    /// [`Freshness::Kept`].
    Kept(PathBuf),
}

impl Writable {
    /// Where the job sees it.
    pub fn path(&self) -> &Path {
        match self {
            Writable::Fresh { path, .. } | Writable::Kept(path) => path,
        }
    }
}

/// One program a job runs, with its own time limit. Its output goes to
/// files the grader reads back.
#[derive(Debug, Clone)]
pub struct Step {
    /// A short name (`build`, `expand`): its output is kept as
    /// `NAME.out` and `NAME.err`.
    pub name: String,
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its whole environment.
    pub env: BTreeMap<String, OsString>,
    /// How long it may run.
    pub time: Duration,
    /// A file (in the job's view) for its standard input; none when `None`.
    pub stdin: Option<PathBuf>,
}

/// What a job brings back, beside what its steps printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Collect {
    /// One file.
    File(PathBuf),
    /// The files of a folder whose names end with a suffix (`.d`).
    Suffix(PathBuf, &'static str),
}

/// Whom a job's bytes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// It reads learner bytes: everything it may write is fresh (but for
    /// the learner's own tool).
    Learner,
    /// It reads only the course's files and files the grader wrote (the
    /// trusted cache's build): it may keep its build folder.
    Course,
}

/// A confined job: trusted steps over bytes that may be a learner's.
#[derive(Debug, Clone)]
pub struct Job {
    /// What it is, in messages ("the recording build").
    pub what: String,
    /// Whom its bytes come from.
    pub trust: Trust,
    /// What it may read, besides the system, the toolchain and the
    /// registry.
    pub reads: Vec<PathBuf>,
    /// What it may write.
    pub writes: Vec<Writable>,
    /// Its steps, run in order (a step runs whatever the previous one
    /// ended with).
    pub steps: Vec<Step>,
    /// Whether its steps run at once rather than in order (steps that
    /// build into different target folders).
    pub concurrent: bool,
    /// What it brings back.
    pub collect: Vec<Collect>,
    /// The size of its `/tmp`.
    pub tmp_bytes: u64,
    /// Its limits as a whole (the output limit bounds the archive).
    pub bounds: Bounds,
}

/// How one step ended, and what it printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepOutput {
    /// Its standard output (up to what the job's folder held).
    pub stdout: Vec<u8>,
    /// Its standard error, lossily decoded.
    pub stderr: String,
    /// Its exit status: `None` when it never ran or its status is lost.
    pub status: Option<i32>,
    /// Its time limit.
    pub time: Duration,
    /// How long it took, when it ended.
    pub took: Option<Duration>,
}

impl StepOutput {
    /// Whether it exited with success.
    pub fn succeeded(&self) -> bool {
        self.status == Some(0)
    }

    /// Why a limit stopped it, in words, or `None`.
    pub fn stopped_because(&self) -> Option<String> {
        // `timeout -s KILL` ends it with SIGKILL: the shell sees 137. So
        // does a kill from inside the step (a program that kills its own
        // cargo), which is no timeout: the time it took tells them apart.
        if self.status != Some(137) {
            return None;
        }
        match self.took {
            Some(took) if took + Duration::from_millis(500) < self.time => Some(format!(
                "killed (SIGKILL) after {:.1} s, before its time limit of {} s: something inside the step ended it",
                took.as_secs_f64(),
                self.time.as_secs()
            )),
            _ => Some(format!(
                "stopped after {} s: it ran longer than the time limit",
                self.time.as_secs()
            )),
        }
    }
}

/// What a job brought back.
#[derive(Debug, Clone)]
pub struct JobOutput {
    /// Each step's output, by name.
    pub steps: BTreeMap<String, StepOutput>,
    /// The collected files, by the path the job saw them at.
    pub files: BTreeMap<PathBuf, Vec<u8>>,
    /// How the job as a whole ended.
    pub ending: Ending,
    /// What the job itself (its shell, the sandbox) printed on error.
    pub stderr: String,
    /// Why its archive could not be read, when it could not.
    pub unreadable: Option<String>,
}

impl JobOutput {
    /// A step's output; an empty one that never ran when the job ended
    /// before it.
    pub fn step(&self, name: &str) -> StepOutput {
        self.steps.get(name).cloned().unwrap_or(StepOutput {
            stdout: Vec::new(),
            stderr: String::new(),
            status: None,
            time: Duration::ZERO,
            took: None,
        })
    }

    /// Why the job as a whole was stopped, in words.
    pub fn stopped_because(&self) -> Option<String> {
        Bounded {
            stdout: String::new(),
            stderr: String::new(),
            ending: self.ending,
            processor_used: None,
        }
        .stopped_because()
    }

    /// The files collected from under `dir`.
    pub fn files_under<'a>(
        &'a self,
        dir: &'a Path,
    ) -> impl Iterator<Item = (&'a PathBuf, &'a Vec<u8>)> + 'a {
        self.files
            .iter()
            .filter(move |(path, _)| path.starts_with(dir))
    }
}

/// Why a job could not run at all (a problem of the machine or of the
/// grader, never of the learner's code).
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A folder or file of the grader's could not be made.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The job asks for something its trust does not allow.
    #[error("{0}")]
    Refused(String),
    /// The sandbox could not start.
    #[error("the sandbox could not start: {0}")]
    Start(std::io::Error),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JobError + '_ {
    move |source| JobError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Runs jobs confined: the only way the engine starts a process that
/// touches learner bytes.
#[derive(Debug, Clone)]
pub struct Confiner {
    isolation: Isolation,
    freshness: Freshness,
    toolchain: Toolchain,
    /// The registry folder cargo reads (`$CARGO_HOME/registry`).
    registry: Option<PathBuf>,
    /// Where jobs get their folders (the grade's own).
    scratch: PathBuf,
    /// The grader's own `CARGO_HOME` (see `trusted`), which cargo uses
    /// where there is no view to hold one.
    cargo_home: PathBuf,
    /// Where jobs' outputs are recorded and replayed, when they may be
    /// (see `job_cache`).
    cache: Option<JobCache>,
}

/// The `CARGO_HOME` a confined cargo sees: a folder that holds only the
/// registry, bound read-only.
const VIEW_CARGO_HOME: &str = "/xsafe-cargo-home";

impl Confiner {
    /// A confiner for one grade: `scratch` is a folder of the grade's own
    /// (the grader's, never a learner process's); `cargo_home` is the
    /// grader's own `CARGO_HOME`.
    pub fn new(
        isolation: Isolation,
        freshness: Freshness,
        toolchain: &Toolchain,
        scratch: &Path,
        cargo_home: &Path,
    ) -> Confiner {
        Confiner {
            isolation,
            freshness,
            toolchain: toolchain.clone(),
            registry: crate::toolchain::registry_dir(),
            scratch: scratch.to_path_buf(),
            cargo_home: cargo_home.to_path_buf(),
            cache: None,
        }
    }

    /// The same confiner, replaying from `cache` the jobs it may (see
    /// `job_cache`): only under bubblewrap, where no job can reach it.
    pub fn with_job_cache(&self, cache: JobCache) -> Confiner {
        Confiner {
            cache: matches!(self.isolation, Isolation::Bubblewrap { .. }).then_some(cache),
            ..self.clone()
        }
    }

    /// The same confiner with another toolchain (Miri's nightly) and
    /// scratch folder.
    pub fn with_toolchain(&self, toolchain: &Toolchain, scratch: &Path) -> Confiner {
        Confiner {
            toolchain: toolchain.clone(),
            scratch: scratch.to_path_buf(),
            ..self.clone()
        }
    }

    /// The same confiner, with another scratch folder.
    pub fn with_scratch(&self, scratch: &Path) -> Confiner {
        Confiner {
            scratch: scratch.to_path_buf(),
            ..self.clone()
        }
    }

    /// What every job may read besides what it names: the toolchain and
    /// the registry, where the job sees them.
    pub fn readable_roots(&self) -> Vec<PathBuf> {
        let mut roots = vec![
            self.toolchain.sysroot.clone(),
            Path::new(VIEW_CARGO_HOME).join("registry"),
            self.cargo_home.join("registry"),
        ];
        roots.extend(self.registry.iter().cloned());
        roots
    }

    /// The isolation jobs run under.
    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Whether writable folders are fresh for every job.
    pub fn freshness(&self) -> Freshness {
        self.freshness
    }

    /// The environment cargo runs with inside a job: the toolchain's
    /// programs, a `CARGO_HOME` with only the registry, no flags from the
    /// grader's environment, no colour, no progress. Incremental
    /// compilation only where build folders are kept between grades (the
    /// learner's tool): after a one-line edit it rebuilds the observing
    /// program in about a quarter of the time (0.45 s against 1.8 s for
    /// ordered-tree on 2 cores), while a fresh folder would only fill it.
    pub fn cargo_env(&self) -> BTreeMap<String, OsString> {
        let incremental = match self.freshness {
            Freshness::Kept => "1",
            Freshness::PerGrade => "0",
        };
        let bin = self.toolchain.sysroot.join("bin");
        let mut path = bin.clone().into_os_string();
        path.push(":/usr/local/bin:/usr/bin:/bin");
        let home = match self.isolation {
            Isolation::Bubblewrap { .. } => PathBuf::from(VIEW_CARGO_HOME),
            _ => self.cargo_home.clone(),
        };
        [
            ("PATH", path),
            ("HOME", "/tmp".into()),
            ("TMPDIR", "/tmp".into()),
            ("CARGO_HOME", home.into_os_string()),
            ("RUSTC", bin.join("rustc").into_os_string()),
            ("RUSTDOC", bin.join("rustdoc").into_os_string()),
            ("CARGO_TERM_COLOR", "never".into()),
            ("CARGO_TERM_PROGRESS_WHEN", "never".into()),
            ("CARGO_NET_OFFLINE", "true".into()),
            ("CARGO_INCREMENTAL", incremental.into()),
            ("RUST_BACKTRACE", "0".into()),
        ]
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
    }

    /// The toolchain's cargo.
    pub fn cargo(&self) -> PathBuf {
        self.toolchain.cargo()
    }

    /// Runs `job` confined and brings back its steps' output and the files
    /// it collects.
    pub fn run(&self, job: &Job) -> Result<JobOutput, JobError> {
        for writable in &job.writes {
            if let Writable::Kept(path) = writable
                && job.trust == Trust::Learner
                && self.freshness == Freshness::PerGrade
            {
                return Err(JobError::Refused(format!(
                    "{}: a job over learner bytes may not keep {} between grades",
                    job.what,
                    path.display()
                )));
            }
        }
        let cache_key = self.cache_key(job);
        if let (Some(cache), Some(key)) = (&self.cache, &cache_key)
            && let Some(output) = cache.replay(key)
        {
            crate::timing(
                &format!("    replayed {}", job.what),
                std::time::Instant::now(),
            );
            return Ok(output);
        }
        let out = self.fresh_dir("out")?;
        for writable in &job.writes {
            match writable {
                Writable::Fresh { path, .. } => empty_dir(path)?,
                Writable::Kept(path) => std::fs::create_dir_all(path).map_err(io(path))?,
            }
        }
        let nonce = format!(
            "xsafe-archive-{:016x}{:016x}",
            xsafe_case::Rng::new().u64(..),
            xsafe_case::Rng::new().u64(..)
        );
        let script = script(job, &out, &nonce);
        if std::env::var_os("XSAFE_SHOW_JOBS").is_some() {
            eprintln!("{script}");
        }
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(&script).current_dir("/");
        let command = self.confine(command, &self.job_view(job, &out));
        if std::env::var_os("XSAFE_SHOW_JOBS").is_some() {
            // The confinement around the script printed above.
            let around: Vec<&OsStr> = command
                .get_args()
                .take_while(|arg| *arg != OsStr::new(&script))
                .collect();
            eprintln!("{:?} {around:?}", command.get_program());
        }
        let started = std::time::Instant::now();
        let run = run_bounded_bytes(command, job.bounds, None).map_err(JobError::Start);
        crate::timing("    its confined process", started);
        // The grader's own copies of the fresh folders (without bubblewrap
        // they are real folders) go, whatever happened.
        let cleanup = || {
            for writable in &job.writes {
                if let Writable::Fresh { path, .. } = writable {
                    let _ = remove_tree(path);
                }
            }
            let _ = remove_tree(&out);
        };
        let run = match run {
            Ok(run) => run,
            Err(err) => {
                cleanup();
                return Err(err);
            }
        };
        cleanup();
        let mut output = JobOutput {
            steps: BTreeMap::new(),
            files: BTreeMap::new(),
            ending: run.ending,
            stderr: String::from_utf8_lossy(&run.stderr).into_owned(),
            unreadable: None,
        };
        let archive = find_last(&run.stdout, nonce.as_bytes())
            .map(|at| &run.stdout[at + nonce.len()..])
            .ok_or_else(|| "the job printed no archive".to_owned());
        match archive.and_then(read_archive) {
            Ok(files) => {
                for step in &job.steps {
                    let take = |suffix: &str| {
                        files
                            .get(&out.join(format!("{}.{suffix}", step.name)))
                            .cloned()
                    };
                    let status = take("status")
                        .and_then(|text| String::from_utf8_lossy(&text).trim().parse().ok());
                    output.steps.insert(
                        step.name.clone(),
                        StepOutput {
                            stdout: take("out").unwrap_or_default(),
                            stderr: String::from_utf8_lossy(&take("err").unwrap_or_default())
                                .into_owned(),
                            status,
                            time: step.time,
                            took: take("time").and_then(|text| {
                                let text = String::from_utf8_lossy(&text).into_owned();
                                let mut stamps = text
                                    .lines()
                                    .filter_map(|line| line.trim().parse::<f64>().ok());
                                let (start, end) = (stamps.next()?, stamps.next()?);
                                Duration::try_from_secs_f64(end - start).ok()
                            }),
                        },
                    );
                }
                output.files = files
                    .into_iter()
                    .filter(|(path, _)| !path.starts_with(&out))
                    .collect();
            }
            Err(why) => output.unreadable = Some(why),
        }
        if let (Some(cache), Some(key)) = (&self.cache, &cache_key) {
            let steps: Vec<String> = job.steps.iter().map(|step| step.name.clone()).collect();
            cache.record(key, &output, &steps);
        }
        Ok(output)
    }

    /// What a job's processes see, its steps' output going to `out`.
    fn job_view(&self, job: &Job, out: &Path) -> View {
        let mut view = View {
            reads: job.reads.clone(),
            tmpfs: vec![(out.to_path_buf(), OUT_BYTES)],
            binds: Vec::new(),
            tmp_bytes: job.tmp_bytes,
            // cargo and rustc find themselves through /proc/self/exe.
            proc: true,
        };
        view.reads.push(self.toolchain.sysroot.clone());
        for writable in &job.writes {
            match writable {
                Writable::Fresh { path, seed, bytes } => {
                    view.tmpfs.push((path.clone(), *bytes));
                    view.reads.extend(seed.iter().cloned());
                }
                Writable::Kept(path) => view.binds.push(path.clone()),
            }
        }
        view
    }

    /// The key under which `job`'s output is recorded, when this confiner
    /// has a cache and the job may be cached: under bubblewrap, with only
    /// fresh writable folders (see `job_cache`).
    fn cache_key(&self, job: &Job) -> Option<String> {
        let cache = self.cache.as_ref()?;
        let Isolation::Bubblewrap { user_namespace, .. } = &self.isolation else {
            return None;
        };
        let mut seeds = Vec::new();
        let mut writes = Vec::new();
        for writable in &job.writes {
            match writable {
                Writable::Fresh { path, seed, .. } => {
                    writes.push(path.clone());
                    seeds.extend(seed.iter().cloned());
                }
                Writable::Kept(_) => return None,
            }
        }
        // The run's own output folder and nonce, as placeholders.
        let out = Path::new("/xsafe-job-out");
        let script = script(job, out, "xsafe-archive-nonce");
        let sandbox = self.bubblewrap_args(&self.job_view(job, out), *user_namespace);
        let started = std::time::Instant::now();
        let key = cache.key(&JobInputs {
            script: &script,
            sandbox: &sandbox,
            bounds: job.bounds,
            toolchain: &self.toolchain.version,
            reads: &job.reads,
            seeds: &seeds,
            writes: &writes,
        });
        crate::timing("    its cache key", started);
        key
    }

    /// Writes `program` (its bytes) afresh to a file of the grader's, to be
    /// run by [`Confiner::run_program`]; the file goes when the returned
    /// value does.
    pub fn install(&self, program: &[u8]) -> Result<Installed, JobError> {
        Ok(Installed {
            path: self.fresh_program(program)?,
        })
    }

    /// Runs an installed program confined, with `input` on its standard
    /// input, and returns what it printed: the observing program and the
    /// judge. It sees only itself, the system's libraries and a sized
    /// `/tmp` (no `/proc` under bubblewrap), and starts in `/`.
    pub fn run_program(
        &self,
        program: &Installed,
        args: &[&str],
        input: Vec<u8>,
        tmp_bytes: u64,
        bounds: Bounds,
    ) -> Result<Bounded, JobError> {
        let view = View {
            reads: vec![program.path.clone()],
            tmpfs: Vec::new(),
            binds: Vec::new(),
            tmp_bytes,
            // No /proc: the code under test cannot read its own memory
            // (the harness's request, its guard) through /proc/self/mem,
            // nor see or signal another process by its entries.
            proc: false,
        };
        // A program written a moment ago can be "busy" for a moment, while
        // another thread's fork still holds it open: try again then.
        let mut finished = Err(std::io::Error::other("not started"));
        for _ in 0..20 {
            let mut command = Command::new(&program.path);
            command
                .args(args)
                .env("RUST_BACKTRACE", "0")
                .env("HOME", "/tmp")
                .env("TMPDIR", "/tmp");
            finished = run_bounded(self.confine(command, &view), bounds, Some(input.clone()));
            match &finished {
                Err(err) if err.raw_os_error() == Some(26) => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                _ => break,
            }
        }
        finished.map_err(JobError::Start)
    }

    /// A new empty folder of the grader's under the scratch folder.
    fn fresh_dir(&self, name: &str) -> Result<PathBuf, JobError> {
        let dir = self.scratch.join(format!(
            "{name}-{}-{:x}",
            std::process::id(),
            xsafe_case::Rng::new().u64(..)
        ));
        empty_dir(&dir)?;
        Ok(dir)
    }

    /// `bytes` written to a new file of the grader's, executable by its
    /// owner only.
    fn fresh_program(&self, bytes: &[u8]) -> Result<PathBuf, JobError> {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::create_dir_all(&self.scratch).map_err(io(&self.scratch))?;
        let path = self.scratch.join(format!(
            "program-{}-{:x}",
            std::process::id(),
            xsafe_case::Rng::new().u64(..)
        ));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o700)
            .open(&path)
            .map_err(io(&path))?;
        file.write_all(bytes).map_err(io(&path))?;
        file.sync_all().map_err(io(&path))?;
        Ok(path)
    }

    /// `command`, to be run confined in `view`. Its program, arguments and
    /// the environment variables set on it carry over (nothing else of the
    /// grader's environment does); it starts in `/`.
    fn confine(&self, command: Command, view: &View) -> Command {
        let program = command.get_program().to_owned();
        let args: Vec<OsString> = command.get_args().map(ToOwned::to_owned).collect();
        let mut confined = match &self.isolation {
            Isolation::Bubblewrap {
                program: bwrap,
                user_namespace,
            } => {
                let mut bwrap = Command::new(bwrap);
                bwrap.args(self.bubblewrap_args(view, *user_namespace));
                bwrap.arg("--chdir").arg("/").arg("--").arg(&program);
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
        confined.args(args).current_dir("/").env_clear();
        confined.env("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (key, value) in command.get_envs() {
            match value {
                Some(value) => confined.env(key, value),
                None => confined.env_remove(key),
            };
        }
        confined
    }

    /// bubblewrap's arguments: namespaces and no capability; the system,
    /// the toolchain, the registry and the view's reads read-only; the
    /// view's fresh folders as sized tmpfs, its kept folders bound; then
    /// the root made read-only.
    fn bubblewrap_args(&self, view: &View, user_namespace: bool) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut push = |items: &[&dyn AsRef<OsStr>]| {
            args.extend(items.iter().map(|item| item.as_ref().to_owned()));
        };
        if user_namespace {
            push(&[&"--unshare-user", &"--uid", &"65534", &"--gid", &"65534"]);
        }
        for flag in [
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-net",
            "--unshare-cgroup-try",
            "--die-with-parent",
            "--new-session",
        ] {
            push(&[&flag]);
        }
        push(&[&"--cap-drop", &"ALL"]);
        push(&[&"--dev", &"/dev"]);
        if view.proc {
            push(&[&"--proc", &"/proc"]);
        }
        let tmp_bytes = view.tmp_bytes.to_string();
        push(&[&"--size", &tmp_bytes, &"--tmpfs", &"/tmp"]);
        // bubblewrap's `/dev` brings a `/dev/shm` of its own, unsized:
        // sized like `/tmp` (what a memory file holds counts against the
        // run's cgroup, where there is one).
        push(&[&"--size", &tmp_bytes, &"--tmpfs", &"/dev/shm"]);
        for system in SYSTEM {
            push(&[&"--ro-bind-try", &system, &system]);
        }
        if let Some(registry) = &self.registry {
            let inside = Path::new(VIEW_CARGO_HOME).join("registry");
            push(&[&"--ro-bind-try", registry, &inside]);
        }
        for path in &view.reads {
            push(&[&"--ro-bind", path, path]);
        }
        for (path, bytes) in &view.tmpfs {
            let bytes = bytes.to_string();
            push(&[&"--size", &bytes, &"--tmpfs", path]);
        }
        for path in &view.binds {
            push(&[&"--bind", path, path]);
        }
        push(&[&"--remount-ro", &"/"]);
        args
    }
}

/// A program written to a file of the grader's, removed when dropped.
#[derive(Debug)]
pub struct Installed {
    path: PathBuf,
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The system's programs and libraries, read-only in every view.
const SYSTEM: [&str; 8] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/etc/ld.so.cache",
    "/etc/alternatives",
];

/// The size of the folder where a job's steps write what they print.
const OUT_BYTES: u64 = 64 << 20;

/// What one confined process sees, besides the system.
struct View {
    reads: Vec<PathBuf>,
    tmpfs: Vec<(PathBuf, u64)>,
    binds: Vec<PathBuf>,
    tmp_bytes: u64,
    /// Whether it has a `/proc` (of its own process namespace).
    proc: bool,
}

/// A word for the shell, quoted.
fn quoted(text: &OsStr) -> String {
    let text = String::from_utf8_lossy(text.as_bytes());
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The job as a shell script: seed the fresh folders, run each step with
/// its environment and time limit, its output into `out`, then print one
/// archive of `out` and the collected files.
fn script(job: &Job, out: &Path, nonce: &str) -> String {
    // The archive goes to the job's standard output, which the steps never
    // hold (fd 3 keeps it, closed for them).
    let mut script = String::from("set -u\nexec 3>&1 1>/dev/null\n");
    for writable in &job.writes {
        if let Writable::Fresh {
            path,
            seed: Some(seed),
            ..
        } = writable
            && seed.is_dir()
        {
            let _ = writeln!(
                script,
                "cp -a {}/. {}/ 2>{}",
                quoted(seed.as_os_str()),
                quoted(path.as_os_str()),
                quoted(out.join("seed.err").as_os_str())
            );
        }
    }
    let _ = writeln!(script, ": >{}", quoted(out.join("seeded").as_os_str()));
    for step in &job.steps {
        let file = |suffix: &str| quoted(out.join(format!("{}.{suffix}", step.name)).as_os_str());
        let mut line = String::from("env -i");
        for (key, value) in &step.env {
            let _ = write!(line, " {key}={}", quoted(value));
        }
        let _ = write!(line, " timeout -s KILL {}", step.time.as_secs().max(1));
        let _ = write!(line, " {}", quoted(step.program.as_os_str()));
        for arg in &step.args {
            let _ = write!(line, " {}", quoted(arg));
        }
        let _ = writeln!(
            script,
            "( date +%s.%N >{}\n{line} <{} >{} 2>{} 3>&-\necho $? >{}\ndate +%s.%N >>{} ){}",
            file("time"),
            quoted(
                step.stdin
                    .as_deref()
                    .unwrap_or(Path::new("/dev/null"))
                    .as_os_str()
            ),
            file("out"),
            file("err"),
            file("status"),
            file("time"),
            if job.concurrent { " &" } else { "" }
        );
    }
    if job.concurrent {
        script.push_str("wait\n");
    }
    // The archive: what the steps printed, then the collected files (the
    // files of a folder only when written after the seeding), listed with
    // NUL separators so that no name is split.
    let list = quoted(out.join(".list").as_os_str());
    let mut listing = format!(
        "{{ find {} -maxdepth 1 -type f -print0",
        quoted(out.as_os_str())
    );
    for collect in &job.collect {
        match collect {
            Collect::File(path) => {
                let _ = write!(listing, "; printf '%s\\0' {}", quoted(path.as_os_str()));
            }
            Collect::Suffix(dir, suffix) => {
                let _ = write!(
                    listing,
                    "; find {} -maxdepth 1 -type f -name {} -newer {} -print0",
                    quoted(dir.as_os_str()),
                    quoted(OsStr::new(&format!("*{suffix}"))),
                    quoted(out.join("seeded").as_os_str())
                );
            }
        }
    }
    let _ = writeln!(script, "{listing}; }} >{list} 2>/dev/null");
    // Whatever a step left running goes before the archive is written, and
    // the archive starts after the job's nonce: what a step's process wrote
    // into the job's output before (through /proc) comes before the last
    // nonce, and is not read.
    let _ = writeln!(
        script,
        "kill -9 -1 2>/dev/null\nprintf '%s' {nonce} >&3\ncd / && exec tar -cf - --null --no-recursion --ignore-failed-read -T {list} 2>/dev/null >&3"
    );
    script
}

/// Where `needle` last starts in `haystack`.
fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::rfind(haystack, needle)
}

/// The regular files of a tar archive, by absolute path. Anything else (a
/// link, a device, a name that climbs out with `..`) is left out; the
/// archive as a whole is bounded by the job's output limit.
fn read_archive(bytes: &[u8]) -> Result<BTreeMap<PathBuf, Vec<u8>>, String> {
    let mut files = BTreeMap::new();
    let mut archive = tar::Archive::new(bytes);
    let entries = archive
        .entries()
        .map_err(|err| format!("the job's archive cannot be read: {err}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|err| format!("the job's archive is damaged: {err}"))?;
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let Ok(path) = entry.path() else { continue };
        if path
            .components()
            .any(|component| !matches!(component, Component::Normal(_)))
        {
            continue;
        }
        let path = Path::new("/").join(path);
        let mut content = Vec::new();
        entry
            .read_to_end(&mut content)
            .map_err(|err| format!("the job's archive is damaged: {err}"))?;
        files.insert(path, content);
    }
    Ok(files)
}

/// Makes `dir` an empty folder of the grader's.
fn empty_dir(dir: &Path) -> Result<(), JobError> {
    remove_tree(dir)?;
    std::fs::create_dir_all(dir).map_err(io(dir))
}

/// Removes `path` without following a link (whatever a job left there).
fn remove_tree(path: &Path) -> Result<(), JobError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).map_err(io(path)),
        Ok(_) => std::fs::remove_file(path).map_err(io(path)),
        Err(_) => Ok(()),
    }
}

/// The first `name` on `PATH`.
fn find_program(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// Whether `isolation` can run `true` here with a sized `/tmp`.
fn works(isolation: &Isolation) -> bool {
    let Some(truth) = find_program("true") else {
        return false;
    };
    let confiner = Confiner {
        isolation: isolation.clone(),
        freshness: Freshness::PerGrade,
        toolchain: Toolchain {
            sysroot: PathBuf::from("/usr"),
            version: String::new(),
        },
        registry: None,
        scratch: std::env::temp_dir(),
        cargo_home: std::env::temp_dir(),
        cache: None,
    };
    let view = View {
        reads: Vec::new(),
        tmpfs: Vec::new(),
        binds: Vec::new(),
        tmp_bytes: 1 << 20,
        proc: true,
    };
    let mut command = confiner.confine(Command::new(truth), &view);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command.status().is_ok_and(|status| status.success())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn bounds() -> Bounds {
        Bounds {
            time: Duration::from_secs(30),
            processor: None,
            output_bytes: 16 << 20,
            memory_bytes: Limits::DEFAULT_MEMORY_BYTES,
        }
    }

    fn confiner(scratch: &Path) -> Confiner {
        let toolchain = Toolchain::find(Path::new(env!("CARGO_MANIFEST_DIR")), None)
            .expect("the toolchain runs");
        Confiner::new(
            Isolation::detect(),
            Freshness::PerGrade,
            &toolchain,
            scratch,
            scratch,
        )
    }

    fn shell(name: &str, script: &str) -> Step {
        Step {
            name: name.to_owned(),
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".into(), script.into()],
            env: BTreeMap::new(),
            time: Duration::from_secs(20),
            stdin: None,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xsafe-confine-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch");
        dir
    }

    /// A step ended by SIGKILL long before its time limit was killed from
    /// inside, and says so; one ended at its limit timed out.
    #[test]
    fn a_kill_from_inside_is_no_timeout() {
        let step = |took: f64| StepOutput {
            stdout: Vec::new(),
            stderr: String::new(),
            status: Some(137),
            time: Duration::from_secs(600),
            took: Some(Duration::from_secs_f64(took)),
        };
        let inside = step(0.8).stopped_because().expect("stopped");
        assert!(inside.contains("killed (SIGKILL) after 0.8 s"), "{inside}");
        let late = step(600.2).stopped_because().expect("stopped");
        assert!(late.contains("stopped after 600 s"), "{late}");
        let mut fine = step(1.0);
        fine.status = Some(0);
        assert_eq!(fine.stopped_because(), None);
    }

    /// A job's fresh folder starts as a copy of its seed, takes writes up to
    /// its size and no more, and leaves nothing behind on the machine; its
    /// collected files (of a folder: those written after the seeding) and
    /// its steps' output come back as data.
    #[test]
    fn a_fresh_folder_is_seeded_sized_and_gone_after() {
        let dir = scratch("fresh");
        let seed = dir.join("seed");
        std::fs::create_dir_all(&seed).expect("seed");
        std::fs::write(seed.join("cached"), "from the cache").expect("seed file");
        let target = dir.join("target");
        let job = Job {
            what: "a test".into(),
            trust: Trust::Learner,
            reads: Vec::new(),
            writes: vec![Writable::Fresh {
                path: target.clone(),
                seed: Some(seed.clone()),
                bytes: 4 << 20,
            }],
            steps: vec![shell(
                "fill",
                &format!(
                    "cat {t}/cached; echo made > {t}/made; echo x > {t}/touched; head -c 8000000 /dev/zero > {t}/big; echo big=$?; echo oops >&2",
                    t = target.display()
                ),
            )],
            concurrent: false,
            collect: vec![
                Collect::File(target.join("made")),
                Collect::Suffix(target.clone(), "ed"),
            ],
            tmp_bytes: 1 << 20,
            bounds: bounds(),
        };
        let output = confiner(&dir.join("scratch")).run(&job).expect("runs");
        let step = output.step("fill");
        assert!(step.succeeded(), "{step:?} {}", output.stderr);
        let printed = String::from_utf8_lossy(&step.stdout);
        assert!(printed.contains("from the cache"), "{printed}");
        assert_eq!(step.stderr.lines().last(), Some("oops"));
        assert_eq!(
            output.files.get(&target.join("made")).map(Vec::as_slice),
            Some(&b"made\n"[..])
        );
        // A folder's files are collected when written after the seeding.
        assert!(output.files.contains_key(&target.join("touched")));
        assert!(!output.files.contains_key(&target.join("cached")));
        if matches!(Isolation::detect(), Isolation::Bubblewrap { .. }) {
            assert!(
                printed.contains("big=1"),
                "a write past the folder's size must fail: {printed}"
            );
        }
        assert!(
            !target.exists() || std::fs::read_dir(&target).expect("dir").next().is_none(),
            "the fresh folder must leave nothing behind"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Under bubblewrap a job sees only its own processes, cannot write
    /// outside its writable folders (the root, its reads), cannot read
    /// what it was not given, runs without capabilities, finds no cargo
    /// configuration and gets only the environment the step sets.
    #[test]
    fn bubblewrap_confines() {
        if !matches!(Isolation::detect(), Isolation::Bubblewrap { .. }) {
            eprintln!("bubblewrap does not work here: nothing to check");
            return;
        }
        let dir = scratch("confines");
        let given = dir.join("given");
        std::fs::create_dir_all(&given).expect("given");
        let secret = std::env::current_exe().expect("this test's program");
        // SAFETY: no other thread of this test reads the variable.
        unsafe { std::env::set_var("XSAFE_CONFINE_PROBE", "leaked") };
        let script = format!(
            "ls /proc | grep -c '^[0-9]'; echo x > {g}/w 2>/dev/null || echo refused-read; echo x > /w 2>/dev/null || echo refused-root; cat {s} >/dev/null 2>&1 || echo unseen; grep CapEff /proc/self/status; ls -a / | grep -c '^.cargo$'; ls /xsafe-cargo-home; echo \"[$XSAFE_CONFINE_PROBE]\"",
            g = given.display(),
            s = secret.display()
        );
        let job = Job {
            what: "a test".into(),
            trust: Trust::Learner,
            reads: vec![given.clone()],
            writes: Vec::new(),
            steps: vec![shell("probe", &script)],
            concurrent: false,
            collect: Vec::new(),
            tmp_bytes: 1 << 20,
            bounds: bounds(),
        };
        let output = confiner(&dir.join("scratch")).run(&job).expect("runs");
        let printed = String::from_utf8_lossy(&output.step("probe").stdout).into_owned();
        let lines: Vec<&str> = printed.lines().collect();
        let processes: u32 = lines[0].trim().parse().expect("a count of processes");
        // The sandbox's own: its init, the job's shell and subshell, the
        // step's shell and its pipeline.
        assert!(processes <= 10, "it sees {processes} processes:\n{printed}");
        for expected in [
            "refused-read",
            "refused-root",
            "unseen",
            "CapEff:\t0000000000000000",
            "0",
            "registry",
            "[]",
        ] {
            assert!(lines.contains(&expected), "no {expected:?} in:\n{printed}");
        }
        assert!(!given.join("w").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A job over learner bytes may not keep a folder between grades.
    #[test]
    fn learner_jobs_keep_nothing() {
        let dir = scratch("kept");
        let job = Job {
            what: "a learner's build".into(),
            trust: Trust::Learner,
            reads: Vec::new(),
            writes: vec![Writable::Kept(dir.join("target"))],
            steps: Vec::new(),
            concurrent: false,
            collect: Vec::new(),
            tmp_bytes: 1 << 20,
            bounds: bounds(),
        };
        assert!(matches!(
            confiner(&dir).run(&job),
            Err(JobError::Refused(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A program runs with its arguments and input, and sees itself.
    #[test]
    fn runs_a_program_with_its_input() {
        let dir = scratch("program");
        let run = run_sh(&dir, "read line; echo \"got $line\"; pwd", b"hello\n");
        assert_eq!(run.stdout, "got hello\n/\n", "{}", run.stderr);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Runs `script` with a `/bin/sh` installed in the confinement, as a
    /// program (the way the observing program and the judge run), with
    /// `input` on its standard input.
    fn run_sh(dir: &Path, script: &str, input: &[u8]) -> Bounded {
        let confiner = confiner(dir);
        let sh = confiner
            .install(&std::fs::read("/bin/sh").expect("sh"))
            .expect("installs");
        confiner
            .run_program(&sh, &["-c", script], input.to_vec(), 1 << 20, bounds())
            .expect("runs")
    }

    /// Under bubblewrap a program (the observing program, the judge) has
    /// no `/proc`: it cannot read its own memory through `/proc/self/mem`
    /// nor see other processes. A job (a build) still has one.
    #[test]
    fn programs_have_no_proc() {
        if !matches!(Isolation::detect(), Isolation::Bubblewrap { .. }) {
            eprintln!("bubblewrap does not work here: nothing to check");
            return;
        }
        let dir = scratch("no-proc");
        let run = run_sh(
            &dir,
            "cat /proc/self/maps >/dev/null 2>&1 && echo mem-readable; ls /proc 2>/dev/null | wc -l",
            b"",
        );
        assert_eq!(run.stdout.trim(), "0", "{}", run.stderr);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
