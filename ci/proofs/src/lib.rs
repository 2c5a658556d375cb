//! Support for the proofs in `tests/`: find the course's exercises and grade
//! sandboxes of them, on every toolchain the proofs are asked to cover.
//!
//! Sandboxes live under `target/xsafe/proofs/`, one folder per exercise and
//! submission, and build into one shared target directory,
//! `target/xsafe/proofs/build` (not the workspace's own `target/`: the
//! `cargo test` running these proofs holds its lock while they run).

pub mod api_mutants;
pub mod corpus;
pub mod equivalents;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use xsafe_grade::{Grade, GradeRequest, git_blob_id, grade};
use xsafe_sandbox::{Overlay, SandboxSpec, Variants, build_sandbox};

/// One exercise of the course with its reference solution.
#[derive(Debug, Clone)]
pub struct Exercise {
    /// The folder name, such as `ordered-tree`.
    pub name: String,
    /// `exercises/NAME`.
    pub starter: PathBuf,
    /// `solutions/NAME`.
    pub solution: PathBuf,
}

impl Exercise {
    /// The solution's overlays, from `solutions/NAME/variants.toml`.
    pub fn variants(&self) -> Vec<Overlay> {
        let path = self.solution.join("variants.toml");
        match Variants::load(&path) {
            Ok(variants) => variants.variants,
            Err(err) => panic!("{err}"),
        }
    }
}

/// The course's root folder.
pub fn course_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the course's root exists")
}

/// The toolchains the proofs grade with: `XSAFE_TOOLCHAINS` (names rustup
/// knows, separated by commas), or the one `rustc` resolves to here.
pub fn toolchains() -> Vec<Option<String>> {
    named_toolchains("XSAFE_TOOLCHAINS").unwrap_or_else(|| vec![None])
}

/// The toolchains the environment variable `variable` names, separated by
/// commas, or `None` when it is unset or empty.
fn named_toolchains(variable: &str) -> Option<Vec<Option<String>>> {
    std::env::var(variable)
        .ok()
        .filter(|names| !names.trim().is_empty())
        .map(|names| {
            names
                .split(',')
                .map(|name| Some(name.trim().to_owned()))
                .collect()
        })
}

/// The toolchains the variants are graded on: `XSAFE_VARIANT_TOOLCHAINS`
/// (names separated by commas) when set, else every one of
/// [`toolchains`]. `ci/test.sh` grades the variants on the first toolchain
/// only, to keep CI under its time; `ci/every-toolchain.sh` grades them on
/// all of them.
pub fn variant_toolchains() -> Vec<Option<String>> {
    named_toolchains("XSAFE_VARIANT_TOOLCHAINS").unwrap_or_else(toolchains)
}

/// A toolchain's name in messages and folder names.
pub fn toolchain_label(toolchain: &Option<String>) -> String {
    toolchain.clone().unwrap_or_else(|| "default".to_owned())
}

/// Every exercise under `exercises/`, by name (`XSAFE_EXERCISES`, names
/// separated by commas, keeps only those). Each must have a solution.
pub fn exercises() -> Vec<Exercise> {
    let root = course_root();
    let only: Vec<String> = std::env::var("XSAFE_EXERCISES")
        .map(|names| {
            names
                .split(',')
                .map(|name| name.trim().to_owned())
                .collect()
        })
        .unwrap_or_default();
    let mut names: Vec<String> = std::fs::read_dir(root.join("exercises"))
        .expect("the course has an exercises/ folder")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("Cargo.toml").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| only.is_empty() || only.contains(name))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no exercise found under exercises/");
    names
        .into_iter()
        .map(|name| {
            let solution = root.join("solutions").join(&name);
            assert!(
                solution.join("Cargo.toml").is_file(),
                "exercise `{name}` has no solution in solutions/{name}"
            );
            Exercise {
                starter: root.join("exercises").join(&name),
                solution,
                name,
            }
        })
        .collect()
}

/// The exercise called `name` (among those [`exercises`] keeps), or the
/// message a command-line tool prints when there is none.
pub fn exercise_named(name: &str) -> Result<Exercise, String> {
    exercises()
        .into_iter()
        .find(|exercise| exercise.name == name)
        .ok_or_else(|| format!("error: no exercise `{name}`"))
}

