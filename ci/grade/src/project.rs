//! The cargo workspace that grading builds for one exercise, generated
//! from its manifest:
//!
//! * package `xsafe-cases-EXERCISE`, which depends on the crate under test:
//!   one binary target per compile-fail case (the case file itself), and
//!   the binary `observe`, every behaviour case's `observe` half;
//! * package `xsafe-judge-EXERCISE`, which does not depend on it: the
//!   binary `judge`, every behaviour case's `judge` half, built with the
//!   cfg `xsafe_judge`.
//!
//! Both packages get the exercise's `[dev-dependencies]` (what its cases
//! use). One `cargo build` builds everything, so the crate under test is
//! compiled once and the cases in parallel. Files are written only when
//! their content changes, so that cargo's fingerprints keep a warm build
//! warm.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use xsafe_course::{Case, Expect, Manifest};

/// The generated workspace of one exercise.
#[derive(Debug, Clone)]
pub struct Project {
    /// Its root folder (with `Cargo.toml` and `Cargo.lock`).
    pub root: PathBuf,
    /// The package of the cases.
    pub cases_package: String,
    /// The package of the judge.
    pub judge_package: String,
    /// The compile-fail cases built alone, by binary target name.
    pub compile_fail: BTreeMap<String, Case>,
    /// The compile-fail cases built together, as modules of one program,
    /// when there are any (see `compile_fail_batch`).
    pub batch: Option<Batch>,
    /// The observing program's source, when the workspace builds it.
    pub observe_source: Option<PathBuf>,
    /// The judge's source, when the workspace builds it.
    pub judge_source: Option<PathBuf>,
    /// The behaviour cases built into `observe` (and `judge`).
    pub behaviour: Vec<Case>,
    /// The package name of the crate under test.
    pub crate_package: String,
    /// The folders of every path dependency of the workspace (the crate
    /// under test, the cases' support crates): what a confined build must
    /// be able to read.
    pub path_dependencies: Vec<PathBuf>,
    /// The `no-panic` cases' probe packages: each case, its package name
    /// and its crate name.
    pub probes: Vec<Probe>,
}

/// Compile-fail cases built as the modules of one program.
#[derive(Debug, Clone)]
pub struct Batch {
    /// The program's root source, which names each case file as a module.
    pub source: PathBuf,
    /// The cases.
    pub cases: Vec<Case>,
}

/// The probe package of one `no-panic` case.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The case.
    pub case: Case,
    /// Its package (`xsafe-probe-N`).
    pub package: String,
    /// Its crate name (`xsafe_probe_N`), the first segment of its
    /// functions' paths.
    pub crate_name: String,
}

/// What to put in the workspace.
#[derive(Debug, Clone)]
pub struct ProjectSpec<'a> {
    /// The exercise's manifest (its cases are read from `manifest.dir`).
    pub manifest: &'a Manifest,
    /// The crate under test.
    pub crate_dir: &'a Path,
    /// The compile-fail cases to build.
    pub compile_fail: Vec<&'a Case>,
    /// Those of them to build together, as modules of one program, rather
    /// than each alone (see `compile_fail_batch`).
    pub batched: Vec<&'a Case>,
    /// The behaviour cases to build into `observe` and `judge`.
    pub behaviour: Vec<&'a Case>,
    /// Whether to include the observing program.
    pub observe: bool,
    /// Whether to include the judge package.
    pub judge: bool,
    /// A lockfile to start from, so dependencies resolve as the course's do.
    pub lockfile: Option<&'a Path>,
    /// The reference solution's crate, which the judge links as
    /// `xsafe_reference` when the manifest's `[judge] reference` says so.
    pub reference: Option<&'a Path>,
}

/// Why the workspace could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The crate under test's `Cargo.toml` cannot be used.
    #[error("{path}: {problem}")]
    CargoToml {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

/// A short tag of the workspace's folder. Cargo copies every binary it
/// builds to `TARGET/debug/NAME`, so two workspaces building into one
/// target directory must not name a binary alike, or one grade would run
/// the other's program.
fn tag(root: &Path) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in root.to_string_lossy().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:08x}", hash >> 32)
}

/// The binary target of a compile-fail case: `case-STEP-FILE`.
pub fn case_target(case: &Case) -> String {
    format!("case-{}", case.name().replace('/', "-"))
}

