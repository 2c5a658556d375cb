//! The check of every quiz's answer key: each program is compiled against
//! the reference crate of its chapter (or of every chapter, for the
//! course's quiz) in one cargo build, judged by the grading engine, run if
//! it compiled, and compared with the answer the quiz gives.

use crate::engine::{Build, Engine};
use crate::quiz::{
    COURSE_QUIZ, Claim, Kind, Problem, Question, Quiz, Tracing, lint, lint_together,
};
use crate::shim::{Verdict, Verdicts};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xsafe_course::{Course, git_blob_id};

/// Where to read quizzes and build their programs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The folder of the quiz files (`book/quizzes`).
    pub quizzes: PathBuf,
    /// Where to generate the programs' workspace and build it
    /// (`target/quiz`).
    pub work: PathBuf,
    /// Whether to check that each chapter includes its quiz (off for test
    /// fixtures, which no chapter includes).
    pub chapters: bool,
}

impl Options {
    /// The book's quizzes, built under the course's `target/quiz`.
    pub fn course(root: &Path) -> Options {
        Options {
            quizzes: root.join("book/quizzes"),
            work: root.join("target/quiz"),
            chapters: true,
        }
    }
}

/// One quiz, checked.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Its file stem.
    pub name: String,
    /// How many questions it has (each part of a group counts).
    pub questions: usize,
    /// How many of them are Tracing questions whose program the compiler
    /// rejects.
    pub rejected: usize,
    /// How many are Tracing questions whose program compiles and runs.
    pub compiled: usize,
    /// The chapter files that include it.
    pub included_by: Vec<String>,
}

/// The outcome of the check.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Every quiz read, in file order.
    pub quizzes: Vec<Summary>,
    /// Everything wrong: an empty list means every answer is right.
    pub problems: Vec<Problem>,
    /// What the compiler made of each program, for mdbook-quiz's own
    /// validator (see `shim`).
    pub verdicts: Verdicts,
    /// `rustc --version` of the toolchain that judged.
    pub toolchain: String,
    /// Time spent in the one cargo build.
    pub build_time: Duration,
    /// Time spent judging the programs and running those that compiled.
    pub judge_time: Duration,
    /// Time spent in all.
    pub total_time: Duration,
}

/// A program of a quiz, as the check builds it.
struct Program<'a> {
    quiz: &'a Quiz,
    question: &'a Question,
    /// The bin target's source in the generated workspace.
    source: PathBuf,
}

