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
    let mut words = shell_words::split(&without_expressions(command))
        .unwrap_or_else(|err| panic!("cannot split {command:?}: {err}"));
    // The command ends where the shell redirects or chains it.
    if let Some(end) = words
        .iter()
        .position(|word| [">", ">>", "2>", "|", "&&", "||", ";"].contains(&word.as_str()))
    {
        words.truncate(end);
    }
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

/// `command` with each CI variable of `values` replaced by its value, as
/// the CI system would before the shell runs it.
fn with_values(command: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(command.to_owned(), |text, (name, value)| {
            text.replace(name, value)
        })
}

/// The `--shard` of a grader command line, with the other arguments, if it
/// runs the grader.
fn shard_of(args: &[String]) -> Option<String> {
    let at = args.iter().position(|arg| arg == "--shard")?;
    args.get(at + 1).cloned()
}

/// GitHub, a class on many runners: a build job keys its cache by the
/// course's commit and the toolchain; a matrix job per shard restores that
/// cache and grades shard `matrix.shard` of `strategy.job-total` with one
/// seed for every shard, keeping its part as an artifact; a merge job that
/// needs the shards (and runs when one failed, to name it) downloads the
/// parts and merges them. Every grader command line parses.
#[test]
fn the_class_workflow_grades_shards_and_merges_them() {
    let file = "github/grade-class.yml";
    let course = Course::load(&root()).expect("the course loads");
    let workflow = load(file);
    check_workflow_shape(file, &workflow);
    let jobs = key(&workflow, "jobs");
    let shards = key(&jobs["grade"]["strategy"]["matrix"], "shard")
        .as_vec()
        .expect("a matrix of shards");
    let numbers: Vec<i64> = shards.iter().filter_map(Yaml::as_i64).collect();
    assert_eq!(
        numbers,
        (1..=numbers.len() as i64).collect::<Vec<_>>(),
        "shards are numbered 1 to N"
    );
    assert!(numbers.len() >= 2, "a class on several runners");
    let build_steps = key(&jobs["build"], "steps").as_vec().expect("steps");
    let keyed = build_steps.iter().any(|step| {
        text(key(step, "run")).is_some_and(|run| {
            run.contains("git rev-parse HEAD") && run.contains("rustc --version")
        })
    });
    assert!(
        keyed,
        "the cache key names the course's commit and the toolchain"
    );
    let values = [
        ("${{ matrix.shard }}", "2"),
        ("${{ strategy.job-total }}", &*numbers.len().to_string()),
        ("${{ github.run_id }}", "1234567890"),
    ];
    let mut graded = false;
    let mut merged = false;
    for (job, yaml) in jobs.as_hash().expect("jobs") {
        let job = text(job).unwrap_or_default();
        for step in key(yaml, "steps").as_vec().expect("steps") {
            if let Some(uses) = text(key(step, "uses"))
                && uses.starts_with("actions/cache")
            {
                assert!(
                    text(key(key(step, "with"), "key")).is_some_and(|k| {
                        k == "${{ steps.key.outputs.key }}"
                            || k == "${{ needs.build.outputs.cache-key }}"
                    }),
                    "{job}: every cache uses the build job's key"
                );
            }
            let Some(run) = text(key(step, "run")) else {
                continue;
            };
            check_cargo_command(file, &run);
            let Some(args) = grader_args(&with_values(&run, &values)) else {
                continue;
            };
            check_grader_command(file, &args, &course);
            if args.contains(&"--class".to_owned()) {
                assert_eq!(job, "grade");
                assert_eq!(shard_of(&args).as_deref(), Some("2/4"), "{run}");
                assert!(
                    args.contains(&"--seed".to_owned()),
                    "one seed for every shard"
                );
                graded = true;
            }
            if args.contains(&"--merge".to_owned()) {
                assert_eq!(job, "merge");
                merged = true;
            }
        }
    }
    assert!(graded && merged, "{file} grades shards and merges them");
    let needs: Vec<String> = key(&jobs["merge"], "needs")
        .as_vec()
        .expect("the merge needs jobs")
        .iter()
        .filter_map(text)
        .collect();
    assert!(
        needs.contains(&"grade".to_owned()),
        "the merge waits for every shard"
    );
    assert_eq!(
        text(key(&jobs["merge"], "if")).as_deref(),
        Some("${{ !cancelled() }}")
    );
}