/// The learner files of the exercise at `dir` (the files under its
/// manifest's `learner_files`), each with its git blob id, as the manifest's
/// `[starter]` table must list them.
pub fn starter_snapshot(dir: &Path, learner_files: &[PathBuf]) -> BTreeMap<PathBuf, String> {
    let mut snapshot = BTreeMap::new();
    for root in learner_files {
        for entry in walkdir::WalkDir::new(dir.join(root)).sort_by_file_name() {
            let entry = entry.unwrap_or_else(|err| panic!("cannot list learner files: {err}"));
            if !entry.file_type().is_file() {
                continue;
            }
            let content = std::fs::read(entry.path())
                .unwrap_or_else(|err| panic!("{}: {err}", entry.path().display()));
            let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            snapshot.insert(relative.to_path_buf(), git_blob_id(&content));
        }
    }
    snapshot
}

/// What to put in the starter's place before grading.
#[derive(Debug, Clone, Copy)]
pub enum Submission<'a> {
    /// The starter as it is.
    Starter,
    /// The reference solution's files.
    Solution,
    /// The reference solution with an overlay.
    Variant(&'a Overlay),
    /// The reference solution with one file's text replaced (a mutant):
    /// the file, relative to the crate, a name for the sandbox, the text.
    Replaced(&'a Path, &'a str, &'a str),
    /// The reference solution with several files' texts replaced (an
    /// equivalent rewrite): a name for the sandbox, and each file,
    /// relative to the crate, with its text.
    Rewritten(&'a str, &'a [(PathBuf, String)]),
}

impl<'a> Submission<'a> {
    /// The submission a command line names: `starter`, `solution`, or one
    /// of `variants` by its name; or the message to print when it is none
    /// of these.
    pub fn named(
        which: &str,
        exercise: &Exercise,
        variants: &'a [Overlay],
    ) -> Result<Submission<'a>, String> {
        match which {
            "starter" => Ok(Submission::Starter),
            "solution" => Ok(Submission::Solution),
            name => variants
                .iter()
                .find(|variant| variant.name == name)
                .map(Submission::Variant)
                .ok_or_else(|| format!("error: {} has no variant `{name}`", exercise.name)),
        }
    }

    /// `starter`, `solution`, `variant-NAME`.
    pub fn label(&self) -> String {
        match self {
            Submission::Starter => "starter".to_owned(),
            Submission::Solution => "solution".to_owned(),
            Submission::Variant(overlay) => format!("variant-{}", overlay.name),
            Submission::Replaced(_, name, _) => format!("mutant-{name}"),
            Submission::Rewritten(name, _) => format!("rewrite-{name}"),
        }
    }
}

/// Grades a sandbox of `exercise` holding `submission`, with `toolchain`.
pub fn grade_submission(
    exercise: &Exercise,
    submission: Submission<'_>,
    toolchain: &Option<String>,
) -> Grade {
    grade_submission_with(exercise, submission, toolchain, None, Vec::new())
}

/// [`grade_submission`] with a fixed seed (`None`: a fresh one) and only
/// the named cases (none named: every case).
pub fn grade_submission_with(
    exercise: &Exercise,
    submission: Submission<'_>,
    toolchain: &Option<String>,
    seed: Option<u64>,
    only: Vec<String>,
) -> Grade {
    grade_as(
        exercise,
        submission,
        toolchain,
        seed,
        only,
        xsafe_grade::Freshness::PerGrade,
        true,
    )
}

/// Grades `submission` the way the learner's tool does
/// ([`xsafe_grade::Freshness::Kept`]): in one sandbox and work folder per
/// exercise, kept from one grade to the next, so that each grade starts
/// from what the last one left (its build folders, what the compile-fail
/// batch remembers). Only the named cases (none named: every case).
/// `full`: as `cargo xsafe check --full`, and as the tool runs the
/// deferred cases (the long sweeps, the release builds) once the others
/// pass; else as it grades on each save, leaving those not run, no Miri.
pub fn grade_in_learner_tool(
    exercise: &Exercise,
    submission: Submission<'_>,
    toolchain: &Option<String>,
    only: Vec<String>,
    full: bool,
) -> Grade {
    grade_as(
        exercise,
        submission,
        toolchain,
        None,
        only,
        xsafe_grade::Freshness::Kept,
        full,
    )
}