/// Checks every quiz in `options.quizzes` against the course at `root`.
/// `Err` only when the check itself could not run (the toolchain cannot
/// be found, cargo cannot start, a folder cannot be written).
pub fn check(root: &Path, options: &Options) -> Result<Checked, String> {
    let started = Instant::now();
    let course = Course::load(root).map_err(|err| err.to_string())?;
    let mut problems = Vec::new();

    let mut files: Vec<PathBuf> = std::fs::read_dir(&options.quizzes)
        .map_err(|err| format!("cannot read {}: {err}", options.quizzes.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    let mut quizzes = Vec::new();
    for file in &files {
        match Quiz::read(file) {
            Ok(quiz) => quizzes.push(quiz),
            Err(problem) => problems.push(problem),
        }
    }

    let mut ids: BTreeMap<&str, &Path> = BTreeMap::new();
    for quiz in &quizzes {
        problems.extend(lint(quiz));
        for question in &quiz.questions {
            if question.id.is_empty() {
                continue;
            }
            if let Some(first) = ids.insert(&question.id, &quiz.path) {
                problems.push(quiz.problem(
                    Some(question),
                    format!(
                        "its id is also used in {}: mdbook-quiz refuses duplicate ids",
                        first.display()
                    ),
                ));
            }
        }
    }

    // Which crates each quiz's programs use.
    let mut crates: BTreeMap<String, Vec<(String, PathBuf)>> = BTreeMap::new();
    for quiz in &quizzes {
        let exercises: Vec<_> = if quiz.base() == COURSE_QUIZ {
            course.exercises.iter().collect()
        } else if is_primer(quiz.base()) {
            // A primer's programs use std only.
            Vec::new()
        } else {
            match course.exercise(quiz.base()) {
                Some(exercise) => vec![exercise],
                None => {
                    problems.push(quiz.problem(
                        None,
                        format!(
                            "no exercise is called `{}`: a quiz is named after its chapter's exercise, after its primer (`primer-NAME`, the page book/src/primer-NAME.md), or `{COURSE_QUIZ}` for the whole course, with `.SECTION` after the name for one section's quiz",
                            quiz.base()
                        ),
                    ));
                    continue;
                }
            }
        };
        let mut dependencies = Vec::new();
        for exercise in exercises {
            let dir = course.root.join("solutions").join(exercise.name());
            match package_name(&dir) {
                Ok(package) => dependencies.push((package, dir)),
                Err(what) => problems.push(quiz.problem(None, what)),
            }
        }
        crates.insert(quiz.name.clone(), dependencies);
    }

    // Which chapter includes which quiz.
    let mut included: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    if options.chapters {
        let (inclusions, chapter_problems) = inclusions(&course, &options.quizzes);
        included = inclusions;
        problems.extend(chapter_problems);
        for exercise in &course.exercises {
            let own: Vec<&Quiz> = quizzes
                .iter()
                .filter(|quiz| quiz.base() == exercise.name())
                .collect();
            let quiz = options.quizzes.join(format!("{}.toml", exercise.name()));
            if own.is_empty() {
                problems.push(Problem {
                    quiz,
                    question: None,
                    what: format!("the chapter of `{}` has no quiz", exercise.name()),
                });
            } else if !own.iter().any(|quiz| {
                included
                    .get(&canonical(&quiz.path))
                    .is_some_and(|chapters| chapters.contains(&exercise.manifest.chapter))
            }) {
                problems.push(Problem {
                    quiz,
                    question: None,
                    what: format!(
                        "book/src/{} includes none of its quizzes: put `{{{{#quiz ../quizzes/{}.toml}}}}` after the chapter's last section, or `{{{{#quiz ../quizzes/{}.SECTION.toml}}}}` after each section",
                        exercise.manifest.chapter,
                        exercise.name(),
                        exercise.name()
                    ),
                });
            }
        }
        // Every quiz is on some page, and the rules on a whole quiz apply
        // to each page's quizzes together.
        let mut pages: BTreeMap<&str, Vec<&Quiz>> = BTreeMap::new();
        for quiz in &quizzes {
            let by = included.get(&canonical(&quiz.path));
            match by {
                Some(chapters) if !chapters.is_empty() => {
                    for chapter in chapters {
                        pages.entry(chapter.as_str()).or_default().push(quiz);
                    }
                }
                _ => {
                    if !is_primer(quiz.base()) {
                        problems.push(quiz.problem(
                            None,
                            "no page includes it: put `{{#quiz ../quizzes/FILE.toml}}` after the section it tests",
                        ));
                    }
                }
            }
        }
        for (page, on_page) in &pages {
            if on_page.iter().any(|quiz| quiz.is_section()) {
                problems.extend(lint_together(&format!("book/src/{page}"), on_page));
            }
        }
    }

    // Each primer's quiz is included by its primer's page.
    if options.chapters {
        for quiz in quizzes.iter().filter(|quiz| is_primer(quiz.base())) {
            let page = format!("{}.md", quiz.base());
            if !included
                .get(&canonical(&quiz.path))
                .is_some_and(|chapters| chapters.contains(&page))
            {
                problems.push(quiz.problem(
                    None,
                    format!(
                        "book/src/{page} does not include it: end the primer with `{{{{#quiz ../quizzes/{}.toml}}}}`",
                        quiz.name
                    ),
                ));
            }
        }
    }

    // The generated workspace: one package per quiz, one binary per program.
    let workspace = options.work.join("programs");
    let mut programs = Vec::new();
    let mut members = Vec::new();
    for quiz in &quizzes {
        let Some(dependencies) = crates.get(&quiz.name) else {
            continue;
        };
        let package_dir = workspace.join(&quiz.name);
        let mut bins = Vec::new();
        for question in &quiz.questions {
            let Kind::Tracing { program, answer } = &question.kind else {
                continue;
            };
            let file = format!("q{}.rs", question.title);
            let source = package_dir.join("src").join(&file);
            write_if_changed(&source, &annotated(program, answer))?;
            bins.push((
                format!("quiz-{}-{}", package_part(&quiz.name), question.title),
                file,
            ));
            programs.push(Program {
                quiz,
                question,
                source,
            });
        }
        write_if_changed(
            &package_dir.join("Cargo.toml"),
            &package_manifest(&quiz.name, &bins, dependencies),
        )?;
        members.push(quiz.name.clone());
    }
    write_if_changed(&workspace.join("Cargo.toml"), &workspace_manifest(&members))?;
    let lockfile = workspace.join("Cargo.lock");
    if !lockfile.exists() {
        // Dependencies resolve as the course's do.
        std::fs::copy(root.join("Cargo.lock"), &lockfile)
            .map_err(|err| format!("cannot copy Cargo.lock: {err}"))?;
    }

    let engine = Engine::new(root).map_err(|err| format!("cannot find the toolchain: {err}"))?;
    let build_started = Instant::now();
    let packages: Vec<String> = members.iter().map(|name| package(name)).collect();
    let build = if packages.is_empty() {
        None
    } else {
        Some(
            engine
                .build(&workspace, &packages, &options.work.join("target"))
                .map_err(|err| format!("cannot run cargo: {err}"))?,
        )
    };
    let build_time = build_started.elapsed();

    let mut verdicts = Verdicts::default();
    let mut judge_time = Duration::ZERO;
    if let Some(build) = &build {
        if let Some(why) = build.stopped() {
            return Err(format!("the build of the quiz programs was {why}"));
        }
        let dirs: BTreeSet<PathBuf> = crates
            .values()
            .flatten()
            .map(|(_, dir)| dir.clone())
            .collect();
        let dirs: Vec<PathBuf> = dirs.into_iter().collect();
        let crate_errors = build.crate_errors(&dirs);
        if !crate_errors.is_empty() {
            return Err(format!(
                "a reference crate does not compile, so no program can be judged:\n{}",
                crate_errors.join("\n")
            ));
        }
        for program in &programs {
            let started = Instant::now();
            judge(&engine, build, program, &mut problems, &mut verdicts);
            judge_time += started.elapsed();
        }
    }

    let summaries = quizzes
        .iter()
        .map(|quiz| {
            let count = |wanted: fn(&Tracing) -> bool| {
                quiz.questions
                    .iter()
                    .filter(|question| question.tracing().is_some_and(wanted))
                    .count()
            };
            Summary {
                name: quiz.name.clone(),
                questions: quiz.questions.len(),
                rejected: count(|answer| matches!(answer, Tracing::Rejected { .. })),
                compiled: count(|answer| matches!(answer, Tracing::Compiles { .. })),
                included_by: included
                    .get(&canonical(&quiz.path))
                    .cloned()
                    .unwrap_or_default(),
            }
        })
        .collect();
    Ok(Checked {
        quizzes: summaries,
        problems,
        verdicts,
        toolchain: engine.version().to_owned(),
        build_time,
        judge_time,
        total_time: started.elapsed(),
    })
}

/// Judges one program and records the compiler's verdict on it.
fn judge(
    engine: &Engine,
    build: &Build,
    program: &Program<'_>,
    problems: &mut Vec<Problem>,
    verdicts: &mut Verdicts,
) {
    let (quiz, question) = (program.quiz, program.question);
    let Kind::Tracing {
        program: text,
        answer,
    } = &question.kind
    else {
        return;
    };
    let mut problem = |what: String| problems.push(quiz.problem(Some(question), what));
    let compiled = build.compiled(&program.source);
    let executable = build.executable(&program.source);
    let key = git_blob_id(text.as_bytes());
    let verdict = Verdict {
        compiled,
        executable: executable.clone(),
        errors: build.rendered(&program.source),
    };
    if let Some(other) = verdicts.get(&key)
        && other.compiled != verdict.compiled
    {
        problem(
            "the same program appears in another quiz with another verdict; the validator could not tell them apart"
                .to_owned(),
        );
    }
    verdicts.insert(key, verdict);

    match answer {
        Tracing::Rejected {
            line, annotation, ..
        } => {
            let annotated = annotated(text, answer);
            if let Err(why) = build.judge(&program.source, &annotated) {
                problem(format!(
                    "the answer says the compiler rejects line {line} with `{annotation}`, but {why}"
                ));
                return;
            }
            let Some(why) = quiz.follow_up(question) else {
                return;
            };
            let Kind::MultipleChoice {
                answers,
                distractors,
                ..
            } = &why.kind
            else {
                return;
            };
            let reported = build.errors(&program.source);
            let matches = |claim: &Claim| {
                reported
                    .iter()
                    .any(|error| error.line == Some(claim.line) && error.code == claim.code)
            };
            let listed: Vec<&str> = reported
                .iter()
                .map(|error| error.description.as_str())
                .collect();
            let mut problem = |what: String| problems.push(quiz.problem(Some(why), what));
            for choice in answers {
                let Some(claim) = Claim::read(choice) else {
                    continue;
                };
                if claim.line != *line {
                    problem(format!(
                        "its correct choice blames line {}, but the question before it answers line {line}",
                        claim.line
                    ));
                }
                if !matches(&claim) {
                    problem(format!(
                        "its correct choice blames {claim}, but the compiler reports {}",
                        listed.join(", ")
                    ));
                }
            }
            for choice in distractors {
                if let Some(claim) = Claim::read(choice)
                    && matches(&claim)
                {
                    problem(format!(
                        "the wrong choice `{choice}` blames {claim}, which is what the compiler reports"
                    ));
                }
            }
        }
        Tracing::Compiles { stdout } => {
            let Some(executable) = executable.filter(|_| compiled) else {
                let errors: Vec<String> = build
                    .errors(&program.source)
                    .into_iter()
                    .map(|error| error.description)
                    .collect();
                problem(format!(
                    "the answer says the program compiles, but the compiler rejects it: {}",
                    errors.join(", ")
                ));
                return;
            };
            match engine.run(&executable) {
                Err(err) => problem(format!("cannot run the program: {err}")),
                Ok(ran) => {
                    if let Some(failure) = &ran.failure {
                        problem(format!(
                            "the program compiles but fails when it runs: {failure}; it printed on stderr:\n{}",
                            ran.stderr.trim_end()
                        ));
                    } else if ran.stdout.trim() != stdout.trim() {
                        problem(format!(
                            "the answer says the program prints {:?}, but it prints {:?}",
                            stdout.trim(),
                            ran.stdout.trim()
                        ));
                    }
                }
            }
        }
    }
}

/// The program the compiler judges: the reader's program, with the
/// answer's annotation at the end of its line.
pub fn annotated(program: &str, answer: &Tracing) -> String {
    let Tracing::Rejected {
        line,
        annotation,
        more,
    } = answer
    else {
        return program.to_owned();
    };
    let mut out = String::with_capacity(program.len() + annotation.len() + 2);
    for (number, text) in program.split_inclusive('\n').enumerate() {
        let annotation = if number + 1 == *line as usize {
            Some(annotation)
        } else {
            more.iter()
                .find(|(other, _)| *other as usize == number + 1)
                .map(|(_, annotation)| annotation)
        };
        if let Some(annotation) = annotation {
            let (code, newline) = match text.strip_suffix('\n') {
                Some(code) => (code, "\n"),
                None => (text, ""),
            };
            out.push_str(code);
            out.push(' ');
            out.push_str(annotation);
            out.push_str(newline);
        } else {
            out.push_str(text);
        }
    }
    out
}

/// Every `{{#quiz PATH}}` of the book's chapters: which chapter includes
/// which quiz, and the inclusions that name no quiz of the folder.
fn inclusions(course: &Course, quizzes: &Path) -> (BTreeMap<PathBuf, Vec<String>>, Vec<Problem>) {
    let mut included: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    let src = course.root.join("book/src");
    let Ok(entries) = std::fs::read_dir(&src) else {
        return (included, problems);
    };
    let mut chapters: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    chapters.sort();
    for chapter in chapters {
        let Ok(text) = std::fs::read_to_string(&chapter) else {
            continue;
        };
        let name = chapter
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("{{#quiz ") {
            let after = &rest[start + "{{#quiz ".len()..];
            let Some(end) = after.find("}}") else {
                break;
            };
            let target = src.join(after[..end].trim());
            let quiz = canonical(&target);
            if quiz.parent() != Some(canonical(quizzes).as_path()) || !quiz.is_file() {
                problems.push(Problem {
                    quiz: target,
                    question: None,
                    what: format!(
                        "book/src/{name} includes it, but it is not a quiz of book/quizzes"
                    ),
                });
            }
            included.entry(quiz).or_default().push(name.clone());
            rest = &after[end..];
        }
    }
    (included, problems)
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Whether a quiz is a primer's: `primer-NAME`, whose programs use std
/// only.
fn is_primer(quiz: &str) -> bool {
    quiz.strip_prefix("primer-").is_some_and(|rest| {
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
    })
}

/// The package name in a crate's `Cargo.toml`.
fn package_name(dir: &Path) -> Result<String, String> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let table: toml::Table = text
        .parse()
        .map_err(|err| format!("{} is not TOML: {err}", path.display()))?;
    table
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{} names no package", path.display()))
}

/// The generated package of a quiz.
fn package(quiz: &str) -> String {
    format!("xsafe-quiz-{}", package_part(quiz))
}

/// A quiz's name as part of a package or binary name, which cannot hold a
/// dot: `send-marker.spawn` becomes `send-marker--spawn`.
fn package_part(quiz: &str) -> String {
    quiz.replace('.', "--")
}

fn package_manifest(quiz: &str, bins: &[(String, String)], crates: &[(String, PathBuf)]) -> String {
    let mut package_table = toml::Table::new();
    package_table.insert("name".into(), package(quiz).into());
    package_table.insert("version".into(), "0.0.0".into());
    package_table.insert("edition".into(), "2024".into());
    package_table.insert("publish".into(), false.into());
    package_table.insert("autobins".into(), false.into());
    let bins: Vec<toml::Value> = bins
        .iter()
        .map(|(name, file)| {
            let mut bin = toml::Table::new();
            bin.insert("name".into(), name.clone().into());
            bin.insert("path".into(), format!("src/{file}").into());
            bin.into()
        })
        .collect();
    let mut dependencies = toml::Table::new();
    for (name, dir) in crates {
        let mut dependency = toml::Table::new();
        dependency.insert("path".into(), dir.to_string_lossy().into_owned().into());
        dependencies.insert(name.clone(), dependency.into());
    }
    let mut top = toml::Table::new();
    top.insert("package".into(), package_table.into());
    top.insert("bin".into(), bins.into());
    top.insert("dependencies".into(), dependencies.into());
    format!("# Generated by xsafe-book-quiz: the programs of book/quizzes/{quiz}.toml.\n{top}")
}

fn workspace_manifest(members: &[String]) -> String {
    let mut workspace = toml::Table::new();
    workspace.insert("resolver".into(), "3".into());
    workspace.insert(
        "members".into(),
        members
            .iter()
            .map(|member| toml::Value::from(member.clone()))
            .collect::<Vec<_>>()
            .into(),
    );
    let mut profile = toml::Table::new();
    let mut dev = toml::Table::new();
    // No debug info: linking is most of a warm build.
    dev.insert("debug".into(), 0.into());
    profile.insert("dev".into(), dev.into());
    let mut top = toml::Table::new();
    top.insert("workspace".into(), workspace.into());
    top.insert("profile".into(), profile.into());
    format!("# Generated by xsafe-book-quiz: the programs of the book's quizzes.\n{top}")
}

/// Writes `text` to `path` unless it holds it already, so that cargo's
/// fingerprints keep a warm build warm.
fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|err| format!("cannot create {}: {err}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|err| format!("cannot write {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The annotation lands at the end of its line and nowhere else, so
    /// the lines the compiler numbers are the lines the reader sees.
    #[test]
    fn annotation_goes_on_its_line() {
        let answer = Tracing::Rejected {
            line: 2,
            annotation: "//~ ERROR E0308".to_owned(),
            more: vec![(3, "//~ ALLOW E0000".to_owned())],
        };
        assert_eq!(
            annotated("fn main() {\n    let x: u8 = \"\";\n}\n", &answer),
            "fn main() {\n    let x: u8 = \"\"; //~ ERROR E0308\n} //~ ALLOW E0000\n"
        );
        let last = Tracing::Rejected {
            line: 1,
            annotation: "//~ ERROR E0601".to_owned(),
            more: Vec::new(),
        };
        assert_eq!(
            annotated("fn mian() {}", &last),
            "fn mian() {} //~ ERROR E0601"
        );
        let compiles = Tracing::Compiles {
            stdout: String::new(),
        };
        assert_eq!(annotated("fn main() {}\n", &compiles), "fn main() {}\n");
    }
}
