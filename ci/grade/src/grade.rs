//! Grading one exercise: build its generated workspace, judge its
//! compile-fail cases from the compiler's diagnostics, run its behaviour
//! cases, read its public surface, and put every outcome in manifest order.

use crate::behaviour::{BehaviourRun, run_behaviour, tail};
use crate::build::{BuildRun, BuildSpec, build, fetch, is_error};
use crate::compile_fail::{ReportedError, verdict};
use crate::isolation::{Confinement, Isolation};
use crate::limits::{Ending, Limits};
use crate::macros::{LearnerMacros, MacroError};
use crate::outcome::{CaseOutcome, Grade, Status};
use crate::project::{Project, ProjectError, ProjectSpec, write_project};
use crate::surface;
use crate::toolchain::Toolchain;
use std::collections::BTreeMap;
use std::path::PathBuf;
use xsafe_course::{Case, Expect, Manifest, ManifestError};

/// What to grade, and where.
#[derive(Debug, Clone)]
pub struct GradeRequest {
    /// The crate under test: the course's files of the exercise (its
    /// `Cargo.toml`, `grading/`) with the learner's files in place.
    pub crate_dir: PathBuf,
    /// This grade's own folder, for the generated workspace and copies. A
    /// later grade of the same submission may reuse it (that keeps builds
    /// warm); two grades at once must not share it.
    pub work_dir: PathBuf,
    /// Cargo's target directory for the builds in which no learner code
    /// runs. Grades may share it.
    pub target_dir: PathBuf,
    /// A lockfile to resolve dependencies as the course does.
    pub lockfile: Option<PathBuf>,
    /// The limits of every build and run.
    pub limits: Limits,
    /// The seed from which every behaviour case draws its inputs; random
    /// when `None`.
    pub seed: Option<u64>,
    /// Grade only these cases (by name); every case when empty.
    pub only: Vec<String>,
    /// The rustup toolchain to grade with (such as `nightly`); the one that
    /// `rustc` resolves to from the crate when `None`.
    pub toolchain: Option<String>,
    /// Path prefixes to show differently in the details (such as the
    /// sandbox's folder shown as `exercises/NAME`), longest first.
    pub show_paths: Vec<(PathBuf, String)>,
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

/// The seed of a grade when none is asked for.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    xsafe_case::Rng::with_seed(nanos as u64 ^ u64::from(std::process::id())).u64(..)
}

