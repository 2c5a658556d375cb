//! `cargo xtask new-chapter` on a scratch copy of the course: the chapter
//! it makes passes `cargo xtask check`, and grades as the proofs require
//! (the starter fails exactly the cases that need work, the solution and
//! the alternative solution score full marks, each wrong solution fails
//! exactly the cases it lists); names it must refuse are refused, and
//! change nothing.
//!
//! The copy lives in `target/xsafe/xtask-new-chapter/course`; the grades
//! build into the proofs' target directory (`target/xsafe/proofs/build`),
//! so they are warm once the proofs have run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;
use xsafe_grade::{Grade, GradeRequest, grade};
use xsafe_sandbox::{Overlay, SandboxSpec, Variants, build_sandbox, mirror};

const NAME: &str = "even-numbers";

fn real_course() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the course exists")
}

/// Runs the xtask binary on `course` with `args`.
fn xtask(course: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("--course")
        .arg(course)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the xtask binary runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Grades `submission` (the starter when `None`, else the solution's
/// files, with `overlay` if any) of the new chapter in `course`.
fn grade_new_chapter(
    course: &Path,
    label: &str,
    solution: bool,
    overlay: Option<&Overlay>,
) -> Grade {
    let work = real_course().join("target/xsafe/xtask-new-chapter/work");
    let exercise = course.join("exercises").join(NAME);
    let solution_dir = course.join("solutions").join(NAME);
    let lockfile = course.join("Cargo.lock");
    let spec = SandboxSpec {
        exercise_dir: &exercise,
        learner_dir: solution.then_some(solution_dir.as_path()),
        overlay,
        lockfile: Some(&lockfile),
    };
    let sandbox = build_sandbox(&spec, &work.join("sandboxes").join(label))
        .unwrap_or_else(|err| panic!("cannot build the {label} sandbox: {err}"));
    assert!(sandbox.missing.is_empty(), "{label}: {:?}", sandbox.missing);
    let request = GradeRequest {
        crate_dir: sandbox.dir.clone(),
        pristine: exercise.clone(),
        freshness: xsafe_grade::Freshness::PerGrade,
        work_dir: work.join("grades").join(label),
        target_dir: real_course().join("target/xsafe/proofs/build"),
        lockfile: Some(lockfile),
        limits: xsafe_grade::Limits::default(),
        seed: None,
        miri: false,
        full: true,
        only: Vec::new(),
        toolchain: None,
        show_paths: vec![(sandbox.dir, format!("exercises/{NAME}"))],
        job_cache_bytes: 0,
    };
    grade(&request).unwrap_or_else(|err| panic!("cannot grade the {label}: {err}"))
}

fn describe(grade: &Grade) -> String {
    let mut text = String::new();
    if let Some(errors) = &grade.crate_errors {
        text.push_str(&format!("the crate does not compile:\n{errors}\n"));
    }
    for (case, outcome) in &grade.outcomes {
        text.push_str(&format!("  {} {}\n", case.name(), outcome.status));
        if !outcome.status.is_pass() {
            text.push_str(&format!(
                "    {}\n",
                outcome.details.replace('\n', "\n    ")
            ));
        }
    }
    text
}

#[test]
fn a_new_chapter_is_complete_and_grades_as_the_proofs_require() {
    let started = Instant::now();
    let scratch = real_course().join("target/xsafe/xtask-new-chapter/course");
    let _ = std::fs::remove_dir_all(&scratch);
    mirror(&real_course(), &scratch, &|relative| {
        relative.starts_with(".git") || relative.starts_with("book/book")
    })
    .expect("the course can be copied");

    // Names that are refused, with exit 2, leave the course as it was.
    let summary_before = std::fs::read_to_string(scratch.join("book/src/SUMMARY.md")).unwrap();
    for (name, why) in [
        ("Bad Name", "not a valid crate name"),
        ("fn", "not a valid crate name"),
        ("ordered-tree", "exists"),
        ("ordered_tree", "would have the crate name `ordered_tree`"),
        ("xtask", "already has a package"),
    ] {
        let output = xtask(&scratch, &["new-chapter", name]);
        assert_eq!(output.status.code(), Some(2), "{name}: {}", text(&output));
        assert!(text(&output).contains(why), "{name}: {}", text(&output));
    }
    assert_eq!(
        std::fs::read_to_string(scratch.join("book/src/SUMMARY.md")).unwrap(),
        summary_before
    );
    assert!(!scratch.join("exercises/xtask").exists());

    let output = xtask(&scratch, &["new-chapter", NAME, "--title", "Even numbers"]);
    assert!(output.status.success(), "{}", text(&output));
    let summary = std::fs::read_to_string(scratch.join("book/src/SUMMARY.md")).unwrap();
    let entry = summary
        .find("- [Even numbers](even-numbers.md)")
        .expect("registered");
    assert!(entry < summary.find("[Appendix").expect("the appendix"));

    let output = xtask(&scratch, &["check"]);
    assert!(
        output.status.success(),
        "`xtask check` on the new chapter:\n{}",
        text(&output)
    );
    let output = xtask(&scratch, &["templates", "--check"]);
    assert!(output.status.success(), "{}", text(&output));
    let scaffolded = started.elapsed();

    let starter = grade_new_chapter(&scratch, "starter", false, None);
    let needs_work = starter.manifest.cases_needing_work();
    assert!(!needs_work.is_empty());
    assert_eq!(
        starter.failing(),
        needs_work,
        "the starter fails exactly the cases that need work:\n{}",
        describe(&starter)
    );

    let solution = grade_new_chapter(&scratch, "solution", true, None);
    assert!(
        solution.failing().is_empty(),
        "the solution passes every case:\n{}",
        describe(&solution)
    );
    assert_eq!(solution.points(), solution.manifest.total_points());

    let variants = Variants::load(&scratch.join("solutions").join(NAME).join("variants.toml"))
        .expect("the variants load")
        .variants;
    assert!(variants.iter().any(|variant| variant.fails.is_empty()));
    assert!(
        variants
            .iter()
            .filter(|variant| !variant.fails.is_empty())
            .count()
            >= 3
    );
    for variant in &variants {
        let graded = grade_new_chapter(
            &scratch,
            &format!("variant-{}", variant.name),
            true,
            Some(variant),
        );
        assert_eq!(
            graded.failing(),
            variant.fails,
            "variant `{}` fails exactly its cases:\n{}",
            variant.name,
            describe(&graded)
        );
    }
    eprintln!(
        "scaffolded and checked in {:.1}s, graded starter, solution and {} variants in {:.1}s more",
        scaffolded.as_secs_f64(),
        variants.len(),
        (started.elapsed() - scaffolded).as_secs_f64()
    );
}
