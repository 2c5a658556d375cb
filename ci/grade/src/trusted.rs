//! The trusted part of a grade: what is made from the course's files
//! alone, before a learner's byte is read, and never written by a process
//! that reads one.
//!
//! **Invariant**: the dependency caches and the judge of an exercise are
//! built by a [`Trust::Course`] job from the pristine exercise (never the
//! submission), the course's path dependencies and a workspace the grader
//! writes; the jobs of a grade only ever copy them, read-only. The one
//! process of grading that runs unconfined, `cargo fetch`, reads only
//! those same files: it runs from `/` (so no configuration is discovered
//! in any folder), with the grader's own `CARGO_HOME` (whose only content
//! is a link to the registry) and with wrappers switched off by `--config`.
//! Its lockfile is the one every build of the grade uses, `--frozen`.

use crate::confine::{Collect, Confiner, Job, JobError, Step, Trust, Writable};
use crate::limits::{Bounds, Ending, run_bounded};
use crate::project::{Project, ProjectError, ProjectSpec, write_project};
use crate::toolchain::Toolchain;
use cargo_metadata::Message;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;
use xsafe_course::{Case, Manifest};
use xsafe_sandbox::{SandboxSpec, build_sandbox};

/// What the trusted part is made from.
#[derive(Debug, Clone)]
pub struct TrustedSpec<'a> {
    /// The exercise as the course has it (its starter, its cases).
    pub pristine: &'a Path,
    /// The folder where trusted files of every grade live (shared).
    pub root: &'a Path,
    /// The course's lockfile, to start from.
    pub lockfile: Option<&'a Path>,
    /// The behaviour cases the judge must know.
    pub behaviour: Vec<&'a Case>,
    /// The compile-fail cases (listed in the workspace, not built).
    pub compile_fail: Vec<&'a Case>,
    /// Whether to build the caches and the judge (fresh grades), or only
    /// the lockfile (the learner's tool builds in kept folders).
    pub build: bool,
    /// The reference solution, which the judge links when the manifest
    /// says so.
    pub solution: Option<&'a Path>,
    /// Miri, when the grade runs cases under it and the caches are built:
    /// a cache of dependencies compiled for Miri is built too.
    pub miri: Option<&'a crate::miri::Miri>,
}

/// What the trusted part made.
#[derive(Debug)]
pub struct Trusted {
    /// The lockfile every build of the grade uses.
    pub lockfile: PathBuf,
    /// The dependency caches, when they are built.
    pub caches: Option<Caches>,
    /// The judge, when it is built here.
    pub judge: Option<PathBuf>,
    /// The grader's own `CARGO_HOME`.
    pub cargo_home: PathBuf,
}

/// The target folders a grade's builds start from.
#[derive(Debug, Clone)]
pub struct Caches {
    /// For the build of the crate, its cases and the observing program.
    pub build: PathBuf,
    /// For rustdoc's JSON and the expansion (built with
    /// `RUSTC_BOOTSTRAP=1`, which cargo fingerprints apart).
    pub doc: PathBuf,
    /// For the observing program interpreted by Miri, when one is built.
    pub miri: Option<PathBuf>,
}