/// Grades the crate of `request`.
///
/// A crate that does not compile is still graded: every case is then
/// [`Status::NotRun`], and [`Grade::crate_errors`] holds the compiler's
/// errors. Every build and run is bounded by the request's limits.
pub fn grade(request: &GradeRequest) -> Result<Grade, GradeError> {
    // Every path absolute: builds and runs happen in other folders.
    let absolute = |path: &PathBuf| -> Result<PathBuf, GradeError> {
        std::path::absolute(path).map_err(|source| GradeError::Io {
            path: path.clone(),
            source,
        })
    };
    let request = &GradeRequest {
        crate_dir: absolute(&request.crate_dir)?,
        work_dir: absolute(&request.work_dir)?,
        target_dir: absolute(&request.target_dir)?,
        lockfile: request.lockfile.as_ref().map(absolute).transpose()?,
        ..request.clone()
    };
    let manifest = Manifest::load(&request.crate_dir.join("grading"))?;
    for name in &request.only {
        if !manifest.cases.iter().any(|case| case.name() == *name) {
            return Err(GradeError::NoSuchCase(name.clone()));
        }
    }
    let wanted = |case: &&Case| request.only.is_empty() || request.only.contains(&case.name());
    let compile_fail: Vec<&Case> = manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::CompileFail)
        .filter(wanted)
        .collect();
    let behaviour: Vec<&Case> = manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::Pass)
        .filter(wanted)
        .collect();
    let surface_cases: Vec<&Case> = manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::Surface)
        .filter(wanted)
        .collect();
    let mut expectations = BTreeMap::new();
    for case in &compile_fail {
        expectations.insert(case.name(), case.expectations(&manifest)?);
    }
    std::fs::create_dir_all(&request.work_dir).map_err(|source| GradeError::Io {
        path: request.work_dir.clone(),
        source,
    })?;
    let toolchain = Toolchain::find(&request.crate_dir, request.toolchain.as_deref())
        .map_err(GradeError::Toolchain)?;
    let isolation = Isolation::detect();
    let show = |text: &str| show_paths(text, &request.show_paths);
    let mut found: BTreeMap<String, CaseOutcome> = BTreeMap::new();

    // The learner's macros, when the exercise has macro crates: recorded in
    // a confined build, replayed in the trusted one.
    let macros = LearnerMacros::prepare(&request.crate_dir, &request.work_dir)?;
    let trusted_crate = macros
        .as_ref()
        .map_or(request.crate_dir.clone(), |macros| macros.replaying.clone());

    // Behaviour cases still in the observing program: one that does not
    // compile against the crate is taken out (and not run), so the others
    // still run.
    let mut observable: Vec<&Case> = behaviour.clone();
    let mut observing_build: Option<(BuildRun, Project)> = None;
    if let Some(macros) = &macros {
        let mut fetched_once = false;
        loop {
            let project = write_project(
                &ProjectSpec {
                    manifest: &manifest,
                    crate_dir: &macros.recording,
                    compile_fail: compile_fail.clone(),
                    behaviour: observable.clone(),
                    observe: true,
                    judge: false,
                    lockfile: request.lockfile.as_deref(),
                },
                &request.work_dir.join("recording-build"),
            )?;
            if !fetched_once {
                let fetched = fetch(&project.root, &toolchain, request.limits.build())
                    .map_err(GradeError::Toolchain)?;
                if !matches!(fetched.ending, Ending::Exited(status) if status.success()) {
                    return Err(GradeError::Toolchain(std::io::Error::other(format!(
                        "cannot fetch the dependencies: {}",
                        tail(&fetched.stderr, 10)
                    ))));
                }
                fetched_once = true;
            }
            macros.clear_recordings()?;
            let mut read_only = project.path_dependencies.clone();
            read_only.push(manifest.dir.clone());
            let confinement = Confinement {
                read_only,
                writable: vec![macros.recordings.clone()],
            };
            let run = build(&BuildSpec {
                workspace: &project.root,
                packages: vec![&project.cases_package],
                target_dir: &request.work_dir.join("recording-target"),
                toolchain: &toolchain,
                bounds: request.limits.build(),
                confined: Some((&isolation, confinement)),
            })
            .map_err(GradeError::Toolchain)?;
            let errors: Vec<String> = run
                .errors_under(&macros.recording)
                .filter_map(|diagnostic| diagnostic.rendered.clone())
                .map(|text| show(&text))
                .collect();
            if !errors.is_empty()
                || run.stopped_because().is_some()
                || !run.built(&macros.recording.join("src/lib.rs"))
            {
                return Ok(not_compiling(manifest, &run, errors, &show));
            }
            let again = drop_uncompiled(
                &run,
                &project,
                &manifest,
                &mut observable,
                &mut found,
                &show,
            );
            if !again {
                macros.install_recordings()?;
                observing_build = Some((run, project));
                break;
            }
        }
    }

    // The trusted build: the crate under test (with replayed macros), the
    // compile-fail cases, the judge, and the observing program unless the
    // confined build made it.
    let (run, project) = loop {
        let project = write_project(
            &ProjectSpec {
                manifest: &manifest,
                crate_dir: &trusted_crate,
                compile_fail: compile_fail.clone(),
                behaviour: observable.clone(),
                observe: macros.is_none(),
                judge: true,
                lockfile: request.lockfile.as_deref(),
            },
            &request.work_dir.join("build"),
        )?;
        let mut packages = vec![project.cases_package.as_str()];
        if project.judge_source.is_some() {
            packages.push(project.judge_package.as_str());
        }
        let run = build(&BuildSpec {
            workspace: &project.root,
            packages,
            target_dir: &request.target_dir,
            toolchain: &toolchain,
            bounds: request.limits.build(),
            confined: None,
        })
        .map_err(GradeError::Toolchain)?;
        let errors: Vec<String> = run
            .errors_under(&trusted_crate)
            .filter_map(|diagnostic| diagnostic.rendered.clone())
            .map(|text| show(&text))
            .collect();
        // Every case needs the crate built: not when it has errors, when
        // cargo refuses it (a missing `src/lib.rs`), or when a limit stopped
        // its build (a compiler that hangs on it).
        if !errors.is_empty() || !run.built(&trusted_crate.join("src/lib.rs")) {
            return Ok(not_compiling(manifest, &run, errors, &show));
        }
        if macros.is_some()
            || !drop_uncompiled(
                &run,
                &project,
                &manifest,
                &mut observable,
                &mut found,
                &show,
            )
        {
            break (run, project);
        }
    };

    // Compile-fail cases.
    for case in project.compile_fail.values() {
        let case_file = manifest.case_path(case);
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
                &expectations[&case.name()],
                &diagnostics,
                compiled,
                &case_file,
                &project.root,
                &show,
            )
        };
        found.insert(case.name(), outcome);
    }

    // Behaviour cases.
    let observable: Vec<Case> = observable.into_iter().cloned().collect();
    if !observable.is_empty() {
        let (observe_run, observe_project) = match &observing_build {
            Some((run, project)) => (run, project),
            None => (&run, &project),
        };
        let observe_exe = observe_project
            .observe_source
            .as_ref()
            .and_then(|source| observe_run.executable(source));
        let judge_exe = project
            .judge_source
            .as_ref()
            .and_then(|source| run.executable(source));
        match (observe_exe, judge_exe) {
            (Some(observe), Some(judge)) => {
                let outcomes = run_behaviour(
                    &BehaviourRun {
                        observe: &observe,
                        judge: &judge,
                        scratch: &request.work_dir.join("run"),
                        workdir: &request.crate_dir,
                        seed: request.seed.unwrap_or_else(random_seed),
                        bounds: request.limits.case(),
                        isolation: &isolation,
                        workers: std::thread::available_parallelism().map_or(1, usize::from),
                        show: &show,
                    },
                    &observable,
                );
                for (case, outcome) in observable.iter().zip(outcomes) {
                    found.insert(case.name(), outcome);
                }
            }
            (observe, _) => {
                let build = if observe.is_none() { observe_run } else { &run };
                let (status, details) = match build.stopped_because() {
                    Some(why) => (
                        Status::Stopped(format!("the build was {why}")),
                        tail(&build.stderr, 20),
                    ),
                    None if observe.is_none() => (
                        Status::NotRun("the behaviour cases could not be built".to_owned()),
                        show(&tail(&build.stderr, 20)),
                    ),
                    None => (
                        Status::Stopped(
                            "the judge did not build (a problem of the course, not of your code)"
                                .to_owned(),
                        ),
                        tail(&build.stderr, 20),
                    ),
                };
                for case in &observable {
                    found.insert(
                        case.name(),
                        CaseOutcome::new(status.clone(), details.clone()),
                    );
                }
            }
        }
    }

    // The public surface.
    let mut surface_items = None;
    if !surface_cases.is_empty() {
        let (outcome, items) = surface::check(
            &manifest,
            &trusted_crate,
            &toolchain,
            &request.work_dir,
            request.limits.build(),
        );
        surface_items = items;
        for case in &surface_cases {
            found.insert(case.name(), outcome.clone());
        }
    }

    let outcomes = manifest
        .cases
        .iter()
        .filter(|case| request.only.is_empty() || request.only.contains(&case.name()))
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
        manifest,
        outcomes,
        crate_errors: None,
        surface: surface_items,
    })
}

