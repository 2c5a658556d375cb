//! Checks on the grading cases themselves, which need no compiling.

use xsafe_grade::{Expect, Manifest};
use xsafe_grading_proofs::{exercises, starter_snapshot};

/// Every case says what it proves, every compile-fail case is a program
/// (its `//~ ERROR` annotations are checked when the manifest loads), every
/// behaviour case has its two halves, no `.stderr` snapshot is left over
/// (nothing reads them), and every case file in `cases/` is listed in the
/// manifest (an unlisted one would silently never run).
#[test]
fn every_case_is_documented_snapshotted_and_listed() {
    for exercise in exercises() {
        let manifest =
            Manifest::load(&exercise.starter.join("grading")).unwrap_or_else(|err| panic!("{err}"));
        for case in &manifest.cases {
            let proves = case.proves(&manifest);
            assert!(
                proves.starts_with("Proves "),
                "{}: case {} must start with a `//! Proves ...` comment",
                exercise.name,
                case.name()
            );
            let source = std::fs::read_to_string(manifest.case_path(case)).expect("readable");
            match case.expect {
                Expect::CompileFail => {
                    assert!(
                        source.contains("fn main()"),
                        "{}: compile-fail case {} must be a program (it is built as one)",
                        exercise.name,
                        case.name()
                    );
                    // An annotation that points at a blank or comment-only
                    // line (rustfmt moves trailing comments) expects an
                    // error no code can have.
                    let lines: Vec<&str> = source.lines().collect();
                    let expectations = case.expectations(&manifest).expect("annotations");
                    for expected in &expectations.errors {
                        if let xsafe_grade::Place::Line(line) = expected.place {
                            let text = lines.get(line as usize - 1).copied().unwrap_or("");
                            let code = text.split("//").next().unwrap_or("").trim();
                            assert!(
                                !code.is_empty(),
                                "{}: case {}: the annotation on line {} points at line {line}, which holds no code",
                                exercise.name,
                                case.name(),
                                expected.written_on
                            );
                        }
                    }
                }
                Expect::Pass => assert!(
                    source.contains("pub fn observe(")
                        && source.contains("pub fn judge(")
                        && source.contains("#[cfg(not(xsafe_judge))]")
                        && !source.contains("fn main()"),
                    "{}: behaviour case {} must have `pub fn observe` (under `#[cfg(not(xsafe_judge))]`) and `pub fn judge`, and no `main`",
                    exercise.name,
                    case.name()
                ),
                Expect::Surface => {
                    assert!(
                        !source
                            .lines()
                            .any(|line| !line.trim().is_empty()
                                && !line.trim_start().starts_with("//")),
                        "{}: the surface case {} is a comment only: the engine reads the surface",
                        exercise.name,
                        case.name()
                    )
                }
            }
        }
        let cases_dir = manifest.dir.join("cases");
        for step in std::fs::read_dir(&cases_dir)
            .expect("cases/ exists")
            .flatten()
        {
            if !step.path().is_dir() {
                continue;
            }
            for file in std::fs::read_dir(step.path()).expect("readable").flatten() {
                let path = file.path();
                assert!(
                    path.extension().is_none_or(|ext| ext != "stderr"),
                    "{}: {} is a snapshot, which nothing reads any more",
                    exercise.name,
                    path.display()
                );
                if path.extension().is_some_and(|ext| ext == "rs") {
                    assert!(
                        manifest
                            .cases
                            .iter()
                            .any(|case| manifest.case_path(case) == path),
                        "{}: {} is not listed in the manifest",
                        exercise.name,
                        path.display()
                    );
                }
            }
        }
    }
}

/// The manifest's `[starter]` table lists every learner file of the starter
/// with its current git blob id, so that `cargo xsafe reset` restores exactly
/// this starter. `--bin starter` rewrites the table.
#[test]
fn starter_snapshot_is_current() {
    for exercise in exercises() {
        let manifest =
            Manifest::load(&exercise.starter.join("grading")).unwrap_or_else(|err| panic!("{err}"));
        let current = starter_snapshot(&exercise.starter, &manifest.learner_files);
        assert!(
            !current.is_empty(),
            "{}: the starter has no learner files",
            exercise.name
        );
        assert_eq!(
            manifest.starter, current,
            "{}: the manifest's [starter] table is stale; run `cargo run -p xsafe-grading-proofs --bin starter`",
            exercise.name
        );
    }
}
