//! `cargo xtask check`: is every chapter complete and consistent?
//!
//! Each check reads files only (and asks cargo once whether `Cargo.lock` is
//! current); none builds anything. Every problem is one line that names the
//! file to fix and, where a command fixes it, the command.
//!
//! **Invariant**: [`check`] reports problems and never stops at the first,
//! so one run lists everything that is missing.

use crate::scaffold::{PER_CHAPTER_FIXTURE, lib_name, pattern_covers, workspace_list};
use crate::templates;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item};
use xsafe_course::{Expect, Manifest, git_blob_id};
use xsafe_sandbox::Variants;

/// Every problem of the course at `root`, one line each; empty when the
/// course is complete.
pub fn check(root: &Path, with_cargo: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let names = exercise_names(root, &mut problems);
    let summary = std::fs::read_to_string(root.join("book/src/SUMMARY.md")).unwrap_or_else(|err| {
        problems.push(format!("book/src/SUMMARY.md: cannot read it: {err}"));
        String::new()
    });
    let mut manifests = Vec::new();
    for name in &names {
        if let Some(manifest) = check_exercise(root, name, &summary, &mut problems) {
            manifests.push(manifest);
        }
    }
    let any_api = manifests
        .iter()
        .any(|manifest| !manifest.surface.api.is_empty());
    for manifest in &manifests {
        if any_api
            && manifest.surface.api.is_empty()
            && manifest
                .cases
                .iter()
                .any(|case| case.expect == Expect::Surface)
        {
            problems.push(format!(
                "exercises/{}/grading/manifest.toml: a surface case but no [surface] api (run `cargo run -p xsafe-grading-proofs --bin api {}`)",
                manifest.exercise, manifest.exercise
            ));
        }
    }
    check_workspace(root, &names, &mut problems);
    check_doctest(root, &manifests, &mut problems);
    check_fixtures(root, &names, &mut problems);
    check_templates(root, &mut problems);
    if with_cargo {
        check_lockfile(root, &mut problems);
    }
    problems
}

/// The folders under `exercises/` that hold a crate.
fn exercise_names(root: &Path, problems: &mut Vec<String>) -> Vec<String> {
    let mut names: Vec<String> = match std::fs::read_dir(root.join("exercises")) {
        Ok(entries) => entries
            .flatten()
            .filter(|entry| entry.path().join("Cargo.toml").is_file())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(err) => {
            problems.push(format!("exercises/: cannot read it: {err}"));
            Vec::new()
        }
    };
    names.sort();
    names
}