/// Why the trusted part could not be made: a problem of the course or of
/// the machine.
#[derive(Debug, thiserror::Error)]
pub enum TrustedError {
    /// A file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The pristine exercise could not be copied.
    #[error("cannot copy the course's exercise: {0}")]
    Sandbox(#[from] xsafe_sandbox::SandboxError),
    /// The workspace could not be written.
    #[error(transparent)]
    Project(#[from] ProjectError),
    /// `cargo fetch` failed.
    #[error("cannot fetch the dependencies: {0}")]
    Fetch(String),
    /// The trusted build failed.
    #[error("the course's own build failed (a problem of the course, not of the submission): {0}")]
    Build(String),
    /// The trusted build's job could not run.
    #[error(transparent)]
    Job(#[from] JobError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TrustedError + '_ {
    move |source| TrustedError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The folder of one exercise's trusted files for one toolchain.
fn folder(root: &Path, exercise: &str, toolchain: &Toolchain) -> PathBuf {
    let tag = hex(&Sha256::digest(
        toolchain.sysroot.as_os_str().as_encoded_bytes(),
    ))[..12]
        .to_owned();
    root.join("trusted").join(format!("{exercise}-{tag}"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The stamp of a finished trusted version: the judge it built.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Stamp {
    judge: Option<PathBuf>,
}

/// Makes (or finds) the trusted part of grading `spec`'s exercise with
/// `toolchain`.
///
/// Each version of it lives in a folder named by the digest of everything
/// it is made from, and is never changed once its stamp is written: a
/// grade reads a finished version without a lock, and only the making of a
/// new version takes the exercise's lock (so a grader waits for another's
/// build of the same version, never for its grade).
pub fn prepare(
    spec: &TrustedSpec<'_>,
    toolchain: &Toolchain,
    confiner: &Confiner,
    limits: Bounds,
) -> Result<Trusted, TrustedError> {
    let manifest = Manifest::load(&spec.pristine.join("grading"))
        .map_err(|err| TrustedError::Build(err.to_string()))?;
    let dir = folder(spec.root, &manifest.exercise, toolchain);
    let key = version_key(spec, toolchain)?;
    let version = dir.join(&key[..24]);
    let cargo_home = crate::toolchain::pinned_cargo_home(spec.root).map_err(io(spec.root))?;
    let workspace = version.join("workspace");
    let caches = Caches {
        build: version.join("cache-build"),
        doc: version.join("cache-doc"),
        miri: spec.miri.map(|_| version.join("cache-miri")),
    };
    let stamp_path = version.join("stamp.json");
    let read_stamp =
        || -> Option<Stamp> { serde_json::from_slice(&std::fs::read(&stamp_path).ok()?).ok() };
    let stamp = match read_stamp() {
        Some(stamp) => stamp,
        None => {
            std::fs::create_dir_all(&dir).map_err(io(&dir))?;
            let lock_path = dir.join("lock");
            let lock = File::create(&lock_path).map_err(io(&lock_path))?;
            lock.lock().map_err(io(&lock_path))?;
            match read_stamp() {
                Some(stamp) => stamp,
                None => {
                    let project = make_version(spec, &version, &workspace)?;
                    fetch(&project, toolchain, &cargo_home, limits)?;
                    let judge = if spec.build {
                        build_caches(
                            &project,
                            &caches,
                            &confiner.with_scratch(&version.join("scratch")),
                            limits,
                        )?
                    } else {
                        None
                    };
                    if let (Some(miri), Some(cache)) = (spec.miri, &caches.miri) {
                        build_miri_cache(
                            &project,
                            cache,
                            miri,
                            &confiner.with_toolchain(&miri.toolchain, &version.join("scratch")),
                            limits,
                        )?;
                    }
                    let stamp = Stamp { judge };
                    let text = serde_json::to_vec(&stamp).unwrap_or_default();
                    std::fs::write(&stamp_path, text).map_err(io(&stamp_path))?;
                    stamp
                }
            }
        }
    };
    Ok(Trusted {
        lockfile: workspace.join("Cargo.lock"),
        caches: spec.build.then_some(caches),
        judge: stamp.judge,
        cargo_home,
    })
}

/// Writes a version's copy of the starter and its workspace (the grade's
/// workspace, with the starter as the crate under test).
fn make_version(
    spec: &TrustedSpec<'_>,
    version: &Path,
    workspace: &Path,
) -> Result<Project, TrustedError> {
    let starter_copy = version.join("crate");
    build_sandbox(
        &SandboxSpec {
            exercise_dir: spec.pristine,
            learner_dir: None,
            overlay: None,
            lockfile: spec.lockfile,
        },
        &starter_copy,
    )?;
    let manifest = Manifest::load(&starter_copy.join("grading"))
        .map_err(|err| TrustedError::Build(err.to_string()))?;
    let compile_fail = same_cases(&manifest, &spec.compile_fail);
    let behaviour = same_cases(&manifest, &spec.behaviour);
    Ok(write_project(
        &ProjectSpec {
            manifest: &manifest,
            crate_dir: &starter_copy,
            compile_fail: compile_fail.iter().collect(),
            batched: Vec::new(),
            behaviour: behaviour.iter().collect(),
            observe: !behaviour.is_empty(),
            judge: !behaviour.is_empty(),
            lockfile: spec.lockfile,
            reference: spec.solution,
        },
        workspace,
    )?)
}

/// The cases of `wanted`, as `manifest` (the starter copy's) has them.
fn same_cases(manifest: &Manifest, wanted: &[&Case]) -> Vec<Case> {
    manifest
        .cases
        .iter()
        .filter(|case| wanted.iter().any(|wanted| wanted.name() == case.name()))
        .cloned()
        .collect()
}

/// What a version is made from, as one digest: the toolchain, the course's
/// lockfile, the cases asked for, whether caches are built, and every file
/// of the pristine exercise, of the course's path dependencies it names
/// and of the reference solution the judge links. Without caches (the
/// learner's tool, whose "pristine" exercise is the learner's own folder),
/// only the manifests count (cargo's and the grading manifest, whose cases
/// shape the workspace): the fetch reads nothing else.
fn version_key(spec: &TrustedSpec<'_>, toolchain: &Toolchain) -> Result<String, TrustedError> {
    let mut digest = Sha256::new();
    digest.update(toolchain.version.as_bytes());
    digest.update(toolchain.sysroot.as_os_str().as_encoded_bytes());
    digest.update([u8::from(spec.build), u8::from(spec.miri.is_some())]);
    if let Some(lockfile) = spec.lockfile {
        digest.update(Sha256::digest(std::fs::read(lockfile).unwrap_or_default()));
    }
    for case in spec.compile_fail.iter().chain(&spec.behaviour) {
        digest.update(case.name().as_bytes());
        digest.update([0]);
    }
    let cargo_toml = spec.pristine.join("Cargo.toml");
    let text = std::fs::read_to_string(&cargo_toml).map_err(io(&cargo_toml))?;
    let mut roots: Vec<PathBuf> = vec![spec.pristine.to_path_buf()];
    roots.extend(path_dependencies(&text, spec.pristine));
    roots.extend(spec.solution.map(Path::to_path_buf));
    for root in roots {
        let walk = walkdir::WalkDir::new(&root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| entry.file_name() != "target");
        for entry in walk.flatten() {
            if !entry.file_type().is_file() {
                continue;
            }
            // The grading manifest names every case, of every kind (a
            // no-panic case adds a package to the workspace and so to its
            // lockfile), so it always counts.
            let manifest = matches!(
                entry.file_name().to_str(),
                Some("Cargo.toml" | "Cargo.lock" | "manifest.toml")
            );
            if !spec.build && !manifest {
                continue;
            }
            digest.update(entry.path().as_os_str().as_encoded_bytes());
            digest.update([0]);
            if let Ok(content) = std::fs::read(entry.path()) {
                digest.update(Sha256::digest(&content));
            }
        }
    }
    Ok(hex(&digest.finalize()))
}

/// The folders of the path dependencies a `Cargo.toml` names (relative to
/// `base`).
fn path_dependencies(cargo_toml: &str, base: &Path) -> Vec<PathBuf> {
    let Ok(manifest) = cargo_toml.parse::<toml::Table>() else {
        return Vec::new();
    };
    ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|section| manifest.get(*section)?.as_table())
        .flat_map(|table| table.values())
        .filter_map(|dependency| dependency.get("path")?.as_str())
        .map(|path| crate::build::normalized(&base.join(path)))
        .filter(|path| !path.starts_with(base))
        .collect()
}

/// `cargo fetch` of the trusted workspace: the only unconfined cargo of a
/// grade. It downloads what the lockfile names and brings the lockfile up
/// to date for the workspace.
///
/// It runs offline first: when the registry already holds everything (as
/// it does after the course's own build), cargo neither asks crates.io nor
/// rewrites the registry's index files. A fetch online would revalidate
/// every index file it reads and rewrite those that changed upstream, while
/// the confined builds of other grades read them through their read-only
/// view of the same registry: a build that read a file half rewritten
/// would fail for a reason that is neither the learner's nor the course's.
/// Only when the offline fetch finds something missing does it go online.
fn fetch(
    project: &Project,
    toolchain: &Toolchain,
    cargo_home: &Path,
    bounds: Bounds,
) -> Result<(), TrustedError> {
    let attempt = |offline: bool| -> Result<(), TrustedError> {
        let mut command = toolchain.cargo_command();
        command.arg("fetch");
        if offline {
            command.arg("--offline");
        }
        command
            .args(["--config", "build.rustc-wrapper=''"])
            .args(["--config", "build.rustc-workspace-wrapper=''"])
            .arg("--manifest-path")
            .arg(project.root.join("Cargo.toml"))
            .env("CARGO_HOME", cargo_home)
            .current_dir("/");
        let run = run_bounded(command, bounds, None)
            .map_err(|err| TrustedError::Fetch(err.to_string()))?;
        if matches!(run.ending, Ending::Exited(status) if status.success()) {
            Ok(())
        } else {
            Err(TrustedError::Fetch(crate::behaviour::tail(&run.stderr, 10)))
        }
    };
    attempt(true).or_else(|_| attempt(false))
}

/// Builds the caches from the starter_copy crate: the crate and the judge
/// into `caches.build`, rustdoc's JSON and the expansion into
/// `caches.doc`. Returns the judge, when there is one.
fn build_caches(
    project: &Project,
    caches: &Caches,
    confiner: &Confiner,
    bounds: Bounds,
) -> Result<Option<PathBuf>, TrustedError> {
    let manifest_path = project.root.join("Cargo.toml");
    let cargo = |name: &str, target: &Path, bootstrap: bool, args: &[&str]| {
        let mut env = confiner.cargo_env();
        if bootstrap {
            env.insert("RUSTC_BOOTSTRAP".into(), "1".into());
        }
        let mut all: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        all.extend([
            "--frozen".into(),
            "--manifest-path".into(),
            manifest_path.clone().into_os_string(),
            "--target-dir".into(),
            target.to_path_buf().into_os_string(),
        ]);
        Step {
            name: name.to_owned(),
            program: confiner.cargo(),
            args: all,
            env,
            time: bounds.time,
            stdin: None,
        }
    };
    let crate_package = project.crate_package.as_str();
    // The cases' empty program (it depends on the crate and on everything
    // the cases use) and the judge: every dependency with the features the
    // grade's builds unify.
    let empty = project.empty_bin();
    let judge_bin = project.judge_bin();
    let mut build_args = vec![
        "build",
        "--keep-going",
        "--message-format=json",
        "--package",
        project.cases_package.as_str(),
        "--bin",
        empty.as_str(),
    ];
    if let Some(judge_bin) = &judge_bin {
        build_args.extend([
            "--package",
            project.judge_package.as_str(),
            "--bin",
            judge_bin.as_str(),
        ]);
    }
    let doc_args = ["rustdoc", "--lib", "--package", crate_package];
    let mut reads = project.path_dependencies.clone();
    reads.push(project.root.clone());
    let mut steps = vec![cargo("build", &caches.build, false, &build_args)];
    let mut doc = cargo("doc", &caches.doc, true, &doc_args);
    doc.args.extend(
        [
            "--",
            "-Zunstable-options",
            "--output-format",
            "json",
            "--document-private-items",
            "--document-hidden-items",
        ]
        .iter()
        .map(Into::into),
    );
    steps.push(doc);
    let mut expand = cargo(
        "expand",
        &caches.doc,
        true,
        &["rustc", "--lib", "--package", crate_package],
    );
    expand
        .args
        .extend(["--", "-Zunpretty=expanded"].iter().map(Into::into));
    steps.push(expand);
    let job = Job {
        what: "the course's own build".into(),
        trust: Trust::Course,
        reads,
        writes: vec![
            Writable::Kept(caches.build.clone()),
            Writable::Kept(caches.doc.clone()),
        ],
        steps,
        concurrent: true,
        collect: Vec::<Collect>::new(),
        tmp_bytes: 512 << 20,
        bounds: Bounds {
            time: bounds.time * 3 + Duration::from_secs(30),
            processor: None,
            ..bounds
        },
    };
    let output = confiner.run(&job)?;
    if let Some(why) = output.stopped_because() {
        return Err(TrustedError::Build(why));
    }
    let build = output.step("build");
    let messages: Vec<Message> = Message::parse_stream(build.stdout.as_slice())
        .filter_map(Result::ok)
        .collect();
    let judge = project.judge_source.as_ref().and_then(|source| {
        messages.iter().find_map(|message| match message {
            Message::CompilerArtifact(artifact)
                if crate::build::same_path(artifact.target.src_path.as_std_path(), source) =>
            {
                artifact
                    .executable
                    .as_ref()
                    .map(|path| path.as_std_path().to_path_buf())
            }
            _ => None,
        })
    });
    if project.judge_source.is_some() && judge.is_none() {
        // The compiler's own errors are in the JSON messages, not stderr.
        let errors: String = messages
            .iter()
            .filter_map(|message| match message {
                Message::CompilerMessage(message)
                    if message.message.level
                        == cargo_metadata::diagnostic::DiagnosticLevel::Error =>
                {
                    message.message.rendered.clone()
                }
                _ => None,
            })
            .collect();
        return Err(TrustedError::Build(format!(
            "the judge did not build: {errors}{}",
            crate::behaviour::tail(&build.stderr, 20)
        )));
    }
    Ok(judge)
}

/// Builds the cache of dependencies compiled for Miri: the cases' empty
/// program, interpreted once.
fn build_miri_cache(
    project: &Project,
    cache: &Path,
    miri: &crate::miri::Miri,
    confiner: &Confiner,
    bounds: Bounds,
) -> Result<(), TrustedError> {
    let empty = project.empty_bin();
    let mut step = crate::build::cargo_step(
        confiner,
        "miri",
        &project.root,
        cache,
        &[
            "miri",
            "run",
            "--bin",
            empty.as_str(),
            "--package",
            project.cases_package.as_str(),
        ],
        bounds.time,
    );
    step.env
        .insert("MIRI_SYSROOT".into(), miri.sysroot.clone().into_os_string());
    step.env
        .insert("MIRIFLAGS".into(), crate::miri::MIRIFLAGS.into());
    let mut reads = project.path_dependencies.clone();
    reads.push(project.root.clone());
    reads.push(miri.sysroot.clone());
    let job = Job {
        what: "the course's own build for Miri".into(),
        trust: Trust::Course,
        reads,
        writes: vec![Writable::Kept(cache.to_path_buf())],
        steps: vec![step],
        concurrent: false,
        collect: Vec::new(),
        tmp_bytes: 512 << 20,
        bounds: Bounds {
            time: bounds.time + Duration::from_secs(30),
            processor: None,
            ..bounds
        },
    };
    let output = confiner.run(&job)?;
    let step = output.step("miri");
    if step.succeeded() {
        Ok(())
    } else {
        Err(TrustedError::Build(format!(
            "the build for Miri failed: {}",
            crate::behaviour::tail(&step.stderr, 20)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without caches, a case added to the grading manifest makes a new
    /// version (the workspace and its lockfile change with it), while an
    /// edit of a learner file does not.
    #[test]
    fn the_grading_manifest_is_part_of_the_version() {
        let dir = std::env::temp_dir().join(format!("xsafe-trusted-key-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("grading")).expect("scratch");
        std::fs::create_dir_all(dir.join("src")).expect("scratch");
        std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"x\"\n").expect("write");
        std::fs::write(dir.join("grading/manifest.toml"), "exercise = \"x\"\n").expect("write");
        std::fs::write(dir.join("src/lib.rs"), "").expect("write");
        let toolchain = Toolchain {
            sysroot: PathBuf::from("/sysroot"),
            version: "rustc 0.0.0".to_owned(),
        };
        let spec = TrustedSpec {
            pristine: &dir,
            root: &dir,
            lockfile: None,
            behaviour: Vec::new(),
            compile_fail: Vec::new(),
            build: false,
            solution: None,
            miri: None,
        };
        let before = version_key(&spec, &toolchain).expect("key");
        std::fs::write(dir.join("src/lib.rs"), "pub fn f() {}").expect("write");
        let edited = version_key(&spec, &toolchain).expect("key");
        std::fs::write(
            dir.join("grading/manifest.toml"),
            "exercise = \"x\"\n[[case]]\nfile = \"p.rs\"\nexpect = \"no-panic\"\n",
        )
        .expect("write");
        let after = version_key(&spec, &toolchain).expect("key");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(before, edited, "a learner's edit keeps the version");
        assert_ne!(before, after, "a new case makes a new version");
    }
}
