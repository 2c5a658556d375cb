//! The CI templates in `ci/templates/`: each parses as YAML, has the shape
//! its CI system documents, and runs only commands that exist. Every
//! `xsafe-grader` command line in them is parsed by the real grader's
//! argument parser, every exercise it names exists, and the GitHub
//! Classroom set-up has one test per exercise worth exactly that exercise's
//! points.

use std::path::{Path, PathBuf};
use std::process::Command;
use xsafe_grade::Course;
use yaml_rust2::{Yaml, YamlLoader};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the course root exists")
}

fn load(relative: &str) -> Yaml {
    let path = root().join("ci/templates").join(relative);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let mut docs = YamlLoader::load_from_str(&text)
        .unwrap_or_else(|err| panic!("{relative} is not YAML: {err}"));
    assert_eq!(docs.len(), 1, "{relative} holds one YAML document");
    docs.remove(0)
}

fn key<'a>(yaml: &'a Yaml, name: &str) -> &'a Yaml {
    &yaml[name]
}

fn text(yaml: &Yaml) -> Option<String> {
    match yaml {
        Yaml::String(text) => Some(text.clone()),
        Yaml::Integer(number) => Some(number.to_string()),
        _ => None,
    }
}

/// `${{ expr }}` and `"$VAR"` become placeholders a parser accepts.
fn without_expressions(command: &str) -> String {
    let mut out = String::new();
    let mut rest = command;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("}}")
            .map_or(rest.len(), |end| start + end + 2);
        out.push_str("PLACEHOLDER");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The arguments after `xsafe-grader` in `command`, if it runs the grader.
fn grader_args(command: &str) -> Option<Vec<String>> {
    let words = shell_words::split(&without_expressions(command))
        .unwrap_or_else(|err| panic!("cannot split {command:?}: {err}"));
    // `cargo run --package xsafe-grader -- ARGS`
    if words.first().is_some_and(|word| word == "cargo")
        && words.get(1).is_some_and(|word| word == "run")
    {
        let named = words
            .windows(2)
            .any(|pair| (pair[0] == "--package" || pair[0] == "-p") && pair[1] == "xsafe-grader");
        let at = words.iter().position(|word| word == "--")?;
        return named.then(|| words[at + 1..].to_vec());
    }
    // `path/to/xsafe-grader ARGS`
    let program = words.first()?;
    (program == "xsafe-grader" || program.ends_with("/xsafe-grader")).then(|| words[1..].to_vec())
}

/// Checks a grader command line with the grader's own parser (it stops
/// after parsing with `--print-schema`), and that the exercises it names
/// exist. Returns the exercises it names.
fn check_grader_command(file: &str, args: &[String], course: &Course) -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_xsafe-grader"))
        .args(args)
        .arg("--print-schema")
        .output()
        .expect("the grader starts");
    assert!(
        output.status.success(),
        "{file}: the grader refuses `xsafe-grader {}`:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    let named: Vec<String> = args
        .windows(2)
        .filter(|pair| pair[0] == "--exercise" || pair[0] == "-e")
        .map(|pair| pair[1].clone())
        .collect();
    for name in &named {
        assert!(
            course.exercise(name).is_some(),
            "{file}: the course has no exercise `{name}`"
        );
    }
    named
}

/// Checks a `cargo ... --package NAME` command names a package of the
/// course's workspace.
fn check_cargo_command(file: &str, command: &str) {
    let words = shell_words::split(&without_expressions(command)).unwrap_or_default();
    for pair in words.windows(2) {
        if pair[0] == "--package" || pair[0] == "-p" {
            let metadata = cargo_metadata::MetadataCommand::new()
                .manifest_path(root().join("Cargo.toml"))
                .no_deps()
                .exec()
                .expect("cargo metadata runs");
            assert!(
                metadata
                    .workspace_packages()
                    .iter()
                    .any(|package| package.name.as_str() == pair[1]),
                "{file}: no workspace package `{}`",
                pair[1]
            );
        }
    }
}

/// Every `run:` of a GitHub workflow's steps, with its step.
fn workflow_steps(workflow: &Yaml) -> Vec<&Yaml> {
    let jobs = key(workflow, "jobs")
        .as_hash()
        .expect("a workflow has jobs");
    jobs.values()
        .flat_map(|job| {
            assert!(
                !key(job, "runs-on").is_badvalue(),
                "every job says where it runs"
            );
            key(job, "steps")
                .as_vec()
                .expect("every job has steps")
                .iter()
        })
        .collect()
}

fn check_workflow_shape(file: &str, workflow: &Yaml) {
    assert!(
        text(key(workflow, "name")).is_some(),
        "{file}: a workflow has a name"
    );
    assert!(
        !key(workflow, "on").is_badvalue(),
        "{file}: a workflow says when it runs"
    );
    for step in workflow_steps(workflow) {
        let uses = text(key(step, "uses"));
        let run = text(key(step, "run"));
        assert!(
            uses.is_some() != run.is_some(),
            "{file}: a step has exactly one of `uses` and `run`: {step:?}"
        );
        if let Some(action) = uses {
            let (_, version) = action
                .split_once('@')
                .unwrap_or_else(|| panic!("{file}: `{action}` is not pinned to a version"));
            assert!(
                version.starts_with('v'),
                "{file}: `{action}` is pinned to a release"
            );
        }
    }
}

/// Every command a GitHub workflow runs: `run:` steps and the commands of
/// Classroom's command grader.
fn workflow_commands(workflow: &Yaml) -> Vec<String> {
    let mut commands = Vec::new();
    for step in workflow_steps(workflow) {
        commands.extend(text(key(step, "run")));
        commands.extend(text(key(key(step, "with"), "command")));
        commands.extend(text(key(key(step, "with"), "setup-command")));
    }
    commands
}

/// The student grading workflow runs the real grader against the pristine
/// course, writes the step summary and the JUnit report it uploads.
#[test]
fn the_grading_workflow_runs_the_grader_on_the_pristine_course() {
    let course = Course::load(&root()).expect("the course loads");
    let workflow = load("github/grade.yml");
    check_workflow_shape("github/grade.yml", &workflow);
    let commands = workflow_commands(&workflow);
    let mut graded = false;
    for command in &commands {
        check_cargo_command("github/grade.yml", command);
        if let Some(args) = grader_args(command) {
            check_grader_command("github/grade.yml", &args, &course);
            assert!(
                args.contains(&"--course".to_owned()),
                "the grader is given the pristine course"
            );
            assert!(
                command.contains("$GITHUB_STEP_SUMMARY"),
                "the grade goes to the step summary"
            );
            assert!(
                args.contains(&"--junit".to_owned()),
                "a JUnit report is written"
            );
            graded = true;
        }
    }
    assert!(graded, "github/grade.yml runs the grader");
    let uploads: Vec<String> = workflow_steps(&workflow)
        .into_iter()
        .filter(|step| {
            text(key(step, "uses")).is_some_and(|uses| uses.starts_with("actions/upload-artifact@"))
        })
        .filter_map(|step| text(key(key(step, "with"), "path")))
        .collect();
    assert!(
        uploads.iter().any(|path| path.contains("grade-junit.xml")),
        "the JUnit report is kept"
    );
}

/// GitHub Classroom: one `autograding-command-grader` test per exercise,
/// with only the inputs that action documents (test-name, setup-command,
/// command, timeout in minutes up to 360, max-score), each worth its
/// exercise's points and passing only at full marks; and the reporter
/// lists every test in `runners` with its `ID_RESULTS` variable.
/// The Classroom workflow grades once, with `--classroom "$GITHUB_OUTPUT"`,
/// and its reporter runs whatever happened, reading one result per
/// exercise under an id the reporter accepts (letters, digits, `_`), with
/// a fallback worth 0 of the exercise's points. (That the file equals what
/// the manifests generate is `xtask`'s test.)
#[test]
fn the_classroom_setup_gives_each_exercise_its_points() {
    let course = Course::load(&root()).expect("the course loads");
    let workflow = load("github/classroom.yml");
    check_workflow_shape("github/classroom.yml", &workflow);
    assert_eq!(
        text(&key(&workflow, "permissions")["checks"]).as_deref(),
        Some("write")
    );
    let steps = workflow_steps(&workflow);
    let graders: Vec<&Yaml> = steps
        .iter()
        .copied()
        .filter(|step| {
            text(key(step, "run"))
                .and_then(|command| grader_args(&command))
                .is_some()
        })
        .collect();
    assert_eq!(graders.len(), 1, "the workflow grades once");
    let grade = graders[0];
    assert_eq!(text(key(grade, "id")).as_deref(), Some("grade"));
    let command = text(key(grade, "run")).unwrap_or_default();
    let args = grader_args(&command).expect("the grade step runs the grader");
    check_grader_command("github/classroom.yml", &args, &course);
    assert!(
        args.windows(2).any(|pair| pair[0] == "--classroom"),
        "the grade step writes Classroom's results"
    );
    assert!(
        !args.contains(&"--require-full-marks".to_owned()),
        "partial credit: the grade step does not fail below full marks"
    );
    let reporter = steps
        .iter()
        .find(|step| {
            text(key(step, "uses")).as_deref()
                == Some("classroom-resources/autograding-grading-reporter@v1")
        })
        .expect("the workflow reports to Classroom");
    assert_eq!(
        text(key(reporter, "if")).as_deref(),
        Some("always()"),
        "the reporter runs whatever happened"
    );
    let ids: Vec<String> = course
        .exercises
        .iter()
        .map(|exercise| exercise.name().replace('-', "_"))
        .collect();
    for id in &ids {
        assert!(
            id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "runner id {id} is letters, digits and underscores"
        );
        let variable = format!("{}_RESULTS", id.to_uppercase());
        let value = text(key(key(reporter, "env"), &variable)).unwrap_or_default();
        assert!(
            value.starts_with(&format!("${{{{ steps.grade.outputs.{id} || '")),
            "the reporter reads the grade step's result for `{id}`, with a fallback: {value}"
        );
    }
    assert_eq!(
        text(key(key(reporter, "with"), "runners")),
        Some(ids.join(",")),
        "one runner per exercise, in the book's order"
    );
}

/// The Pages workflow builds the book with the mdbook version the tests
/// use, and deploys what it built.
#[test]
fn the_pages_workflow_builds_the_tested_book() {
    let workflow = load("github/book-pages.yml");
    check_workflow_shape("github/book-pages.yml", &workflow);
    let test_script = std::fs::read_to_string(root().join("ci/test.sh")).expect("ci/test.sh");
    let version = test_script
        .lines()
        .find_map(|line| line.strip_prefix("mdbook_version="))
        .expect("ci/test.sh names its mdbook version");
    let commands = workflow_commands(&workflow).join("\n");
    assert!(
        commands.contains(&format!("mdbook --version ={version}")),
        "mdbook {version} is installed"
    );
    assert!(commands.contains("mdbook build book"), "the book is built");
    let uses: Vec<String> = workflow_steps(&workflow)
        .into_iter()
        .filter_map(|step| text(key(step, "uses")))
        .collect();
    assert!(
        uses.iter()
            .any(|uses| uses.starts_with("actions/upload-pages-artifact@"))
    );
    assert!(
        uses.iter()
            .any(|uses| uses.starts_with("actions/deploy-pages@"))
    );
    assert!(root().join("book/book.toml").is_file());
}

/// GitLab: a job on the pinned toolchain's image runs the grader on the
/// pristine course and publishes the JUnit report it writes.
#[test]
fn the_gitlab_job_publishes_the_junit_report() {
    let course = Course::load(&root()).expect("the course loads");
    let pipeline = load("gitlab/gitlab-ci.yml");
    let job = key(&pipeline, "grade");
    let toolchain =
        std::fs::read_to_string(root().join("rust-toolchain.toml")).expect("toolchain file");
    let channel = toolchain
        .lines()
        .find_map(|line| line.strip_prefix("channel = "))
        .map(|channel| channel.trim_matches('"').to_owned())
        .expect("the toolchain is pinned");
    assert_eq!(
        text(key(job, "image")),
        Some(format!("rust:{channel}")),
        "the image is the pinned toolchain"
    );
    let script: Vec<String> = key(job, "script")
        .as_vec()
        .expect("the job has a script")
        .iter()
        .filter_map(text)
        .collect();
    let junit =
        text(&key(job, "artifacts")["reports"]["junit"]).expect("a JUnit report is published");
    let mut graded = false;
    for command in &script {
        check_cargo_command("gitlab/gitlab-ci.yml", command);
        if let Some(args) = grader_args(command) {
            check_grader_command("gitlab/gitlab-ci.yml", &args, &course);
            let at = args
                .iter()
                .position(|arg| arg == "--junit")
                .expect("--junit");
            assert_eq!(
                args.get(at + 1),
                Some(&junit),
                "the published report is the one written"
            );
            assert!(
                args.contains(&"--course".to_owned()),
                "the grader is given the pristine course"
            );
            graded = true;
        }
    }
    assert!(graded, "the job runs the grader");
}