/// The checks of one exercise; its manifest when it loads.
fn check_exercise(
    root: &Path,
    name: &str,
    summary: &str,
    problems: &mut Vec<String>,
) -> Option<Manifest> {
    let dir = root.join("exercises").join(name);
    let solution = root.join("solutions").join(name);
    if !solution.join("Cargo.toml").is_file() {
        problems.push(format!(
            "solutions/{name}/Cargo.toml: missing (every exercise has a reference solution)"
        ));
    }
    let variants = solution.join("variants.toml");
    let variants = if variants.is_file() {
        match Variants::load(&variants) {
            Ok(variants) => Some(variants.variants),
            Err(err) => {
                problems.push(format!("solutions/{name}/variants.toml: {err}"));
                None
            }
        }
    } else {
        problems.push(format!(
            "solutions/{name}/variants.toml: missing (at least one wrong solution the cases catch)"
        ));
        None
    };
    let manifest_path = format!("exercises/{name}/grading/manifest.toml");
    if !dir.join("grading/manifest.toml").is_file() {
        problems.push(format!("{manifest_path}: missing"));
        return None;
    }
    let manifest = match Manifest::load(&dir.join("grading")) {
        Ok(manifest) => manifest,
        Err(err) => {
            problems.push(format!("{manifest_path}: does not load: {err}"));
            return None;
        }
    };
    if manifest.exercise != name {
        problems.push(format!(
            "{manifest_path}: `exercise = \"{}\"`, but the folder is `{name}`",
            manifest.exercise
        ));
    }
    if !root.join("book/src").join(&manifest.chapter).is_file() {
        problems.push(format!(
            "{manifest_path}: its chapter book/src/{} does not exist",
            manifest.chapter
        ));
    }
    if !summary.contains(&format!("]({})", manifest.chapter)) {
        problems.push(format!(
            "book/src/SUMMARY.md: no link to {} (the chapter of `{name}`)",
            manifest.chapter
        ));
    }
    for step in xsafe_course::StepName::ALL {
        if manifest.cases_of(step).next().is_none() {
            problems.push(format!("{manifest_path}: the step `{step}` has no case"));
        }
    }
    if manifest.cases.iter().all(|case| case.given) {
        problems.push(format!(
            "{manifest_path}: every case is `given`: the learner has no work"
        ));
    }
    for case in &manifest.cases {
        if !case.proves(&manifest).starts_with("Proves ") {
            problems.push(format!(
                "exercises/{name}/grading/cases/{}: does not start with a `//! Proves ...` comment",
                case.file.display()
            ));
        }
    }
    for file in case_files(&manifest.dir.join("cases")) {
        if !manifest
            .cases
            .iter()
            .any(|case| manifest.case_path(case) == file)
        {
            let relative = file.strip_prefix(root).unwrap_or(&file);
            problems.push(format!(
                "{}: not listed in the manifest, so it never runs",
                relative.display()
            ));
        }
    }
    if let Some(variants) = &variants {
        if !variants.iter().any(|variant| !variant.fails.is_empty()) {
            problems.push(format!(
                "solutions/{name}/variants.toml: no wrong solution (a variant with `fails`)"
            ));
        }
        for variant in variants {
            for case in variant
                .fails
                .iter()
                .chain(&variant.fails_under_miri)
                .chain(&variant.may_fail)
            {
                if !manifest.cases.iter().any(|known| known.name() == *case) {
                    problems.push(format!(
                        "solutions/{name}/variants.toml: variant `{}` names `{case}`, which is not a case of the manifest",
                        variant.name
                    ));
                }
            }
        }
    }
    check_starter_table(root, name, &manifest, problems);
    Some(manifest)
}