/// When the observing program of `project` did not compile: takes the
/// behaviour cases whose files hold the errors out of `observable` (each
/// not run, with its errors) and returns `true`, so the caller builds
/// again without them. Returns `false` when there is nothing to retry:
/// the program compiled, or no case is left, or the errors are not in any
/// one case's file (then every remaining case is not run).
fn drop_uncompiled(
    run: &BuildRun,
    project: &Project,
    manifest: &Manifest,
    observable: &mut Vec<&Case>,
    found: &mut BTreeMap<String, CaseOutcome>,
    show: &dyn Fn(&str) -> String,
) -> bool {
    let Some(source) = &project.observe_source else {
        return false;
    };
    if observable.is_empty() || run.built(source) || run.stopped_because().is_some() {
        return false;
    }
    let errors: Vec<_> = run.diagnostics(source).filter(|d| is_error(d)).collect();
    let mut broken: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut unplaced = Vec::new();
    for error in &errors {
        let rendered = error.rendered.as_deref().map(show).unwrap_or_default();
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
            show(&tail(&run.stderr, 20))
        } else {
            errors
                .iter()
                .filter_map(|error| error.rendered.as_deref())
                .map(show)
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

/// The grade of a crate that does not compile: every case not run.
fn not_compiling(
    manifest: Manifest,
    run: &BuildRun,
    errors: Vec<String>,
    show: &dyn Fn(&str) -> String,
) -> Grade {
    let (status, details) = match run.stopped_because() {
        Some(why) if errors.is_empty() => (
            Status::Stopped(format!(
                "building your crate was {why}: the crate does not compile in time"
            )),
            show(&tail(&run.stderr, 20)),
        ),
        _ if errors.is_empty() => (
            Status::NotRun("your crate does not build (see the details)".to_owned()),
            show(&tail(&run.stderr, 20)),
        ),
        _ => (
            Status::NotRun("your crate does not compile (see its errors)".to_owned()),
            errors.join("\n"),
        ),
    };
    let outcomes = manifest
        .cases
        .iter()
        .map(|case| {
            (
                case.clone(),
                CaseOutcome::new(status.clone(), String::new()),
            )
        })
        .collect();
    Grade {
        manifest,
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