/// Writes the workspace into `root` and returns what it holds.
pub fn write_project(spec: &ProjectSpec<'_>, root: &Path) -> Result<Project, ProjectError> {
    let cargo_toml = spec.crate_dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&cargo_toml).map_err(|source| ProjectError::Io {
        path: cargo_toml.clone(),
        source,
    })?;
    let manifest: toml::Table = text.parse().map_err(|err| ProjectError::CargoToml {
        path: cargo_toml.clone(),
        problem: format!("not valid TOML: {err}"),
    })?;
    let crate_package = manifest
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(toml::Value::as_str)
        .ok_or_else(|| ProjectError::CargoToml {
            path: cargo_toml.clone(),
            problem: "no package name".to_owned(),
        })?
        .to_owned();
    let crate_dir = spec
        .crate_dir
        .canonicalize()
        .map_err(|source| ProjectError::Io {
            path: spec.crate_dir.to_path_buf(),
            source,
        })?;
    let mut dev_dependencies = manifest
        .get("dev-dependencies")
        .and_then(toml::Value::as_table)
        .cloned()
        .unwrap_or_default();
    absolute_paths(&mut dev_dependencies, &crate_dir);
    let mut path_dependencies: Vec<PathBuf> = dev_dependencies
        .values()
        .filter_map(|dependency| dependency.get("path")?.as_str().map(PathBuf::from))
        .collect();
    path_dependencies.push(crate_dir.clone());

    let exercise = &spec.manifest.exercise;
    let cases_package = format!("xsafe-cases-{exercise}");
    let judge_package = format!("xsafe-judge-{exercise}");

    // The cases package.
    let mut dependencies = dev_dependencies.clone();
    let mut under_test = toml::Table::new();
    under_test.insert(
        "path".into(),
        crate_dir.to_string_lossy().into_owned().into(),
    );
    dependencies.insert(crate_package.clone(), under_test.into());
    let mut bins = Vec::new();
    let mut compile_fail = BTreeMap::new();
    let batched = |case: &Case| spec.batched.iter().any(|other| other.name() == case.name());
    for case in &spec.compile_fail {
        if batched(case) {
            continue;
        }
        let name = case_target(case);
        bins.push(bin(&name, &spec.manifest.case_path(case)));
        compile_fail.insert(name, (*case).clone());
    }
    let mut batch = None;
    let in_batch: Vec<Case> = spec
        .compile_fail
        .iter()
        .filter(|case| batched(case))
        .map(|case| (*case).clone())
        .collect();
    if !in_batch.is_empty() {
        let source = root.join("cases/compile_fail_batch.rs");
        write_if_changed(&source, &batch_source(spec.manifest, &in_batch))?;
        bins.push(bin(&batch_bin(root), &source));
        batch = Some(Batch {
            source,
            cases: in_batch,
        });
    }
    let behaviour: Vec<Case> = spec.behaviour.iter().map(|case| (*case).clone()).collect();
    let mut observe_source = None;
    if spec.observe && !behaviour.is_empty() {
        let observe = root.join("cases/observe.rs");
        write_if_changed(
            &observe,
            &harness_source(spec.manifest, &behaviour, Half::Observe),
        )?;
        bins.push(bin(&format!("observe-{}", tag(root)), &observe));
        observe_source = Some(observe);
    }
    // An empty program, never run: building it builds every dependency
    // of the cases (the trusted caches are made so), and it gives the
    // package a target when it has no case.
    let empty = root.join("cases/empty.rs");
    write_if_changed(&empty, "fn main() {}\n")?;
    bins.push(bin(&empty_bin(root), &empty));
    write_if_changed(
        &root.join("cases/Cargo.toml"),
        &package_toml(&cases_package, dependencies, bins, false),
    )?;

    // The judge package: no dependency on the crate under test.
    let mut members: Vec<String> = vec!["cases".to_owned()];
    let mut judge_source = None;
    if spec.judge && !behaviour.is_empty() {
        let mut dev_dependencies = dev_dependencies;
        if spec.manifest.judge.reference
            && let Some(reference) = spec.reference
        {
            let package = package_name(&reference.join("Cargo.toml"))?;
            let mut entry = toml::Table::new();
            entry.insert("package".into(), package.into());
            entry.insert(
                "path".into(),
                reference.to_string_lossy().into_owned().into(),
            );
            dev_dependencies.insert("xsafe_reference".into(), entry.into());
            path_dependencies.push(reference.to_path_buf());
        }
        let judge = root.join("judge/judge.rs");
        judge_source = Some(judge.clone());
        write_if_changed(
            &judge,
            &harness_source(spec.manifest, &behaviour, Half::Judge),
        )?;
        write_if_changed(&root.join("judge/build.rs"), JUDGE_BUILD_SCRIPT)?;
        write_if_changed(
            &root.join("judge/Cargo.toml"),
            &package_toml(
                &judge_package,
                dev_dependencies,
                vec![bin(&format!("judge-{}", tag(root)), &judge)],
                true,
            ),
        )?;
        members.push("judge".to_owned());
    }

    // The probes: a library each, the case file, with the crate under
    // test as its only dependency.
    let mut probes = Vec::new();
    for (index, case) in spec
        .manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::NoPanic)
        .enumerate()
    {
        let package = format!("xsafe-probe-{index}");
        let crate_name = format!("xsafe_probe_{index}");
        let mut dependencies = toml::Table::new();
        let mut under_test = toml::Table::new();
        under_test.insert(
            "path".into(),
            crate_dir.to_string_lossy().into_owned().into(),
        );
        dependencies.insert(crate_package.clone(), under_test.into());
        let mut lib = toml::Table::new();
        lib.insert("name".into(), crate_name.clone().into());
        lib.insert(
            "path".into(),
            path_text(&spec.manifest.case_path(case)).into(),
        );
        lib.insert("test".into(), false.into());
        lib.insert("doctest".into(), false.into());
        lib.insert("bench".into(), false.into());
        lib.insert("doc".into(), false.into());
        let text = package_toml(&package, dependencies, Vec::new(), false);
        let mut table: toml::Table = text.parse().unwrap_or_default();
        table.remove("bin");
        table.insert("lib".into(), lib.into());
        write_if_changed(
            &root.join(&package).join("Cargo.toml"),
            &format!("# Generated by the X-safe Rust grading engine.\n{table}"),
        )?;
        members.push(package.clone());
        probes.push(Probe {
            case: case.clone(),
            package,
            crate_name,
        });
    }

    let mut workspace = toml::Table::new();
    workspace.insert("resolver".into(), "3".into());
    workspace.insert(
        "members".into(),
        toml::Value::Array(
            members
                .iter()
                .map(|member| member.as_str().into())
                .collect(),
        ),
    );
    let mut top = toml::Table::new();
    top.insert("workspace".into(), workspace.into());
    // No debug info: linking is most of a warm build, and a failing case
    // shows its panic message and place without it. The crate under test
    // is built with release semantics (no debug assertions, overflow
    // checks kept), as its users' release builds run it: a check written
    // only for debug builds (`debug_assert!`, `cfg!(debug_assertions)`)
    // is a check the grade does not count.
    // What a derive of the crate writes into the cases is held to the
    // same: the whole workspace builds that way.
    // The release profile is the `no-panic` probes' (see `no_panic`).
    let mut profile: toml::Table = toml::from_str(&format!(
        "[dev]\ndebug = 0\ndebug-assertions = false\noverflow-checks = true\n{}",
        crate::no_panic::RELEASE_PROFILE
    ))
    .unwrap_or_default();
    // The judge never holds learner code and is built once per course, so
    // it is optimized: it replays every case's model (100,000-key sets,
    // thousands of transfers) on each grade, and at opt-level 0 that was
    // most of the behaviour phase. Its semantics are the profile's
    // (overflow checks on), so its verdicts are the same.
    if judge_source.is_some()
        && let Some(toml::Value::Table(dev)) = profile.get_mut("dev")
    {
        let mut judge = toml::Table::new();
        judge.insert("opt-level".into(), 2.into());
        let mut packages = toml::Table::new();
        packages.insert(judge_package.clone(), judge.into());
        dev.insert("package".into(), packages.into());
    }
    top.insert("profile".into(), profile.into());
    write_if_changed(
        &root.join("Cargo.toml"),
        &format!("# Generated by the X-safe Rust grading engine.\n{top}"),
    )?;
    if let Some(lockfile) = spec.lockfile {
        let text = std::fs::read_to_string(lockfile).map_err(|source| ProjectError::Io {
            path: lockfile.to_path_buf(),
            source,
        })?;
        write_if_changed(&root.join("Cargo.lock"), &text)?;
    }
    Ok(Project {
        root: root.to_path_buf(),
        cases_package,
        judge_package,
        compile_fail,
        batch,
        observe_source,
        judge_source,
        behaviour,
        crate_package,
        path_dependencies,
        probes,
    })
}