/// Every `.rs` file in a step folder of `cases/` (`support.rs`, beside the
/// step folders, is not a case).
fn case_files(cases: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for step in std::fs::read_dir(cases).into_iter().flatten().flatten() {
        if !step.path().is_dir() {
            continue;
        }
        for file in std::fs::read_dir(step.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = file.path();
            if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The manifest's `[starter]` table names every learner file of the
/// starter with its blob id (what `--bin starter` writes).
fn check_starter_table(root: &Path, name: &str, manifest: &Manifest, problems: &mut Vec<String>) {
    let dir = root.join("exercises").join(name);
    let mut current = std::collections::BTreeMap::new();
    for learner in &manifest.learner_files {
        for file in files_under(&dir.join(learner)) {
            let Ok(content) = std::fs::read(&file) else {
                continue;
            };
            let relative = file.strip_prefix(&dir).unwrap_or(&file).to_path_buf();
            current.insert(relative, git_blob_id(&content));
        }
    }
    if current != manifest.starter {
        problems.push(format!(
            "exercises/{name}/grading/manifest.toml: the [starter] table does not match the starter's files (run `cargo run -p xsafe-grading-proofs --bin starter {name}`)"
        ));
    }
}

fn files_under(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
        files.extend(files_under(&entry.path()));
    }
    files
}

fn load_toml(root: &Path, relative: &str, problems: &mut Vec<String>) -> Option<DocumentMut> {
    let text = match std::fs::read_to_string(root.join(relative)) {
        Ok(text) => text,
        Err(err) => {
            problems.push(format!("{relative}: cannot read it: {err}"));
            return None;
        }
    };
    match text.parse() {
        Ok(doc) => Some(doc),
        Err(err) => {
            problems.push(format!("{relative}: not valid TOML: {err}"));
            None
        }
    }
}

/// The workspace builds every starter and solution; `cargo test` at the
/// root (the default members) tests the solutions and not the starters,
/// which are meant to fail.
fn check_workspace(root: &Path, names: &[String], problems: &mut Vec<String>) {
    let Some(doc) = load_toml(root, "Cargo.toml", problems) else {
        return;
    };
    let members = workspace_list(&doc, "members");
    let defaults = workspace_list(&doc, "default-members");
    let covered = |patterns: &[String], path: &str| {
        patterns.iter().any(|pattern| pattern_covers(pattern, path))
    };
    for name in names {
        let exercise = format!("exercises/{name}");
        let solution = format!("solutions/{name}");
        for path in [&exercise, &solution] {
            if !covered(&members, path) {
                problems.push(format!(
                    "Cargo.toml: workspace.members does not cover {path}"
                ));
            }
        }
        if !covered(&defaults, &solution) {
            problems.push(format!(
                "Cargo.toml: workspace.default-members does not cover {solution} (`cargo test` would not test it)"
            ));
        }
        if covered(&defaults, &exercise) {
            problems.push(format!(
                "Cargo.toml: workspace.default-members covers the starter {exercise}, which is meant to fail"
            ));
        }
    }
}

/// A chapter whose `rust,noplayground` blocks use its crate needs the
/// solution among the book tests' dependencies.
fn check_doctest(root: &Path, manifests: &[Manifest], problems: &mut Vec<String>) {
    let relative = "book/doctest/Cargo.toml";
    if !root.join(relative).is_file() {
        return;
    }
    let Some(doc) = load_toml(root, relative, problems) else {
        return;
    };
    let dependencies: Vec<String> = doc
        .get("dependencies")
        .and_then(Item::as_table_like)
        .map(|table| {
            table
                .iter()
                .filter_map(|(_, item)| item.get("path")?.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    for manifest in manifests {
        let chapter = root.join("book/src").join(&manifest.chapter);
        let text = std::fs::read_to_string(&chapter).unwrap_or_default();
        let lib = lib_name(&manifest.exercise);
        let uses_crate = noplayground_code(&text).contains(&format!("{lib}::"));
        let wanted = format!("../../solutions/{}", manifest.exercise);
        if uses_crate
            && !dependencies
                .iter()
                .any(|path| path.trim_end_matches('/') == wanted)
        {
            problems.push(format!(
                "{relative}: book/src/{} uses `{lib}` in a noplayground block, but the book's tests do not depend on solutions/{}",
                manifest.chapter, manifest.exercise
            ));
        }
    }
}

/// The code of a chapter's `rust,...noplayground` blocks, the ones that may
/// use the course's crates (other blocks run on the playground).
fn noplayground_code(chapter: &str) -> String {
    let mut code = String::new();
    let mut inside: Option<bool> = None;
    for line in chapter.lines() {
        let trimmed = line.trim_start();
        match inside {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    inside = Some(info.starts_with("rust") && info.contains("noplayground"));
                }
            }
            Some(keep) => {
                if trimmed.starts_with("```") {
                    inside = None;
                } else if keep {
                    code.push_str(line);
                    code.push('\n');
                }
            }
        }
    }
    code
}

/// The grader's per-chapter fixture grades a wrong solution of every
/// exercise, and names variants that exist and fail something.
fn check_fixtures(root: &Path, names: &[String], problems: &mut Vec<String>) {
    let relative = "ci/grader/fixtures/submissions.toml";
    if !root.join(relative).is_file() {
        return;
    }
    let Some(doc) = load_toml(root, relative, problems) else {
        return;
    };
    let Some(fixture) = doc
        .get("fixture")
        .and_then(Item::as_array_of_tables)
        .and_then(|fixtures| {
            fixtures.iter().find(|fixture| {
                fixture.get("name").and_then(Item::as_str) == Some(PER_CHAPTER_FIXTURE)
            })
        })
    else {
        return;
    };
    let grade: Vec<&str> = fixture
        .get("grade")
        .and_then(Item::as_array)
        .map(|array| array.iter().filter_map(|value| value.as_str()).collect())
        .unwrap_or_default();
    let expects: Vec<&str> = fixture
        .get("expect")
        .and_then(Item::as_array_of_tables)
        .map(|tables| {
            tables
                .iter()
                .filter_map(|table| table.get("exercise").and_then(Item::as_str))
                .collect()
        })
        .unwrap_or_default();
    for name in names {
        let variant = fixture
            .get("variant")
            .and_then(|variants| variants.get(name))
            .and_then(Item::as_str);
        let mut missing = Vec::new();
        if !grade.contains(&name.as_str()) {
            missing.push("`grade`");
        }
        if variant.is_none() {
            missing.push("`variant`");
        }
        if !expects.contains(&name.as_str()) {
            missing.push("an `expect`");
        }
        if !missing.is_empty() {
            problems.push(format!(
                "{relative}: the fixture `{PER_CHAPTER_FIXTURE}` lacks `{name}` in {}",
                missing.join(", ")
            ));
        }
        if let Some(variant) = variant {
            let path = root.join("solutions").join(name).join("variants.toml");
            let wrong = Variants::load(&path).ok().is_some_and(|variants| {
                variants
                    .variants
                    .iter()
                    .any(|known| known.name == variant && !known.fails.is_empty())
            });
            if !wrong {
                problems.push(format!(
                    "{relative}: the fixture `{PER_CHAPTER_FIXTURE}` names `{variant}` for `{name}`, which is not a wrong solution in solutions/{name}/variants.toml"
                ));
            }
        }
    }
}

/// The generated files are what the manifests generate now.
fn check_templates(root: &Path, problems: &mut Vec<String>) {
    match templates::generate(root) {
        Ok(files) => {
            for file in files {
                let current = std::fs::read_to_string(root.join(&file.path)).ok();
                if current.as_deref() != Some(file.text.as_str()) {
                    problems.push(format!(
                        "{}: stale (run `cargo xtask templates`)",
                        file.path.display()
                    ));
                }
            }
        }
        Err(message) => problems.push(format!("templates: {message}")),
    }
}

/// `Cargo.lock` lists every package of the workspace (`--locked` builds
/// would refuse it otherwise).
fn check_lockfile(root: &Path, problems: &mut Vec<String>) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output();
    match output {
        Ok(output) if output.status.success() => {}
        Ok(output) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let first = stderr
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("");
            problems.push(format!(
                "Cargo.lock: not current (`cargo metadata --locked --offline` says: {first})"
            ));
        }
        Err(err) => problems.push(format!("Cargo.lock: cannot run cargo to check it: {err}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the course (without `target/` and `.git`) under
    /// `target/xsafe/xtask-tests/NAME`, to break on purpose.
    fn scratch(name: &str) -> PathBuf {
        let root = crate::course_root()
            .canonicalize()
            .expect("the course exists");
        let dest = root.join("target/xsafe/xtask-tests").join(name);
        let _ = std::fs::remove_dir_all(&dest);
        xsafe_sandbox::mirror(&root, &dest, &|relative| {
            relative.starts_with(".git") || relative.starts_with("book/book")
        })
        .expect("the course can be copied");
        dest
    }

    fn edit(root: &Path, file: &str, find: &str, replace: &str) {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).expect("readable");
        assert!(text.contains(find), "{file} holds `{find}`");
        std::fs::write(&path, text.replacen(find, replace, 1)).expect("writable");
    }

    fn assert_reports(problems: &[String], expected: &str) {
        assert!(
            problems.iter().any(|problem| problem.contains(expected)),
            "expected a problem containing `{expected}`, got:\n{}",
            problems.join("\n")
        );
    }

    /// Only `noplayground` blocks count as using a course crate: a
    /// playground block may name a module of the same name.
    #[test]
    fn only_noplayground_blocks_use_course_crates() {
        let chapter = "```rust\nuse lock_order::A;\n```\n\n```rust,compile_fail,E0277,noplayground\nuse other::B;\n```\n\ntext lock_order::\n";
        let code = noplayground_code(chapter);
        assert_eq!(code, "use other::B;\n");
    }

    /// The course as it is passes every check.
    #[test]
    fn the_course_is_complete() {
        let problems = check(&crate::course_root(), true);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Each check that can fail does, on a copy broken for it, and says
    /// where.
    #[test]
    fn each_check_reports_what_is_missing() {
        let root = scratch("broken");
        edit(
            &root,
            "book/src/SUMMARY.md",
            "- [A Send-like marker: the derive and the spawn](send-marker.md)\n",
            "",
        );
        std::fs::write(
            root.join("exercises/ordered-tree/grading/cases/consumption/forgotten.rs"),
            "//! Proves nothing, since it never runs.\nfn main() {}\n",
        )
        .expect("writable");
        edit(
            &root,
            "exercises/ordered-tree/grading/cases/definition/first_may_be_absent.rs",
            "//! Proves the definition",
            "//! Shows the definition",
        );
        edit(
            &root,
            "exercises/lock-order/src/lib.rs",
            "//!",
            "//! Changed. //!",
        );
        std::fs::remove_file(root.join("solutions/witness-types/variants.toml"))
            .expect("removable");
        edit(
            &root,
            "solutions/ordered-tree/variants.toml",
            "fails = [\"enforcement/public_surface\"]",
            "fails = [\"enforcement/no_such_case\"]",
        );
        edit(&root, "Cargo.toml", "    \"solutions/*\",\n", "");
        edit(
            &root,
            "Cargo.toml",
            "default-members = [\n",
            "default-members = [\n    \"exercises/*\",\n",
        );
        edit(
            &root,
            "ci/grader/fixtures/submissions.toml",
            "[[fixture.expect]]\nexercise = \"lock-order\"\n",
            "",
        );
        edit(
            &root,
            "book/doctest/Cargo.toml",
            "ordered-tree-solution = { path = \"../../solutions/ordered-tree\" }\n",
            "",
        );

        let problems = check(&root, false);
        assert_reports(&problems, "book/src/SUMMARY.md: no link to send-marker.md");
        assert_reports(
            &problems,
            "consumption/forgotten.rs: not listed in the manifest",
        );
        assert_reports(
            &problems,
            "definition/first_may_be_absent.rs: does not start with a `//! Proves",
        );
        assert_reports(
            &problems,
            "exercises/lock-order/grading/manifest.toml: the [starter] table",
        );
        assert_reports(&problems, "solutions/witness-types/variants.toml: missing");
        assert_reports(&problems, "names `enforcement/no_such_case`");
        assert_reports(
            &problems,
            "workspace.members does not cover solutions/ordered-tree",
        );
        assert_reports(
            &problems,
            "workspace.default-members covers the starter exercises/send-marker",
        );
        assert_reports(&problems, "lacks `lock-order` in an `expect`");
        assert_reports(&problems, "templates: cannot read the course");
        assert_reports(
            &problems,
            "book/doctest/Cargo.toml: book/src/ordered-tree.md uses `ordered_tree`",
        );
    }

    /// Templates that the manifests no longer generate, and a solution that
    /// `cargo test` would not test, are reported.
    #[test]
    fn stale_templates_and_untested_solutions_are_reported() {
        let root = scratch("stale");
        edit(
            &root,
            "exercises/ordered-tree/grading/manifest.toml",
            "file = \"enforcement/no_set_literal.rs\"\nstep = \"enforcement\"\nexpect = \"compile-fail\"\n",
            "file = \"enforcement/no_set_literal.rs\"\nstep = \"enforcement\"\nexpect = \"compile-fail\"\npoints = 7\n",
        );
        let cargo_toml = std::fs::read_to_string(root.join("Cargo.toml")).expect("readable");
        let last = cargo_toml
            .rfind("    \"solutions/*\",\n")
            .expect("a default member");
        let mut changed = cargo_toml.clone();
        changed.replace_range(last..last + "    \"solutions/*\",\n".len(), "");
        std::fs::write(root.join("Cargo.toml"), changed).expect("writable");
        let problems = check(&root, false);
        assert_reports(&problems, "ci/templates/github/classroom.yml: stale");
        assert_reports(
            &problems,
            "workspace.default-members does not cover solutions/send-marker",
        );
        assert!(
            !problems
                .iter()
                .any(|problem| problem.contains("workspace.members")),
            "{problems:?}"
        );
    }

    /// A manifest that does not load, a missing solution, and a lockfile
    /// that misses a package are each reported.
    #[test]
    fn broken_manifests_solutions_and_lockfiles_are_reported() {
        let root = scratch("broken-manifest");
        edit(
            &root,
            "exercises/send-marker/grading/manifest.toml",
            "[[step]]",
            "[[stepp]]",
        );
        std::fs::remove_dir_all(root.join("solutions/lock-order")).expect("removable");
        edit(
            &root,
            "Cargo.lock",
            "name = \"witness-types-solution\"",
            "name = \"witness-types-answer\"",
        );
        let problems = check(&root, true);
        assert_reports(
            &problems,
            "exercises/send-marker/grading/manifest.toml: does not load",
        );
        assert_reports(&problems, "solutions/lock-order/Cargo.toml: missing");
        assert_reports(&problems, "Cargo.lock: not current");
    }
}