/// The work folder of `exercise`'s grades in the learner's tool's way.
pub fn learner_tool_work_dir(exercise: &Exercise, toolchain: &Option<String>) -> PathBuf {
    course_root()
        .join("target/xsafe/proofs/work")
        .join(toolchain_label(toolchain))
        .join(format!("{}-learner-tool", exercise.name))
}

/// A grade of `submission`; `full`: the deferred cases too, and Miri.
fn grade_as(
    exercise: &Exercise,
    submission: Submission<'_>,
    toolchain: &Option<String>,
    seed: Option<u64>,
    only: Vec<String>,
    freshness: xsafe_grade::Freshness,
    full: bool,
) -> Grade {
    let root = course_root();
    let kept = freshness == xsafe_grade::Freshness::Kept;
    let label = if kept {
        "learner-tool".to_owned()
    } else {
        submission.label()
    };
    let proofs = root.join("target/xsafe/proofs");
    let spec = SandboxSpec {
        exercise_dir: &exercise.starter,
        learner_dir: match submission {
            Submission::Starter => None,
            Submission::Solution
            | Submission::Variant(_)
            | Submission::Replaced(..)
            | Submission::Rewritten(..) => Some(&exercise.solution),
        },
        overlay: match submission {
            Submission::Variant(overlay) => Some(overlay),
            Submission::Starter
            | Submission::Solution
            | Submission::Replaced(..)
            | Submission::Rewritten(..) => None,
        },
        lockfile: Some(&root.join("Cargo.lock")),
    };
    let folder = format!("{}-{label}", exercise.name);
    let sandbox =
        build_sandbox(&spec, &proofs.join("sandboxes").join(&folder)).unwrap_or_else(|err| {
            panic!(
                "cannot build the {label} sandbox of {}: {err}",
                exercise.name
            )
        });
    assert!(
        sandbox.missing.is_empty(),
        "the {label} of {} lacks learner files: {:?}",
        exercise.name,
        sandbox.missing
    );
    if let Submission::Replaced(file, _, text) = submission {
        let path = sandbox.dir.join(file);
        std::fs::write(&path, text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    }
    if let Submission::Rewritten(_, files) = submission {
        for (file, text) in files {
            let path = sandbox.dir.join(file);
            std::fs::write(&path, text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        }
    }
    let request = GradeRequest {
        crate_dir: sandbox.dir.clone(),
        pristine: exercise.starter.clone(),
        freshness,
        work_dir: proofs
            .join("work")
            .join(toolchain_label(toolchain))
            .join(&folder),
        target_dir: proofs.join("build"),
        lockfile: Some(root.join("Cargo.lock")),
        limits: xsafe_grade::Limits::default(),
        seed,
        // The cases marked `miri` run under it wherever the machine has
        // it: a variant whose undefined behaviour only Miri sees must fail.
        miri: full,
        full,
        only,
        toolchain: toolchain.clone(),
        show_paths: vec![(sandbox.dir, format!("exercises/{}", exercise.name))],
        job_cache_bytes: 0,
    };
    grade(&request).unwrap_or_else(|err| {
        panic!(
            "cannot grade the {label} of {} with {}: {err}",
            exercise.name,
            toolchain_label(toolchain)
        )
    })
}

/// A readable account of a grade, for assertion messages.
pub fn describe(grade: &Grade) -> String {
    let mut text = String::new();
    if let Some(errors) = &grade.crate_errors {
        text.push_str("  the crate does not compile:\n");
        for line in errors.lines().take(40) {
            text.push_str(&format!("      | {line}\n"));
        }
    }
    for (case, outcome) in &grade.outcomes {
        text.push_str(&format!("  {:<55} {}\n", case.name(), outcome.status));
        if !outcome.status.is_pass() && !outcome.details.is_empty() {
            for line in outcome.details.lines().take(40) {
                text.push_str(&format!("      | {line}\n"));
            }
        }
    }
    text
}