/// The name of the program that holds the batched compile-fail cases.
fn batch_bin(root: &Path) -> String {
    format!("compile-fail-batch-{}", tag(root))
}

/// The root of the batch program: each case file a module of its own
/// (`#[path]`), and an empty `main`.
fn batch_source(manifest: &Manifest, cases: &[Case]) -> String {
    let mut source = String::from(
        "// Generated by the X-safe Rust grading engine: compile-fail cases checked in one compiler run.\n\n",
    );
    for (index, case) in cases.iter().enumerate() {
        let _ = writeln!(
            source,
            "#[path = {:?}]\nmod case_{index};",
            path_text(&manifest.case_path(case))
        );
    }
    source.push_str("\nfn main() {}\n");
    source
}

/// The name of the cases package's empty program.
fn empty_bin(root: &Path) -> String {
    format!("empty-{}", tag(root))
}

impl Project {
    /// The name of the cases package's empty program, which depends on
    /// everything the cases do.
    pub fn empty_bin(&self) -> String {
        empty_bin(&self.root)
    }

    /// The programs grading runs: the observing program and the judge,
    /// where the workspace has them.
    pub fn programs_run(&self) -> Vec<String> {
        let mut programs: Vec<String> = self
            .observe_source
            .as_ref()
            .map(|_| format!("observe-{}", tag(&self.root)))
            .into_iter()
            .collect();
        programs.extend(self.judge_bin());
        programs
    }

