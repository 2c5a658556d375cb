//! Grading one exercise, phase by phase: the trusted part, recording the
//! learner's macros, the deciding build, the compile-fail verdicts, the
//! observations, the judge, the release build of the no-panic cases, the
//! surface.
//!
//! Every phase that reads, compiles or runs learner bytes receives the one
//! [`Confiner`] of the grade and nothing else that could start a process
//! (see `confine`); what comes back from a job is data. The only process
//! started outside a confiner is the trusted `cargo fetch` (see
//! `trusted`), which reads no learner byte.

use crate::behaviour::{BehaviourRun, judge_all, observe_all, tail};
use crate::build::{BuildRun, bootstrapped, cargo_step, is_error};
use crate::compile_fail::{ReportedError, verdict};
use crate::confine::{
    Collect, Confiner, Freshness, Installed, Isolation, Job, JobError, JobOutput, Trust, Writable,
};
use crate::limits::{Bounds, Limits};
use crate::macros::{LearnerMacros, MacroError};
use crate::outcome::{CaseOutcome, Grade, Status};
use crate::project::{Project, ProjectError, ProjectSpec, write_project};
use crate::toolchain::Toolchain;
use crate::trusted::{Trusted, TrustedError, TrustedSpec};
use crate::{before_main, depinfo, surface};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use xsafe_course::{Case, Expect, Expectations, Manifest, ManifestError};

/// What to grade, and where.
#[derive(Debug, Clone)]
pub struct GradeRequest {
    /// The crate under test: the course's files of the exercise (its
    /// `Cargo.toml`, `grading/`) with the learner's files in place.
    pub crate_dir: PathBuf,
    /// The exercise as the course has it (its starter and cases), from
    /// which the trusted caches and the judge are built. The learner's
    /// tool gives the exercise's own folder.
    pub pristine: PathBuf,
    /// This grade's own folder, for the generated workspaces and copies. A
    /// later grade of the same submission may reuse it; two grades at once
    /// must not share it.
    pub work_dir: PathBuf,
    /// Where trusted files live (caches, the judge, the grader's
    /// `CARGO_HOME`); with [`Freshness::Kept`], the target folder of the
    /// deciding build too. Grades may share it.
    pub target_dir: PathBuf,
    /// A lockfile to resolve dependencies as the course does.
    pub lockfile: Option<PathBuf>,
    /// The limits of every build and run.
    pub limits: Limits,
    /// Whether every writable folder is fresh for each job (the grader) or
    /// build folders are kept between grades (the learner's tool).
    pub freshness: Freshness,
    /// The seed from which every behaviour case draws its inputs; random
    /// when `None`.
    pub seed: Option<u64>,
    /// Whether the cases marked `miri` also run under Miri (where the
    /// machine has it).
    pub miri: bool,
    /// Whether the cases that build the crate again in release mode
    /// (`no-panic`, see `no_panic`) and the long sweeps (behaviour cases
    /// marked `sweep`) run: the instructor's grader and `cargo xsafe check
    /// --full` ask for them; the learner's re-grade on each save leaves
    /// them not run, to stay fast, and asks for them alone once every
    /// other case passes.
    pub full: bool,
    /// Grade only these cases (by name); every case when empty.
    pub only: Vec<String>,
    /// The rustup toolchain to grade with (such as `nightly`); the one that
    /// `rustc` resolves to from the pristine exercise when `None`.
    pub toolchain: Option<String>,
    /// Path prefixes to show differently in the details (such as the
    /// sandbox's folder shown as `exercises/NAME`), longest first.
    pub show_paths: Vec<(PathBuf, String)>,
    /// The budget, in bytes, of the cache of job outputs in
    /// `target_dir/job-cache` (see `job_cache`): with
    /// [`Freshness::PerGrade`] under bubblewrap, a job run before with the
    /// same inputs and every step a success is replayed from it. No cache
    /// when 0.
    pub job_cache_bytes: u64,
}