/// GitLab, a class on many runners: `parallel: N` grade jobs, each shard
/// `CI_NODE_INDEX/CI_NODE_TOTAL` with the pipeline's id as the seed,
/// keeping its part under `parts/`; a merge job that needs them and runs
/// whatever happened. The cache is keyed by the course's commit and the
/// image's toolchain, and the image is the pinned toolchain.
#[test]
fn the_gitlab_class_pipeline_grades_shards_and_merges_them() {
    let file = "gitlab/grade-class.gitlab-ci.yml";
    let course = Course::load(&root()).expect("the course loads");
    let pipeline = load(file);
    let toolchain =
        std::fs::read_to_string(root().join("rust-toolchain.toml")).expect("toolchain file");
    let channel = toolchain
        .lines()
        .find_map(|line| line.strip_prefix("channel = "))
        .map(|channel| channel.trim_matches('"').to_owned())
        .expect("the toolchain is pinned");
    let template = key(&pipeline, ".course");
    assert_eq!(
        text(key(template, "image")),
        Some(format!("rust:{channel}"))
    );
    for job in [".course", "build"] {
        let cache_key = text(&key(&pipeline, job)["cache"]["key"]).expect("a cache key");
        assert!(
            cache_key.contains("$XSAFE_COURSE_REF") && cache_key.contains(&channel),
            "{job}: the cache is keyed by the course's commit and the toolchain"
        );
    }
    let grade = key(&pipeline, "grade");
    let parallel = key(grade, "parallel").as_i64().expect("parallel: N");
    assert!(parallel >= 2, "a class on several runners");
    let merge = key(&pipeline, "merge");
    assert_eq!(text(key(merge, "when")).as_deref(), Some("always"));
    let needs: Vec<String> = key(merge, "needs")
        .as_vec()
        .expect("needs")
        .iter()
        .filter_map(text)
        .collect();
    assert_eq!(needs, ["grade"]);
    let values = [
        ("$CI_NODE_INDEX", "3"),
        ("$CI_NODE_TOTAL", &*parallel.to_string()),
        ("$CI_PIPELINE_ID", "987654"),
    ];
    let mut graded = false;
    let mut merged = false;
    for job in ["build", "grade", "merge"] {
        let yaml = key(&pipeline, job);
        assert_eq!(text(key(yaml, "extends")).as_deref(), Some(".course"));
        let script = key(yaml, "script").as_vec().expect("a script");
        let before = key(template, "before_script")
            .as_vec()
            .expect("before_script");
        for command in before.iter().chain(script).filter_map(text) {
            check_cargo_command(file, &command);
            let Some(args) = grader_args(&with_values(&command, &values)) else {
                continue;
            };
            check_grader_command(file, &args, &course);
            if args.contains(&"--class".to_owned()) {
                assert_eq!(job, "grade");
                assert_eq!(shard_of(&args), Some(format!("3/{parallel}")), "{command}");
                assert!(
                    args.contains(&"--seed".to_owned()),
                    "one seed for every shard"
                );
                assert!(
                    args.windows(2)
                        .any(|pair| pair[0] == "--gradebook" && pair[1] == "parts/shard-3"),
                    "each shard writes its own part under parts/: {command}"
                );
                graded = true;
            }
            if args.contains(&"--merge".to_owned()) {
                assert_eq!(job, "merge");
                assert_eq!(args.first().map(String::as_str), Some("parts"));
                merged = true;
            }
        }
    }
    let kept: Vec<String> = key(&grade["artifacts"], "paths")
        .as_vec()
        .expect("the parts are kept")
        .iter()
        .filter_map(text)
        .collect();
    assert_eq!(kept, ["parts/"]);
    assert!(graded && merged, "{file} grades shards and merges them");
}