    /// The name of the batch's program, when the workspace has a batch.
    pub fn batch_program(&self) -> Option<String> {
        self.batch.as_ref().map(|_| batch_bin(&self.root))
    }

    /// The name of the judge's program, when the workspace builds one.
    pub fn judge_bin(&self) -> Option<String> {
        self.judge_source
            .as_ref()
            .map(|_| format!("judge-{}", tag(&self.root)))
    }

    /// Where the observing program lands in the target folder `target`,
    /// when the workspace builds one.
    pub fn observe_executable(&self, target: &Path) -> Option<PathBuf> {
        self.observe_source.as_ref().map(|_| {
            target
                .join("debug")
                .join(format!("observe-{}", tag(&self.root)))
        })
    }

    /// Where the judge lands in the target folder `target`, when the
    /// workspace builds one.
    pub fn judge_executable(&self, target: &Path) -> Option<PathBuf> {
        self.judge_source.as_ref().map(|_| {
            target
                .join("debug")
                .join(format!("judge-{}", tag(&self.root)))
        })
    }
}

/// The package name a `Cargo.toml` declares.
fn package_name(cargo_toml: &Path) -> Result<String, ProjectError> {
    let text = std::fs::read_to_string(cargo_toml).map_err(|source| ProjectError::Io {
        path: cargo_toml.to_path_buf(),
        source,
    })?;
    let manifest: toml::Table = text.parse().map_err(|err| ProjectError::CargoToml {
        path: cargo_toml.to_path_buf(),
        problem: format!("not valid TOML: {err}"),
    })?;
    manifest
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ProjectError::CargoToml {
            path: cargo_toml.to_path_buf(),
            problem: "no package name".to_owned(),
        })
}