/// Why an exercise could not be graded at all (as opposed to graded and
/// failing): a problem of the course or of the machine, never of the
/// learner's code.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// The manifest or a case's annotations are broken.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The generated workspace could not be written.
    #[error(transparent)]
    Project(#[from] ProjectError),
    /// The learner's macro crates could not be prepared.
    #[error(transparent)]
    Macros(#[from] MacroError),
    /// The trusted part could not be made.
    #[error(transparent)]
    Trusted(#[from] TrustedError),
    /// A confined job could not run.
    #[error(transparent)]
    Job(#[from] JobError),
    /// The toolchain or cargo could not be run.
    #[error("cannot run the toolchain: {0}")]
    Toolchain(#[source] std::io::Error),
    /// The grade's folder could not be used.
    #[error("{path}: {source}")]
    Io {
        /// The folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// No such case.
    #[error("the exercise has no case `{0}`")]
    NoSuchCase(String),
}

/// How a phase can end the grade early.
enum Ended {
    /// The exercise is graded already (its crate does not compile, or it
    /// was refused).
    Graded(Box<Grade>),
    /// It cannot be graded.
    Error(GradeError),
}

impl Ended {
    fn graded(grade: Grade) -> Ended {
        Ended::Graded(Box::new(grade))
    }
}

impl<E: Into<GradeError>> From<E> for Ended {
    fn from(err: E) -> Ended {
        Ended::Error(err.into())
    }
}

/// The seed of a grade when none is asked for.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    xsafe_case::Rng::with_seed(nanos as u64 ^ u64::from(std::process::id())).u64(..)
}

/// Everything a grade's phases share: the request with absolute paths,
/// the manifest, the cases asked for, the toolchain.
struct Plan {
    request: GradeRequest,
    manifest: Manifest,
    compile_fail: Vec<Case>,
    behaviour: Vec<Case>,
    surface: Vec<Case>,
    no_panic: Vec<Case>,
    expectations: BTreeMap<String, Expectations>,
    toolchain: Toolchain,
    /// Miri, when the grade runs cases under it: `None` when it does not,
    /// `Some(Err)` when it should but the machine has none.
    miri: Option<Result<crate::miri::Miri, String>>,
}

impl Plan {
    /// Whether the request asks for `case` (it names no case, or this one).
    fn asked_for(&self, case: &Case) -> bool {
        self.request.only.is_empty() || self.request.only.contains(&case.name())
    }

    /// Whether this grade runs the behaviour case `case`: asked for, and
    /// not a long sweep that a quick grade leaves out.
    fn runs(&self, case: &Case) -> bool {
        self.asked_for(case) && (self.request.full || !case.sweep)
    }

    /// The exercise's reference solution (`solutions/NAME` beside the
    /// pristine exercise's `exercises/NAME`), when the course has it.
    fn solution(&self) -> Option<PathBuf> {
        let course = self.request.pristine.parent()?.parent()?;
        let solution = course.join("solutions").join(&self.manifest.exercise);
        solution.join("Cargo.toml").is_file().then_some(solution)
    }

    fn show(&self, text: &str) -> String {
        show_paths(text, &self.request.show_paths)
    }

    /// The bounds of one build step, and of a job of `steps` of them.
    fn build_bounds(&self, steps: u32) -> Bounds {
        let build = self.request.limits.build();
        Bounds {
            time: build.time * steps + Duration::from_secs(60),
            processor: None,
            // The archive: an observing program, a judge, rustdoc's JSON.
            output_bytes: build.output_bytes.max(512 << 20),
            ..build
        }
    }

    /// A writable target folder of a job: fresh (seeded from a trusted
    /// cache) for the grader, kept for the learner's tool.
    fn target(&self, name: &str, seed: Option<&Path>, kept: &Path) -> Writable {
        match self.request.freshness {
            Freshness::PerGrade => Writable::Fresh {
                path: self.request.work_dir.join("jobs").join(name),
                seed: seed.map(Path::to_path_buf),
                bytes: self.request.limits.build_bytes,
            },
            Freshness::Kept => Writable::Kept(kept.to_path_buf()),
        }
    }
}

/// Grades the crate of `request`.
///
/// A crate that does not compile is still graded: every case is then
/// [`Status::NotRun`], and [`Grade::crate_errors`] holds the compiler's
/// errors. Every build and run is confined and bounded by the request's
/// limits.
pub fn grade(request: &GradeRequest) -> Result<Grade, GradeError> {
    let plan = plan(request)?;
    let cargo_home =
        crate::toolchain::pinned_cargo_home(&plan.request.target_dir).map_err(|source| {
            GradeError::Io {
                path: plan.request.target_dir.clone(),
                source,
            }
        })?;
    let mut confiner = Confiner::new(
        Isolation::detect(),
        plan.request.freshness,
        &plan.toolchain,
        &plan.request.work_dir.join("scratch"),
        &cargo_home,
    );
    if plan.request.freshness == Freshness::PerGrade && plan.request.job_cache_bytes > 0 {
        confiner = confiner.with_job_cache(crate::job_cache::JobCache::new(
            &plan.request.target_dir.join("job-cache"),
            plan.request.job_cache_bytes,
        ));
    }
    match phases(&plan, &confiner) {
        Ok(grade) => Ok(without_machine_paths(&plan, grade)),
        Err(Ended::Graded(grade)) => Ok(without_machine_paths(&plan, *grade)),
        Err(Ended::Error(err)) => Err(err),
    }
}

/// The grade with every path of the grader's machine in its texts (its
/// work and target folders, the course, the home folder) written by what
/// it is: a report says where in the exercise, never where on the machine.
fn without_machine_paths(plan: &Plan, mut grade: Grade) -> Grade {
    let mut known: Vec<(PathBuf, String)> = plan.request.show_paths.clone();
    known.push((plan.request.work_dir.clone(), "<grader work>".to_owned()));
    known.push((
        plan.request.target_dir.clone(),
        "<grader target>".to_owned(),
    ));
    if let Some(course) = plan.request.pristine.parent().and_then(Path::parent) {
        known.push((course.to_path_buf(), "<course>".to_owned()));
    }
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from)
        && home.components().count() > 1
    {
        known.push((home, "~".to_owned()));
    }
    // The longest first, so that a folder inside another is named by the
    // nearer label.
    known.sort_by_key(|(path, _)| std::cmp::Reverse(path.as_os_str().len()));
    let scrub = |text: &str| show_paths(text, &known);
    for (_, outcome) in &mut grade.outcomes {
        let status = std::mem::replace(&mut outcome.status, Status::Passed);
        outcome.status = status.map_reason(scrub);
        outcome.details = scrub(&outcome.details);
    }
    if let Some(errors) = &grade.crate_errors {
        grade.crate_errors = Some(scrub(errors));
    }
    grade
}

/// The request's paths made absolute and real (the grader's own folders),
/// its manifest read and its cases chosen.
fn plan(request: &GradeRequest) -> Result<Plan, GradeError> {
    let real = |path: &PathBuf| -> Result<PathBuf, GradeError> {
        std::fs::create_dir_all(path).map_err(|source| GradeError::Io {
            path: path.clone(),
            source,
        })?;
        path.canonicalize().map_err(|source| GradeError::Io {
            path: path.clone(),
            source,
        })
    };
    let absolute = |path: &PathBuf| -> Result<PathBuf, GradeError> {
        let path = std::path::absolute(path).map_err(|source| GradeError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(path.canonicalize().unwrap_or(path))
    };
    let request = GradeRequest {
        crate_dir: absolute(&request.crate_dir)?,
        pristine: absolute(&request.pristine)?,
        work_dir: real(&request.work_dir)?,
        target_dir: real(&request.target_dir)?,
        lockfile: request.lockfile.as_ref().map(absolute).transpose()?,
        ..request.clone()
    };
    let manifest = Manifest::load(&request.crate_dir.join("grading"))?;
    for name in &request.only {
        if !manifest.cases.iter().any(|case| case.name() == *name) {
            return Err(GradeError::NoSuchCase(name.clone()));
        }
    }
    let of = |expect: Expect| -> Vec<Case> {
        manifest
            .cases
            .iter()
            .filter(|case| case.expect == expect)
            .filter(|case| request.only.is_empty() || request.only.contains(&case.name()))
            .cloned()
            .collect()
    };
    let compile_fail = of(Expect::CompileFail);
    // Every behaviour case is built, whichever run: the observing program
    // and the judge are then the same for every request on one crate, and
    // a second request (the learner's tool runs the long cases after the
    // others pass) finds them built. `behave` runs only those asked for.
    let behaviour: Vec<Case> = manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::Pass)
        .cloned()
        .collect();
    let surface = of(Expect::Surface);
    let no_panic = of(Expect::NoPanic);
    let mut expectations = BTreeMap::new();
    for case in &compile_fail {
        expectations.insert(case.name(), case.expectations(&manifest)?);
    }
    let toolchain = Toolchain::find(&request.pristine, request.toolchain.as_deref())
        .map_err(GradeError::Toolchain)?;
    let miri =
        (request.miri && behaviour.iter().any(|case| case.miri)).then(crate::miri::Miri::find);
    Ok(Plan {
        request,
        manifest,
        compile_fail,
        behaviour,
        surface,
        no_panic,
        expectations,
        toolchain,
        miri,
    })
}

/// The phases, in order.
fn phases(plan: &Plan, confiner: &Confiner) -> Result<Grade, Ended> {
    let t0 = std::time::Instant::now();
    let tick = |what: &str| crate::timing(what, t0);
    let trusted = crate::trusted::prepare(
        &TrustedSpec {
            pristine: &plan.request.pristine,
            root: &plan.request.target_dir,
            lockfile: plan.request.lockfile.as_deref(),
            behaviour: plan.behaviour.iter().collect(),
            compile_fail: plan.compile_fail.iter().collect(),
            build: plan.request.freshness == Freshness::PerGrade,
            solution: plan.solution().as_deref(),
            miri: match &plan.miri {
                Some(Ok(miri)) if plan.request.freshness == Freshness::PerGrade => Some(miri),
                _ => None,
            },
        },
        &plan.toolchain,
        confiner,
        plan.request.limits.course_build(),
    )?;
    tick("trusted");
    let mut found: BTreeMap<String, CaseOutcome> = BTreeMap::new();
    let recorded = record_macros(plan, &trusted, confiner, &mut found)?;
    tick("recorded");
    let decided = build(plan, &trusted, confiner, &recorded, &mut found)?;
    tick("built");
    decide_compile_fail(plan, &decided, &mut found);
    if plan.request.freshness == Freshness::Kept {
        crate::compile_fail_batch::remember(&plan.request.work_dir, &plan.compile_fail, |name| {
            found
                .get(name)
                .is_some_and(|outcome| outcome.status == Status::Passed)
        });
    }
    for case in &plan.behaviour {
        if plan.asked_for(case) && !plan.runs(case) && !found.contains_key(&case.name()) {
            found.insert(
                case.name(),
                CaseOutcome::new(
                    Status::NotRun(
                        "a quick grade leaves out this long case: it runs once every other case passes, and in `cargo xsafe check --full` and the instructor's grader".to_owned(),
                    ),
                    String::new(),
                ),
            );
        }
    }
    let observe_exe = match &recorded.observe {
        Some(observe) => Some(observe.clone()),
        None => decided.observe.clone(),
    };
    // The surface is read from rustdoc's JSON while the behaviour cases
    // run: it needs nothing they do.
    let (surface, behaved) = std::thread::scope(|scope| {
        let surface = scope.spawn(|| surface_phase(plan, &recorded, &decided));
        let behaved = if decided.observable.is_empty() {
            Ok(())
        } else {
            let judge_exe = match &trusted.judge {
                Some(path) => std::fs::read(path).ok(),
                None => decided.judge.clone(),
            };
            behave(
                plan,
                confiner,
                &decided,
                observe_exe.as_deref(),
                judge_exe.as_deref(),
                &mut found,
            )
        };
        (surface.join(), behaved)
    });
    behaved?;
    let surface_items = match surface {
        Ok(Some((outcome, items))) => {
            for case in &plan.surface {
                found.insert(case.name(), outcome.clone());
            }
            items
        }
        Ok(None) => None,
        // A panic of the surface's reading is the engine's bug: every
        // surface case says so rather than the grade failing.
        Err(_) => {
            for case in &plan.surface {
                found.insert(
                    case.name(),
                    CaseOutcome::new(
                        Status::Stopped(
                            "the grader failed while reading the public items (a bug of the course, please report it)".to_owned(),
                        ),
                        String::new(),
                    ),
                );
            }
            None
        }
    };
    if let Some(miri) = &plan.miri {
        if crate::timings_wanted() {
            eprintln!("miri: {}", crate::miri::Miri::describe(miri));
        }
        miri_phase(
            plan, miri, &trusted, confiner, &recorded, &decided, &mut found,
        )?;
    }
    tick("behaved and miri");
    no_panic_phase(plan, &trusted, confiner, &recorded, &mut found)?;
    tick("no-panic");
    tick("surface");
    let outcomes = plan
        .manifest
        .cases
        .iter()
        .filter(|case| plan.asked_for(case))
        .map(|case| {
            let outcome = found.remove(&case.name()).unwrap_or_else(|| {
                CaseOutcome::new(
                    Status::NotRun("the grader has no runner for this case".to_owned()),
                    String::new(),
                )
            });
            (case.clone(), outcome)
        })
        .collect();
    Ok(Grade {
        manifest: plan.manifest.clone(),
        outcomes,
        crate_errors: None,
        surface: surface_items,
    })
}

/// What the recording phase leaves for the next ones.
struct Recorded {
    /// The learner's macro crates, recorded, when the exercise has any.
    macros: Option<LearnerMacros>,
    /// The digest of the installed recordings.
    digest: Option<String>,
    /// The observing program, built where the learner's macros ran.
    observe: Option<Vec<u8>>,
    /// The behaviour cases that compile against the crate.
    observable: Vec<Case>,
}

impl Recorded {
    /// The crate every later build compiles: with learner macros, the copy
    /// that replays their checked recordings; else the submission's crate.
    fn crate_dir(&self, plan: &Plan) -> PathBuf {
        self.macros
            .as_ref()
            .map_or(plan.request.crate_dir.clone(), |macros| {
                macros.replaying.clone()
            })
    }
}

/// The files every build of the crate may read: the crate, the course's
/// path dependencies, the workspace and the exercise's cases.
fn reads_of(plan: &Plan, project: &Project) -> Vec<PathBuf> {
    let mut reads = project.path_dependencies.clone();
    reads.push(project.root.clone());
    reads.push(plan.manifest.dir.clone());
    reads.sort();
    reads.dedup();
    reads
}

/// Record the learner's macros: when the exercise has macro crates, build
/// a copy of the crate whose macros record what they produce, confined,
/// with the cases and the observing program (which needs the macros). The
/// recordings come back as data and are installed, by digest, where no
/// learner process can write.
fn record_macros(
    plan: &Plan,
    trusted: &Trusted,
    confiner: &Confiner,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> Result<Recorded, Ended> {
    let work = &plan.request.work_dir;
    let prepared = match LearnerMacros::prepare(&plan.request.crate_dir, work) {
        Err(MacroError::Unreadable { file, why }) => {
            return Err(Ended::graded(refused(
                plan,
                format!("the grader could not read your macro crate: {file}: {why}"),
                "The grader finds your procedural macros' entry points in their source before it builds them. Write the macro crate as ordinary Rust.".to_owned(),
            )));
        }
        other => other?,
    };
    let Some(macros) = prepared else {
        return Ok(Recorded {
            macros: None,
            digest: None,
            observe: None,
            observable: plan.behaviour.clone(),
        });
    };
    let mut observable = plan.behaviour.clone();
    loop {
        let project = write_project(
            &ProjectSpec {
                manifest: &plan.manifest,
                crate_dir: &macros.recording,
                compile_fail: plan.compile_fail.iter().collect(),
                batched: Vec::new(),
                behaviour: observable.iter().collect(),
                observe: true,
                judge: false,
                lockfile: Some(&trusted.lockfile),
                reference: None,
            },
            &work.join("recording-build"),
        )?;
        let target = plan.target(
            "recording-target",
            trusted.caches.as_ref().map(|caches| caches.build.as_path()),
            &work.join("recording-target"),
        );
        let target_path = target.path().to_path_buf();
        let observe_path = project.observe_executable(&target_path);
        let job = Job {
            what: "the build that records your macros".into(),
            trust: Trust::Learner,
            reads: reads_of(plan, &project),
            writes: vec![
                target,
                Writable::Fresh {
                    path: macros.recordings.clone(),
                    seed: None,
                    bytes: 64 << 20,
                },
            ],
            steps: vec![cargo_step(
                confiner,
                "build",
                &project.root,
                &target_path,
                &[
                    "build",
                    "--keep-going",
                    "--message-format=json",
                    "--bins",
                    "--package",
                    &project.cases_package,
                ],
                plan.request.limits.build_time,
            )],
            concurrent: false,
            collect: vec![
                Collect::Suffix(macros.recordings.clone(), ".rec"),
                Collect::Suffix(target_path.join("debug/deps"), ".d"),
            ]
            .into_iter()
            .chain(observe_path.clone().map(Collect::File))
            .collect(),
            tmp_bytes: plan.request.limits.build_tmp_bytes,
            bounds: plan.build_bounds(1),
        };
        // Every macro call must run in this build, to be recorded: where
        // its folder is kept (the learner's tool), cargo would compile
        // nothing again for a crate that did not change, and the build
        // would record nothing. A crate root newer than the last build
        // makes cargo compile the crate and every program that uses it.
        let root = macros.recording.join("src/lib.rs");
        if let Ok(file) = std::fs::File::options().append(true).open(&root) {
            let _ = file.set_modified(std::time::SystemTime::now());
        }
        let output = confiner.run(&job)?;
        // The learner's macros ran in this build and could garble what it
        // reports: its messages only show the learner's errors and which
        // cases compile. Whether the crate compiles is for the deciding
        // build to say.
        let mut run = BuildRun::from_step(&output.step("build"));
        if let Some(why) = output.stopped_because() {
            run.stopped = Some(why);
        }
        let errors: Vec<String> = run
            .errors_under(&macros.recording)
            .filter_map(|diagnostic| diagnostic.rendered.clone())
            .map(|text| plan.show(&text))
            .collect();
        if !errors.is_empty() || run.stopped_because().is_some() {
            return Err(Ended::graded(not_compiling(plan, &run, errors)));
        }
        if run.built(&macros.recording.join("src/lib.rs"))
            && drop_uncompiled(plan, &run, &project, &mut observable, found)
        {
            continue;
        }
        let digest = match macros.install_recordings(output.files_under(&macros.recordings)) {
            Err(MacroError::Refused(items)) => {
                return Err(Ended::graded(refused(
                    plan,
                    format!(
                        "your procedural macros wrote code that would run without a case calling it: {}",
                        items.join(", ")
                    ),
                    "What a derive or attribute macro returns is compiled into the cases' programs. The grader runs your code only through the exercise's API: a macro may not write placement or linkage attributes, the compiler's own attributes, extern blocks or assembly.".to_owned(),
                )));
            }
            other => other?,
        };
        // The observing program is the deciding build's, made from the
        // checked recordings: the one this build linked ran the learner's
        // macros live.
        let _ = observe_path;
        return Ok(Recorded {
            macros: Some(macros),
            digest: Some(digest),
            observe: None,
            observable,
        });
    }
}

/// What the deciding build leaves for the next phases.
struct Decided {
    run: BuildRun,
    project: Project,
    /// The observing program, when this build made it (no learner macros).
    observe: Option<Vec<u8>>,
    /// The judge, when this build made it (the learner's tool).
    judge: Option<Vec<u8>>,
    /// rustdoc's JSON of the crate, or why there is none.
    doc_json: Result<Vec<u8>, (String, String)>,
    /// The behaviour cases that compile against the crate.
    observable: Vec<Case>,
}

/// The build that decides: the crate under test (its macros replayed, so
/// that no learner code runs), its compile-fail cases, the observing
/// program unless the recording build made it, the expansion and rustdoc's
/// JSON of the crate. A crate that reads a file outside what it may read,
/// or holds a way to run code no case called, is refused here.
fn build(
    plan: &Plan,
    trusted: &Trusted,
    confiner: &Confiner,
    recorded: &Recorded,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> Result<Decided, Ended> {
    let work = &plan.request.work_dir;
    let crate_dir = recorded.crate_dir(plan);
    let (mut observable, folder) = observed_by(plan, &recorded.observable);
    loop {
        // The observing program is always this build's: with learner
        // macros, it is made from their checked recordings, replayed.
        let observe_here = true;
        let started_loop = std::time::Instant::now();
        let judge_here = trusted.judge.is_none() && !observable.is_empty();
        // The learner's tool checks the compile-fail cases that passed
        // last time in one compiler run (see `compile_fail_batch`).
        let batched = if plan.request.freshness == Freshness::Kept && recorded.macros.is_none() {
            crate::compile_fail_batch::members(&plan.compile_fail, work)
        } else {
            Vec::new()
        };
        let project = write_project(
            &ProjectSpec {
                manifest: &plan.manifest,
                crate_dir: &crate_dir,
                compile_fail: plan.compile_fail.iter().collect(),
                batched: batched.clone(),
                behaviour: observable.iter().collect(),
                observe: observe_here,
                judge: judge_here,
                lockfile: Some(&trusted.lockfile),
                reference: judge_here.then(|| plan.solution()).flatten().as_deref(),
            },
            &work.join(folder),
        )?;
        if let (Some(macros), Some(digest)) = (&recorded.macros, &recorded.digest) {
            macros.check_recordings(digest)?;
        }
        let caches = trusted.caches.as_ref();
        let target = plan.target(
            "target",
            caches.map(|caches| caches.build.as_path()),
            &plan.request.target_dir.join("kept-build"),
        );
        let doc_target = plan.target(
            "doc-target",
            caches.map(|caches| caches.doc.as_path()),
            &work.join("doc-target"),
        );
        let target_path = target.path().to_path_buf();
        let doc_path = doc_target.path().to_path_buf();
        let time = plan.request.limits.build_time;
        let mut packages = vec!["--package", project.cases_package.as_str()];
        if judge_here {
            packages.extend(["--package", project.judge_package.as_str()]);
        }
        let mut build_args = vec!["build", "--keep-going", "--message-format=json"];
        build_args.extend(packages);
        let crate_package = project.crate_package.as_str();
        // The checks that only protect other students (a crate that reads
        // outside the exercise, code that runs without a case) are the
        // grader's: the learner's own tool keeps its re-grade fast.
        let guarded = plan.request.freshness == Freshness::PerGrade;
        // The learner's tool builds only the programs it runs (not the
        // cases package's empty program, which every edit of the crate
        // would link again for nothing), and checks the compile-fail
        // programs beside them, when their cases allow it (see
        // `compile_fail_check`).
        let may_check = |case: &Case| {
            !guarded
                && plan
                    .expectations
                    .get(&case.name())
                    .is_some_and(crate::compile_fail_check::may_be_checked)
        };
        let mut wanted = if guarded {
            Vec::new()
        } else {
            project.programs_run()
        };
        let mut check_programs: Vec<String> = Vec::new();
        let mut check_sources: Vec<PathBuf> = Vec::new();
        if !guarded {
            for (program, case) in &project.compile_fail {
                if may_check(case) {
                    check_programs.push(program.clone());
                    check_sources.push(plan.manifest.case_path(case));
                } else {
                    wanted.push(program.clone());
                }
            }
        }
        let batch_checked = project
            .batch
            .as_ref()
            .is_some_and(|batch| batch.cases.iter().all(may_check));
        if let (Some(batch), Some(program)) = (&project.batch, project.batch_program()) {
            if batch_checked {
                check_programs.push(program);
                check_sources.push(batch.source.clone());
            } else if !guarded {
                wanted.push(program);
            }
        }
        if guarded {
            build_args.push("--bins");
        } else if wanted.is_empty() {
            // Nothing to run: the crate alone, for its errors.
            build_args = vec![
                "build",
                "--keep-going",
                "--message-format=json",
                "--package",
                crate_package,
                "--lib",
            ];
        }
        for program in &wanted {
            build_args.extend(["--bin", program.as_str()]);
        }
        let check_target = Writable::Kept(plan.request.target_dir.join("kept-check"));
        let check_path = check_target.path().to_path_buf();
        let mut steps = vec![cargo_step(
            confiner,
            "build",
            &project.root,
            &target_path,
            &build_args,
            time,
        )];
        if !check_programs.is_empty() {
            let mut args = vec![
                "check",
                "--keep-going",
                "--message-format=json",
                "--package",
                project.cases_package.as_str(),
            ];
            for program in &check_programs {
                args.extend(["--bin", program.as_str()]);
            }
            steps.push(cargo_step(
                confiner,
                "check",
                &project.root,
                &check_path,
                &args,
                time,
            ));
        }
        if guarded {
            steps.push(bootstrapped(cargo_step(
                confiner,
                "expand",
                &project.root,
                &doc_path,
                &[
                    "rustc",
                    "--lib",
                    "--package",
                    crate_package,
                    "--",
                    "-Zunpretty=expanded",
                ],
                time,
            )));
            // The same expansion as rustdoc's and Miri's view of the
            // crate (see `cfg_view`).
            for view in crate::cfg_view::VIEWS {
                let mut args = vec![
                    "rustc",
                    "--lib",
                    "--package",
                    crate_package,
                    "--",
                    "-Zunpretty=expanded",
                ];
                args.extend(view.flags);
                steps.push(bootstrapped(cargo_step(
                    confiner,
                    view.step,
                    &project.root,
                    &doc_path,
                    &args,
                    time,
                )));
            }
        }
        // The learner's tool reuses the last rustdoc JSON when no item of
        // the crate can have changed (see `doc_cache`).
        let doc_key = (!guarded && !plan.surface.is_empty())
            .then(|| {
                let mut context = plan.toolchain.version.clone().into_bytes();
                context.extend(std::fs::read(project.root.join("Cargo.toml")).unwrap_or_default());
                context.extend(std::fs::read(project.root.join("Cargo.lock")).unwrap_or_default());
                crate::doc_cache::items_key(&crate_dir, &context)
            })
            .flatten();
        let kept_doc = doc_key
            .as_deref()
            .and_then(|key| crate::doc_cache::load(work, key));
        if !plan.surface.is_empty() && kept_doc.is_none() {
            steps.push(bootstrapped(cargo_step(
                confiner,
                "doc",
                &project.root,
                &doc_path,
                &[
                    "rustdoc",
                    "--lib",
                    "--package",
                    crate_package,
                    "--",
                    "-Zunstable-options",
                    "--output-format",
                    "json",
                    "--document-private-items",
                    "--document-hidden-items",
                ],
                time,
            )));
        }
        let doc_file = doc_path
            .join("doc")
            .join(format!("{}.json", crate_package.replace('-', "_")));
        let mut collect = vec![
            Collect::Suffix(target_path.join("debug/deps"), ".d"),
            Collect::Suffix(doc_path.join("debug/deps"), ".d"),
            Collect::File(doc_file.clone()),
        ];
        let observe_path = project.observe_executable(&target_path);
        let judge_path = project.judge_executable(&target_path);
        collect.extend(observe_path.clone().map(Collect::File));
        collect.extend(judge_path.clone().map(Collect::File));
        let step_count = u32::try_from(steps.len()).unwrap_or(3);
        let mut writes = vec![target, doc_target];
        if !check_programs.is_empty() {
            writes.push(check_target.clone());
        }
        let job = Job {
            what: "the build that decides".into(),
            trust: Trust::Learner,
            reads: reads_of(plan, &project),
            writes,
            steps,
            // The build and the documentation use different target
            // folders: they run at once.
            concurrent: true,
            collect,
            tmp_bytes: plan.request.limits.build_tmp_bytes,
            bounds: plan.build_bounds(step_count),
        };
        crate::timing("  the build's project", started_loop);
        let started = std::time::Instant::now();
        let mut output = confiner.run(&job)?;
        crate::timing("  the build's job", started);
        if guarded {
            expand_again(plan, confiner, &job, &mut output)?;
        }
        if crate::timings_wanted() {
            for (name, step) in &output.steps {
                eprintln!("  step {name}: {:?}", step.took);
            }
        }
        let mut run = job_build(&output, "build");
        if !check_programs.is_empty() {
            run =
                crate::compile_fail_check::merge(run, job_build(&output, "check"), &check_sources);
        }
        let errors: Vec<String> = run
            .errors_under(&crate_dir)
            .filter_map(|diagnostic| diagnostic.rendered.clone())
            .map(|text| plan.show(&text))
            .collect();
        // Every case needs the crate built: not when it has errors, when
        // cargo refuses it (a missing `src/lib.rs`), or when a limit stopped
        // its build (a compiler that hangs on it).
        if !errors.is_empty() || !run.built(&crate_dir.join("src/lib.rs")) {
            return Err(Ended::graded(not_compiling(plan, &run, errors)));
        }
        if observe_here && drop_uncompiled(plan, &run, &project, &mut observable, found) {
            continue;
        }
        if guarded {
            refuse_reads(plan, &job, &output, &project, confiner, &crate_dir)?;
            refuse_before_main(plan, &output)?;
            refuse_other_views(plan, &output)?;
        }
        crate::timing("  the build read", started);
        let (project, run) = settle_batch(
            plan,
            confiner,
            project,
            run,
            if batch_checked {
                ("check", &check_target)
            } else {
                ("build", &job.writes[0])
            },
            &trusted.lockfile,
            found,
        )?;
        let doc_json = match (kept_doc, output.files.get(&doc_file)) {
            (Some(json), _) => Ok(json),
            (None, Some(json)) => {
                if let Some(key) = &doc_key {
                    crate::doc_cache::store(work, key, json);
                }
                Ok(json.clone())
            }
            (None, None) => {
                let doc = output.step("doc");
                Err((
                    doc.stopped_because()
                        .unwrap_or_else(|| "rustdoc did not write it".to_owned()),
                    plan.show(&tail(&doc.stderr, 20)),
                ))
            }
        };
        return Ok(Decided {
            observe: observe_path.and_then(|path| output.files.get(&path).cloned()),
            judge: judge_path.and_then(|path| output.files.get(&path).cloned()),
            run,
            project,
            doc_json,
            observable,
        });
    }
}

/// Takes the outcome of each batched compile-fail case that passed in the
/// batch, and builds the others alone (see `compile_fail_batch`). The
/// project returned lists every case built alone (in either build), and
/// the run holds both builds' messages.
fn settle_batch(
    plan: &Plan,
    confiner: &Confiner,
    project: Project,
    mut run: BuildRun,
    (subcommand, target): (&str, &Writable),
    lockfile: &Path,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> Result<(Project, BuildRun), Ended> {
    let Some(batch) = &project.batch else {
        return Ok((project, run));
    };
    let started = std::time::Instant::now();
    let decided = crate::compile_fail_batch::decide(
        batch,
        &run,
        &plan.manifest,
        &plan.expectations,
        &project.root,
    );
    let passed: Vec<Case> = batch
        .cases
        .iter()
        .filter(|case| decided.passed.contains_key(&case.name()))
        .cloned()
        .collect();
    found.extend(decided.passed);
    if !decided.wholesale {
        crate::compile_fail_batch::set_aside(&plan.request.work_dir, &decided.alone);
    }
    if decided.alone.is_empty() {
        crate::timing("  the batch decided every case", started);
        return Ok((project, run));
    }
    // Batches are made only for crates without learner macros, whose
    // crate is the request's own.
    let alone = write_project(
        &ProjectSpec {
            manifest: &plan.manifest,
            crate_dir: &plan.request.crate_dir,
            compile_fail: plan.compile_fail.iter().collect(),
            batched: passed.iter().collect(),
            behaviour: project.behaviour.iter().collect(),
            observe: project.observe_source.is_some(),
            judge: project.judge_source.is_some(),
            lockfile: Some(lockfile),
            reference: project
                .judge_source
                .is_some()
                .then(|| plan.solution())
                .flatten()
                .as_deref(),
        },
        &project.root,
    )?;
    let mut args = vec![subcommand, "--keep-going", "--message-format=json"];
    let targets: Vec<String> = decided
        .alone
        .iter()
        .map(|case| format!("--bin={}", crate::project::case_target(case)))
        .collect();
    args.extend(targets.iter().map(String::as_str));
    args.extend(["--package", alone.cases_package.as_str()]);
    let step = cargo_step(
        confiner,
        "build",
        &alone.root,
        target.path(),
        &args,
        plan.request.limits.build_time,
    );
    let job = Job {
        what: "the compile-fail cases the batch did not decide, each alone".into(),
        trust: Trust::Learner,
        reads: reads_of(plan, &alone),
        writes: vec![target.clone()],
        steps: vec![step],
        concurrent: false,
        collect: Vec::new(),
        tmp_bytes: plan.request.limits.build_tmp_bytes,
        bounds: plan.build_bounds(1),
    };
    let output = confiner.run(&job)?;
    let again = job_build(&output, "build");
    crate::timing("  the cases the batch did not decide", started);
    run.messages.extend(again.messages);
    run.stopped = run.stopped.or(again.stopped);
    run.stderr.push_str(&again.stderr);
    Ok((alone, run))
}

/// A job's build step, read as a build, with the job's own stop when a
/// limit ended the job as a whole.
fn job_build(output: &JobOutput, step: &str) -> BuildRun {
    let mut run = BuildRun::from_step(&output.step(step));
    if let Some(why) = output.stopped_because() {
        run.stopped = Some(why);
    }
    if let Some(why) = &output.unreadable {
        run.stopped.get_or_insert_with(|| why.clone());
    }
    run
}

/// Fails the exercise when the compiler read a file outside what the
/// deciding build may read, naming each file.
fn refuse_reads(
    plan: &Plan,
    job: &Job,
    output: &JobOutput,
    project: &Project,
    confiner: &Confiner,
    crate_dir: &Path,
) -> Result<(), Ended> {
    let mut allowed: Vec<PathBuf> = job.reads.clone();
    allowed.extend(
        job.writes
            .iter()
            .map(|writable| writable.path().to_path_buf()),
    );
    allowed.extend(confiner.readable_roots());
    let dep_infos: Vec<&[u8]> = output
        .files
        .iter()
        .filter(|(path, _)| path.extension().is_some_and(|extension| extension == "d"))
        .map(|(_, content)| content.as_slice())
        .collect();
    let mut outside = depinfo::outside(
        dep_infos.iter().copied(),
        &project.root,
        &allowed,
        &[crate_dir.to_path_buf()],
    );
    let own: Vec<PathBuf> = plan
        .manifest
        .learner_files
        .iter()
        .map(|folder| crate_dir.join(folder))
        .collect();
    outside.extend(depinfo::beyond_own(
        dep_infos.iter().copied(),
        &project.root,
        &own,
    ));
    outside.sort();
    outside.dedup();
    if outside.is_empty() {
        return Ok(());
    }
    let files: Vec<String> = outside
        .iter()
        .map(|path| plan.show(&path.display().to_string()))
        .collect();
    Err(Ended::graded(refused(
        plan,
        format!(
            "your crate reads files outside the exercise: {}",
            files.join(", ")
        ),
        format!(
            "The compiler read these files while compiling your crate, through `#[path]`, `include!`, `include_str!` or `include_bytes!`:\n{}\n\nAn exercise is graded on its own files alone.",
            files
                .iter()
                .map(|file| format!("  {file}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    )))
}

/// Fails the exercise when its expansion holds a way to run code that no
/// case called (see `before_main`), naming each item.
fn refuse_before_main(plan: &Plan, output: &JobOutput) -> Result<(), Ended> {
    let expand = output.step("expand");
    let found = if expand.succeeded() {
        before_main::refused(&String::from_utf8_lossy(&expand.stdout))
    } else {
        Err(format!(
            "the crate's expansion could not be made{}",
            expand
                .stopped_because()
                .map(|why| format!(" ({why})"))
                .unwrap_or_default()
        ))
    };
    match found {
        Ok(items) if items.is_empty() => Ok(()),
        Ok(items) => Err(Ended::graded(refused(
            plan,
            format!(
                "your crate holds code that would run without a case calling it: {}",
                items.join(", ")
            ),
            format!(
                "These items run code before `main`, replace a symbol of the program or leave the compiler's checks:\n{}\n\nThe grader runs your code only through the exercise's API: remove them.",
                items
                    .iter()
                    .map(|item| format!("  {item}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        ))),
        Err(why) => Err(Ended::graded(refused(
            plan,
            format!("the grader could not check your crate: {why}"),
            plan.show(&tail(&expand.stderr, 20)),
        ))),
    }
}

/// Fails the exercise when rustdoc or Miri sees another crate than the
/// compiler builds (see `cfg_view`).
fn refuse_other_views(plan: &Plan, output: &JobOutput) -> Result<(), Ended> {
    let plain = output.step("expand");
    for view in crate::cfg_view::VIEWS {
        let other = output.step(view.step);
        if !plain.succeeded() || !other.succeeded() {
            let failed = if other.succeeded() { &plain } else { &other };
            return Err(Ended::graded(refused(
                plan,
                format!(
                    "the grader could not check your crate: its expansion with `{}` could not be made{}",
                    view.setting,
                    failed
                        .stopped_because()
                        .map(|why| format!(" ({why})"))
                        .unwrap_or_default()
                ),
                plan.show(&tail(&failed.stderr, 20)),
            )));
        }
        if let Some(why) = crate::cfg_view::differs(
            &String::from_utf8_lossy(&plain.stdout),
            &String::from_utf8_lossy(&other.stdout),
            &view,
        ) {
            let setting = view.setting;
            return Err(Ended::graded(refused(
                plan,
                format!("your crate is another crate with `{setting}`: {why}"),
                format!(
                    "The public surface is graded from rustdoc's view of your crate (compiled with `cfg(doc)` and debug assertions on), the cases marked `miri` from Miri's (with `cfg(miri)`), and every other case from a build with debug assertions off, as release builds have. An item only one of them has would be used yet never graded, or graded yet never used; code under `#[cfg(not(miri))]` would never be checked for undefined behaviour. Remove `{setting}` from your crate's items (in `#[cfg(..)]` and `#[cfg_attr(..)]`, and for `doc` and `miri` also `cfg!(..)`), including from what its macros write; for rustdoc's view, `cfg(debug_assertions)` counts too, on what outside code can name (a public item, a type, an impl). (A `debug_assert!` inside a body, or a private function kept for debug builds, is fine.)"
                ),
            )));
        }
    }
    Ok(())
}

/// Decide the compile-fail cases from the deciding build's diagnostics.
fn decide_compile_fail(plan: &Plan, decided: &Decided, found: &mut BTreeMap<String, CaseOutcome>) {
    let run = &decided.run;
    let show = |text: &str| plan.show(text);
    for case in decided.project.compile_fail.values() {
        let case_file = plan.manifest.case_path(case);
        let diagnostics: Vec<_> = run.diagnostics(&case_file).collect();
        let compiled = run.built(&case_file);
        let outcome = if !compiled && diagnostics.iter().all(|d| !is_error(d)) {
            match run.stopped_because() {
                Some(why) => CaseOutcome::new(
                    Status::Stopped(format!("the build was {why}")),
                    tail(&run.stderr, 20),
                ),
                None => CaseOutcome::new(
                    Status::NotRun("the build stopped before this case".to_owned()),
                    show(&tail(&run.stderr, 20)),
                ),
            }
        } else {
            verdict(
                &plan.expectations[&case.name()],
                &diagnostics,
                compiled,
                &case_file,
                &decided.project.root,
                &show,
            )
        };
        found.insert(case.name(), outcome);
    }
}

/// Observe, then judge: every behaviour case that compiles against the
/// crate runs confined, and the judge (confined too) decides.
fn behave(
    plan: &Plan,
    confiner: &Confiner,
    decided: &Decided,
    observe: Option<&[u8]>,
    judge: Option<&[u8]>,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> Result<(), Ended> {
    let (Some(observe), Some(judge)) = (observe, judge) else {
        let run = &decided.run;
        let (status, details) = match run.stopped_because() {
            Some(why) => (
                Status::Stopped(format!("the build was {why}")),
                tail(&run.stderr, 20),
            ),
            None if observe.is_none() => (
                Status::NotRun("the behaviour cases could not be built".to_owned()),
                plan.show(&tail(&run.stderr, 20)),
            ),
            None => (
                Status::Stopped(
                    "the judge did not build (a problem of the course, not of your code)"
                        .to_owned(),
                ),
                tail(&run.stderr, 20),
            ),
        };
        for case in &decided.observable {
            found.insert(
                case.name(),
                CaseOutcome::new(status.clone(), details.clone()),
            );
        }
        return Ok(());
    };
    let observe: Installed = confiner.install(observe)?;
    let judge: Installed = confiner.install(judge)?;
    let show = |text: &str| plan.show(text);
    let times = plan.request.work_dir.join("case-times.json");
    let run = BehaviourRun {
        observe: &observe,
        judge: &judge,
        confiner,
        seed: plan.request.seed.unwrap_or_else(random_seed),
        bounds: plan.request.limits.case(),
        tmp_bytes: plan.request.limits.run_tmp_bytes,
        workers: std::thread::available_parallelism().map_or(1, usize::from),
        times: Some(&times),
        show: &show,
    };
    let runs: Vec<Case> = decided
        .observable
        .iter()
        .filter(|case| plan.runs(case))
        .cloned()
        .collect();
    let observations = observe_all(&run, &runs);
    for (case, outcome) in judge_all(&run, observations) {
        found.insert(case.name(), outcome);
    }
    Ok(())
}

/// Miri: every behaviour case marked `miri` that passed runs again,
/// interpreted by Miri, in a confined job; a run that does not end cleanly
/// fails the case with Miri's words (see `miri`).
fn miri_phase(
    plan: &Plan,
    miri: &Result<crate::miri::Miri, String>,
    trusted: &Trusted,
    confiner: &Confiner,
    recorded: &Recorded,
    decided: &Decided,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> Result<(), Ended> {
    let cases: Vec<Case> = decided
        .observable
        .iter()
        .filter(|case| case.miri)
        .filter(|case| {
            found
                .get(&case.name())
                .is_some_and(|outcome| outcome.status.is_pass())
        })
        .cloned()
        .collect();
    if cases.is_empty() {
        return Ok(());
    }
    let miri = match miri {
        Ok(miri) => miri,
        Err(_) => return Ok(()),
    };
    let work = &plan.request.work_dir;
    let crate_dir = recorded.crate_dir(plan);
    let project = write_project(
        &ProjectSpec {
            manifest: &plan.manifest,
            crate_dir: &crate_dir,
            compile_fail: Vec::new(),
            batched: Vec::new(),
            behaviour: cases.iter().collect(),
            observe: true,
            judge: false,
            lockfile: Some(&trusted.lockfile),
            reference: None,
        },
        &work.join("miri-build"),
    )?;
    let confiner = confiner.with_toolchain(&miri.toolchain, &work.join("scratch"));
    let target = plan.target(
        "miri-target",
        trusted
            .caches
            .as_ref()
            .and_then(|caches| caches.miri.as_deref()),
        &work.join("miri-target"),
    );
    let target_path = target.path().to_path_buf();
    let seed = plan.request.seed.unwrap_or_else(random_seed);
    let observe = format!("observe-{}", project_tag(&project));
    let mut steps = Vec::new();
    let names: Vec<String> = (0..cases.len())
        .map(|index| format!("miri{index}"))
        .collect();
    for (case, name) in cases.iter().zip(&names) {
        let request = xsafe_case::protocol::ObserveRequest {
            case: case.name(),
            seed: crate::behaviour::case_seed(seed, &case.name()),
        };
        // Each case's request, as the ordinary run got it, is the
        // program's argument (Miri's isolation refuses standard input).
        let request = serde_json::to_string(&request).unwrap_or_default();
        let mut step = cargo_step(
            &confiner,
            name,
            &project.root,
            &target_path,
            &[
                "miri",
                "run",
                "--bin",
                observe.as_str(),
                "--package",
                project.cases_package.as_str(),
                "--",
                request.as_str(),
            ],
            plan.request
                .limits
                .build_time
                .min(plan.request.limits.miri_case_time + plan.request.limits.build_time / 4),
        );
        step.env
            .insert("MIRI_SYSROOT".into(), miri.sysroot.clone().into_os_string());
        step.env
            .insert("MIRIFLAGS".into(), crate::miri::MIRIFLAGS.into());
        steps.push(step);
    }
    let mut reads = reads_of(plan, &project);
    reads.push(miri.sysroot.clone());
    let step_count = u32::try_from(steps.len()).unwrap_or(1);
    let job = Job {
        what: "the cases under Miri".into(),
        trust: Trust::Learner,
        reads,
        writes: vec![target],
        steps,
        concurrent: false,
        collect: Vec::new(),
        tmp_bytes: plan.request.limits.build_tmp_bytes,
        bounds: plan.build_bounds(step_count),
    };
    let output = confiner.run(&job)?;
    for (case, name) in cases.iter().zip(&names) {
        let step = output.step(name);
        if step.succeeded() {
            continue;
        }
        let outcome = match step.stopped_because() {
            Some(why) => CaseOutcome::new(
                Status::Stopped(format!("under Miri, it was {why}")),
                plan.show(&tail(&step.stderr, 30)),
            ),
            None => CaseOutcome::new(
                Status::Failed(crate::miri::reason(&step.stderr)),
                plan.show(&tail(&step.stderr, 40)),
            ),
        };
        found.insert(case.name(), outcome);
    }
    Ok(())
}

/// The tag of a workspace's binaries (see `project`).
fn project_tag(project: &Project) -> String {
    project
        .observe_executable(Path::new(""))
        .and_then(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_prefix("observe-"))
                .map(str::to_owned)
        })
        .unwrap_or_default()
}

/// The public surface, from rustdoc's JSON of the deciding build: the
/// surface cases' outcome and the crate's items, when the exercise has
/// surface cases.
fn surface_phase(
    plan: &Plan,
    recorded: &Recorded,
    decided: &Decided,
) -> Option<(CaseOutcome, Option<BTreeSet<String>>)> {
    if plan.surface.is_empty() {
        return None;
    }
    // The learner's procedural macros: their names and, for a derive, the
    // helper attributes it accepts (a helper is a way in: `#[skip]`).
    let macros: Vec<String> = recorded
        .macros
        .iter()
        .flat_map(|macros| macros.entry_points.values().flatten())
        .map(|entry| entry.surface_line())
        .collect();
    let json = decided
        .doc_json
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone);
    let (outcome, items) = surface::check(&plan.manifest, json, macros);
    Some((outcome, items))
}

/// The behaviour cases the deciding build compiles into the observing
/// program, out of those that compile (`observable`), and the folder of
/// its workspace in the grade's folder. The grader builds them all, one
/// program per grade. The learner's tool builds only those this grade
/// runs: a quick grade leaves the long sweeps out of the program as it
/// leaves them out of the run, so that the rebuild after each edit
/// compiles less (a sixth less for ordered-tree's quick cases), and the
/// sweeps, run once the other cases pass, get a workspace of their own,
/// so that both stay warm. Which cases compile into the program changes
/// only what is built, not how a case that runs is built or judged.
fn observed_by(plan: &Plan, observable: &[Case]) -> (Vec<Case>, &'static str) {
    let [every, quick, sweeps, some] = WORKSPACES;
    if plan.request.freshness == Freshness::PerGrade {
        return (observable.to_vec(), every);
    }
    let runs: Vec<Case> = observable
        .iter()
        .filter(|case| plan.runs(case))
        .cloned()
        .collect();
    let folder = if runs.len() == observable.len() {
        every
    } else if runs.iter().all(|case| !case.sweep) {
        quick
    } else if runs.iter().all(|case| case.sweep) {
        sweeps
    } else {
        some
    };
    (runs, folder)
}

/// The folders of the deciding build's workspace in a grade's folder (see
/// `observed_by`): every behaviour case, the quick ones, the sweeps,
/// another choice.
const WORKSPACES: [&str; 4] = ["build", "build-quick", "build-sweeps", "build-some"];

/// Whether a grade in the folder `work_dir` has made a deciding build's
/// workspace there before (the next build of it is warm).
pub fn built_before(work_dir: &Path) -> bool {
    WORKSPACES
        .iter()
        .any(|folder| work_dir.join(folder).is_dir())
}

/// When the observing program of `project` did not compile: takes the
/// behaviour cases whose files hold the errors out of `observable` (each
/// not run, with its errors) and returns `true`, so the caller builds
/// again without them. Returns `false` when there is nothing to retry:
/// the program compiled, or no case is left, or the errors are not in any
/// one case's file (then every remaining case is not run).
fn drop_uncompiled(
    plan: &Plan,
    run: &BuildRun,
    project: &Project,
    observable: &mut Vec<Case>,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> bool {
    let Some(source) = &project.observe_source else {
        return false;
    };
    if observable.is_empty() || run.built(source) || run.stopped_because().is_some() {
        return false;
    }
    let manifest = &plan.manifest;
    let errors: Vec<_> = run.diagnostics(source).filter(|d| is_error(d)).collect();
    let mut broken: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut unplaced = Vec::new();
    for error in &errors {
        let rendered = error
            .rendered
            .as_deref()
            .map(|text| plan.show(text))
            .unwrap_or_default();
        let owner = observable.iter().find(|case| {
            ReportedError::read(error, &manifest.case_path(case), &project.root)
                .line
                .is_some()
        });
        match owner {
            Some(case) => broken.entry(case.name()).or_default().push(rendered),
            None => unplaced.push(rendered),
        }
    }
    if broken.is_empty() || !unplaced.is_empty() {
        let details = if errors.is_empty() {
            plan.show(&tail(&run.stderr, 20))
        } else {
            errors
                .iter()
                .filter_map(|error| error.rendered.as_deref())
                .map(|text| plan.show(text))
                .collect::<Vec<_>>()
                .join("\n")
        };
        for case in observable.drain(..) {
            found.insert(
                case.name(),
                CaseOutcome::new(
                    Status::NotRun(
                        "the behaviour cases do not compile against your crate (see the details)"
                            .to_owned(),
                    ),
                    details.clone(),
                ),
            );
        }
        return false;
    }
    observable.retain(|case| {
        let Some(errors) = broken.remove(&case.name()) else {
            return true;
        };
        found.insert(
            case.name(),
            CaseOutcome::new(
                Status::NotRun("this case does not compile against your crate: does a signature differ from the starter's? (see the details)".to_owned()),
                errors.join("\n"),
            ),
        );
        false
    });
    true
}

/// Runs again, alone and one after another, the expansion steps of the
/// deciding build that failed without a limit stopping them while the
/// crate itself built: an expansion of a crate that compiles does not
/// fail, so such a failure is the machine's (seen once, under a load of
/// five, with six steps at once), and no verdict may rest on it. What the
/// second run gives is what the checks read.
fn expand_again(
    plan: &Plan,
    confiner: &Confiner,
    job: &Job,
    output: &mut JobOutput,
) -> Result<(), Ended> {
    if !output.step("build").succeeded() {
        return Ok(());
    }
    let failed: Vec<crate::confine::Step> = job
        .steps
        .iter()
        .filter(|step| step.name.starts_with("expand"))
        .filter(|step| {
            let ran = output.step(&step.name);
            !ran.succeeded() && ran.stopped_because().is_none()
        })
        .cloned()
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    let step_count = u32::try_from(failed.len()).unwrap_or(1);
    let again = Job {
        what: format!("{} (its expansions, again)", job.what),
        steps: failed,
        concurrent: false,
        collect: Vec::new(),
        bounds: plan.build_bounds(step_count),
        ..job.clone()
    };
    let rerun = confiner.run(&again)?;
    for step in &again.steps {
        output
            .steps
            .insert(step.name.clone(), rerun.step(&step.name));
    }
    Ok(())
}

/// The grade of a crate that does not compile: every case not run.
fn not_compiling(plan: &Plan, run: &BuildRun, errors: Vec<String>) -> Grade {
    let (status, details) = match run.stopped_because() {
        Some(why) if errors.is_empty() => (
            Status::Stopped(format!("building your crate was {why}")),
            plan.show(&tail(&run.stderr, 20)),
        ),
        _ if errors.is_empty() => (
            Status::NotRun("your crate does not build (see the details)".to_owned()),
            plan.show(&tail(&run.stderr, 20)),
        ),
        _ => (
            Status::NotRun("your crate does not compile (see its errors)".to_owned()),
            errors.join("\n"),
        ),
    };
    every_case(plan, &status, details)
}

/// The grade of a crate refused before any of its code ran: every case
/// failed, with the reason.
fn refused(plan: &Plan, reason: String, details: String) -> Grade {
    every_case(plan, &Status::Failed(reason), details)
}

fn every_case(plan: &Plan, status: &Status, details: String) -> Grade {
    let outcomes = plan
        .manifest
        .cases
        .iter()
        .filter(|case| plan.asked_for(case))
        .map(|case| {
            (
                case.clone(),
                CaseOutcome::new(status.clone(), String::new()),
            )
        })
        .collect();
    Grade {
        manifest: plan.manifest.clone(),
        outcomes,
        crate_errors: Some(details),
        surface: None,
    }
}

/// `text` with each path prefix replaced as `show_paths` says.
fn show_paths(text: &str, show_paths: &[(PathBuf, String)]) -> String {
    let mut text = text.to_owned();
    for (path, shown) in show_paths {
        let path = path.to_string_lossy();
        if !path.is_empty() {
            text = text.replace(path.as_ref(), shown);
        }
    }
    text
}

/// The `no-panic` cases (see `no_panic`): the probes and the crate built in
/// release mode, with their assembly, in a confined job; the verdict is
/// read from that assembly here. Run only when the request is `full`:
/// otherwise each case is not run, with why.
fn no_panic_phase(
    plan: &Plan,
    trusted: &Trusted,
    confiner: &Confiner,
    recorded: &Recorded,
    found: &mut BTreeMap<String, CaseOutcome>,
) -> Result<(), Ended> {
    if plan.no_panic.is_empty() {
        return Ok(());
    }
    if !plan.request.full {
        for case in &plan.no_panic {
            found.insert(
                case.name(),
                CaseOutcome::new(
                    Status::NotRun(
                        "a quick grade does not build your crate in release mode: `cargo xsafe check --full` and the instructor's grader run this case".to_owned(),
                    ),
                    String::new(),
                ),
            );
        }
        return Ok(());
    }
    let work = &plan.request.work_dir;
    let crate_dir = recorded.crate_dir(plan);
    let project = write_project(
        &ProjectSpec {
            manifest: &plan.manifest,
            crate_dir: &crate_dir,
            compile_fail: Vec::new(),
            batched: Vec::new(),
            behaviour: Vec::new(),
            observe: false,
            judge: false,
            lockfile: Some(&trusted.lockfile),
            reference: None,
        },
        &work.join("no-panic-build"),
    )?;
    let probes: Vec<&crate::project::Probe> = project
        .probes
        .iter()
        .filter(|probe| {
            plan.no_panic
                .iter()
                .any(|case| case.name() == probe.case.name())
        })
        .collect();
    // A fresh folder for every grade, the learner's tool's too: every
    // assembly file in it is this build's (the job collects only files
    // written during it, and a kept folder's fresh crates write none).
    let target = Writable::Fresh {
        path: work.join("jobs").join("no-panic-target"),
        seed: None,
        bytes: plan.request.limits.build_bytes,
    };
    let target_path = target.path().to_path_buf();
    let mut args = vec!["build", "--release", "--message-format=json", "--lib"];
    for probe in &probes {
        args.extend(["--package", probe.package.as_str()]);
    }
    let mut step = cargo_step(
        confiner,
        "build",
        &project.root,
        &target_path,
        &args,
        plan.request.limits.build_time,
    );
    step.env
        .insert("RUSTFLAGS".into(), crate::no_panic::RUSTFLAGS.into());
    // Never incremental, even in the learner's tool (whose other builds
    // are): incremental compilation partitions and inlines differently, and
    // the verdict is about the profile's one build.
    step.env.insert("CARGO_INCREMENTAL".into(), "0".into());
    let deps = target_path.join("release/deps");
    let job = Job {
        what: "the release build of the no-panic probes".into(),
        trust: Trust::Learner,
        reads: reads_of(plan, &project),
        writes: vec![target],
        steps: vec![step],
        concurrent: false,
        collect: vec![Collect::Suffix(deps.clone(), ".s")],
        tmp_bytes: plan.request.limits.build_tmp_bytes,
        bounds: plan.build_bounds(1),
    };
    let output = confiner.run(&job)?;
    let run = job_build(&output, "build");
    let assembly: Vec<&[u8]> = output
        .files
        .iter()
        .filter(|(path, _)| path.starts_with(&deps))
        .map(|(_, bytes)| bytes.as_slice())
        .collect();
    let program = crate::no_panic::Program::read(assembly);
    for probe in probes {
        let case_file = plan.manifest.case_path(&probe.case);
        let outcome = if !run.built(&case_file) {
            let errors: Vec<String> = run
                .diagnostics(&case_file)
                .chain(run.errors_under(&crate_dir))
                .filter(|d| is_error(d))
                .filter_map(|d| d.rendered.clone())
                .map(|text| plan.show(&text))
                .collect();
            match run.stopped_because() {
                Some(why) => CaseOutcome::new(
                    Status::Stopped(format!("its release build was {why}")),
                    plan.show(&tail(&run.stderr, 20)),
                ),
                None => CaseOutcome::new(
                    Status::NotRun("this case does not compile against your crate in release mode (see the details)".to_owned()),
                    if errors.is_empty() { plan.show(&tail(&run.stderr, 20)) } else { errors.join("\n") },
                ),
            }
        } else {
            let entries = program.entries(&probe.crate_name);
            let findings = program.findings(&probe.crate_name);
            if entries.is_empty() {
                CaseOutcome::new(
                    Status::Stopped("the probe's compiled functions were not found (a problem of the course, not of your code)".to_owned()),
                    String::new(),
                )
            } else if findings.is_empty() {
                CaseOutcome::passed()
            } else {
                let lines: Vec<String> = findings
                    .iter()
                    .map(crate::no_panic::Finding::line)
                    .collect();
                CaseOutcome::new(
                    Status::Failed(format!(
                        "in a release build, your code can still panic where the case's functions call it: {}",
                        lines.join("; ")
                    )),
                    format!(
                        "The case's functions each call one operation on indices already checked (see the case file). Compiled with opt-level 3, the code they reach still calls a panic path, so it checks something again (a bounds check, an `assert!`, an `unwrap`):\n{}\n\nA `debug_assert!` is fine: release builds leave it out.",
                        lines
                            .iter()
                            .map(|line| format!("  {line}"))
                            .collect::<Vec<_>>()
                            .join("\n")
                    ),
                )
            }
        };
        found.insert(probe.case.name(), outcome);
    }
    Ok(())
}