/// The judge package's build script: it sets the cfg that leaves every
/// case's `observe` half (and its use of the learner's crate) out. It
/// depends on nothing but itself: without `rerun-if-changed`, cargo would
/// run it again whenever a file of the package is newer, and two
/// workspaces of one exercise (the learner's tool keeps a quick one and a
/// long one) share its output in one target folder, cargo naming a
/// member's outputs by its path within the workspace, so each would make
/// the other build its judge again.
const JUDGE_BUILD_SCRIPT: &str = "\
// Generated by the X-safe Rust grading engine.
fn main() {
    println!(\"cargo::rerun-if-changed=build.rs\");
    println!(\"cargo::rustc-check-cfg=cfg(xsafe_judge)\");
    println!(\"cargo::rustc-cfg=xsafe_judge\");
}
";

fn bin(name: &str, path: &Path) -> toml::Table {
    let mut bin = toml::Table::new();
    bin.insert("name".into(), name.into());
    bin.insert("path".into(), path.to_string_lossy().into_owned().into());
    bin.insert("test".into(), false.into());
    bin.insert("bench".into(), false.into());
    bin.insert("doc".into(), false.into());
    bin
}

fn package_toml(
    name: &str,
    dependencies: toml::Table,
    bins: Vec<toml::Table>,
    build_script: bool,
) -> String {
    let mut package = toml::Table::new();
    package.insert("name".into(), name.into());
    package.insert("version".into(), "0.0.0".into());
    package.insert("edition".into(), "2024".into());
    package.insert("publish".into(), false.into());
    package.insert("autobins".into(), false.into());
    package.insert("autotests".into(), false.into());
    package.insert("autoexamples".into(), false.into());
    package.insert("autobenches".into(), false.into());
    package.insert(
        "build".into(),
        if build_script {
            "build.rs".into()
        } else {
            false.into()
        },
    );
    let mut top = toml::Table::new();
    top.insert("package".into(), package.into());
    top.insert("dependencies".into(), dependencies.into());
    top.insert(
        "bin".into(),
        toml::Value::Array(bins.into_iter().map(toml::Value::Table).collect()),
    );
    let lints: toml::Table = toml::from_str(
        "[rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = ['cfg(xsafe_judge)'] }\n",
    )
    .unwrap_or_default();
    top.insert("lints".into(), lints.into());
    format!("# Generated by the X-safe Rust grading engine.\n{top}")
}

/// Makes every `path = "..."` of a dependency table absolute, relative to
/// the folder of the `Cargo.toml` it came from.
fn absolute_paths(dependencies: &mut toml::Table, base: &Path) {
    for (_, dependency) in dependencies.iter_mut() {
        if let Some(path) = dependency
            .as_table_mut()
            .and_then(|table| table.get_mut("path"))
            && let Some(relative) = path.as_str()
        {
            let absolute = base.join(relative);
            let absolute = absolute.canonicalize().unwrap_or(absolute);
            *path = absolute.to_string_lossy().into_owned().into();
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Half {
    Observe,
    Judge,
}

/// The source of the observing program or of the judge: each behaviour
/// case as a module `STEP::NAME` (from its file), the exercise's
/// `cases/support.rs` as `crate::support`, and a `main` with the table of
/// cases.
fn harness_source(manifest: &Manifest, cases: &[Case], half: Half) -> String {
    let mut source = String::from(
        "// Generated by the X-safe Rust grading engine from grading/manifest.toml.\n\
         #![allow(dead_code, unused_imports, unused_variables)]\n\n",
    );
    let support = manifest.dir.join("cases/support.rs");
    if support.is_file() {
        let _ = writeln!(
            source,
            "#[path = {:?}]\nmod support;\n",
            path_text(&support)
        );
    }
    let mut steps: BTreeMap<String, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        steps.entry(case.step.to_string()).or_default().push(case);
    }
    for (step, cases) in &steps {
        let _ = writeln!(source, "mod {step} {{");
        for case in cases {
            let _ = writeln!(
                source,
                "    #[path = {:?}]\n    pub mod {};",
                path_text(&manifest.case_path(case)),
                module_name(case)
            );
        }
        let _ = writeln!(source, "}}\n");
    }
    source.push_str("fn main() {\n");
    match half {
        Half::Observe => source.push_str("    xsafe_case::harness::observe_main(&[\n"),
        Half::Judge => source.push_str("    xsafe_case::harness::judge_main(&[\n"),
    }
    for case in cases {
        let module = format!("{}::{}", case.step, module_name(case));
        let entry = match half {
            Half::Observe => {
                format!("|seed| xsafe_case::protocol::encode(&{module}::observe(seed))")
            }
            Half::Judge => format!(
                "|seed, seen| {{ {module}::judge(seed, xsafe_case::protocol::decode(seen)?); Ok(()) }}"
            ),
        };
        let _ = writeln!(source, "        ({:?}, {entry}),", case.name());
    }
    source.push_str("    ]);\n}\n");
    source
}

fn module_name(case: &Case) -> String {
    case.file
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Writes `text` to `path` unless it already holds exactly that.
fn write_if_changed(path: &Path, text: &str) -> Result<(), ProjectError> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| ProjectError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    std::fs::write(path, text).map_err(|source| ProjectError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The behaviour cases of a manifest.
pub fn behaviour_cases(manifest: &Manifest) -> Vec<&Case> {
    manifest
        .cases
        .iter()
        .filter(|case| case.expect == Expect::Pass)
        .collect()
}
