//! Grading a class: many submissions, one gradebook.
//!
//! **Invariant**: one submission's grade never depends on another's, and
//! never stops the class. Each submission is graded by its own grader
//! process (this binary again, in its own slot, with the same course,
//! limits and seed); a grade that fails (exit 2, a crash, a signal, a
//! report that does not parse, no report within the class's time bound)
//! becomes that student's row with 0 points and the reason, and the next
//! submission is graded. Builds share the grader's target directory, which
//! holds only builds in which no submission code runs (see `--target-dir`),
//! so sharing it makes later grades warm without letting one submission
//! see another's files.
//!
//! What a submission controls (its folder name) is written escaped: in the
//! CSV, a cell a spreadsheet would run as a formula starts with `'`; in
//! file names, only ASCII letters, digits, `-`, `_` and `.` are kept.

use crate::report::{ExerciseStatus, Report};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use xsafe_sandbox::submission::{escape, is_real_dir};

/// One submission of the class.
#[derive(Debug, Clone)]
pub struct Student {
    /// The name in the gradebook: the folder's name, or the list's.
    pub name: String,
    /// Where it is: a folder, or a git URL (cloned before grading).
    pub source: Source,
}

/// Where a submission comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A folder on disk.
    Folder(PathBuf),
    /// A git URL (or a path to a repository), cloned into the work folder.
    Git(String),
}

/// The submissions of a class: every folder directly inside `class` (as
/// GitHub Classroom's tools download them, one clone per student), or,
/// when `class` is a file, one per line: `URL` or `NAME URL`, where URL is
/// anything `git clone` takes (blank lines and `#` comments skipped).
pub fn students(class: &Path) -> Result<Vec<Student>, String> {
    if is_real_dir(class) {
        let mut students: Vec<Student> = std::fs::read_dir(class)
            .map_err(|err| format!("cannot read {}: {err}", class.display()))?
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
            .map(|entry| Student {
                name: escape(&entry.file_name().to_string_lossy()),
                source: Source::Folder(entry.path()),
            })
            .collect();
        students.sort_by(|a, b| a.name.cmp(&b.name));
        return Ok(students);
    }
    let text = std::fs::read_to_string(class).map_err(|err| {
        format!(
            "{}: neither a folder of submissions nor a list of them: {err}",
            class.display()
        )
    })?;
    let mut students = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, url) = match words.as_slice() {
            [url] => (repository_name(url), *url),
            [name, url] => ((*name).to_owned(), *url),
            _ => {
                return Err(format!(
                    "{}:{}: expected `URL` or `NAME URL`",
                    class.display(),
                    number + 1
                ));
            }
        };
        students.push(Student {
            name: escape(&name),
            source: Source::Git(url.to_owned()),
        });
    }
    Ok(students)
}

/// `https://host/org/assignment-alice.git` gives `assignment-alice`.
fn repository_name(url: &str) -> String {
    let last = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or(url);
    last.strip_suffix(".git").unwrap_or(last).to_owned()
}

/// A name safe as a file name: ASCII letters, digits, `-`, `_`, `.`; never
/// empty, never `.` or `..`.
pub fn file_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if kept.trim_matches('.').is_empty() {
        format!("student{}", kept.len())
    } else {
        kept
    }
}

/// A CSV cell a spreadsheet shows as text: one starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return (a formula to a spreadsheet) gets a
/// leading `'`. Quoting is the CSV writer's.
pub fn cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// One student's outcome.
#[derive(Debug)]
pub struct Row {
    pub name: String,
    /// The report, when the grade finished.
    pub report: Option<Report>,
    /// Why there is no report.
    pub error: Option<String>,
    pub seconds: f64,
}

impl Row {
    /// The points of exercise `name`, if the grade finished and has it.
    pub fn points_of(&self, name: &str) -> Option<u32> {
        let report = self.report.as_ref()?;
        let exercise = report.exercises.iter().find(|e| e.name == name)?;
        Some(exercise.points)
    }

    /// The points of `exercises` together (0 for any not graded).
    pub fn total(&self, exercises: &[String]) -> u32 {
        exercises
            .iter()
            .filter_map(|name| self.points_of(name))
            .sum()
    }
}

/// How to run one grade: the grader binary and the arguments every grade
/// of the class shares (course, work folder, target folder, limits, seed,
/// exercises, toolchain).
pub struct Runner {
    pub program: PathBuf,
    pub shared: Vec<String>,
    pub work_dir: PathBuf,
    /// The longest one submission's grade may take, end to end.
    pub bound: Duration,
}

impl Runner {
    /// Grades `student` into `folder` (its report.json and report.md).
    pub fn grade(&self, student: &Student, folder: &Path) -> Row {
        let started = Instant::now();
        let outcome = self.try_grade(student, folder);
        let (report, error) = match outcome {
            Ok(report) => (Some(report), None),
            Err(reason) => (None, Some(reason)),
        };
        Row {
            name: student.name.clone(),
            report,
            error,
            seconds: started.elapsed().as_secs_f64(),
        }
    }

    fn try_grade(&self, student: &Student, folder: &Path) -> Result<Report, String> {
        std::fs::create_dir_all(folder)
            .map_err(|err| format!("cannot create {}: {err}", folder.display()))?;
        let (submission, revision) = match &student.source {
            Source::Folder(path) => (path.clone(), None),
            // A clone has no checkout: its tree reaches the disk only
            // through `--rev`, which counts it first (see `export_revision`).
            Source::Git(url) => (
                self.clone_repository(url, &file_name(&student.name))?,
                (!self.shared.iter().any(|arg| arg == "--rev")).then_some(["--rev", "HEAD"]),
            ),
        };
        let json = folder.join("report.json");
        let _ = std::fs::remove_file(&json);
        let mut child = Command::new(&self.program)
            .arg(&submission)
            .args(&self.shared)
            .args(revision.iter().flatten())
            .arg("--json")
            .arg(&json)
            .arg("--markdown")
            .arg(folder.join("report.md"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot start the grader: {err}"))?;
        let stderr = child.stderr.take();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut stderr) = stderr {
                use std::io::Read as _;
                let _ = stderr.by_ref().take(64 * 1024).read_to_string(&mut text);
                let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            }
            text
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() > self.bound => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "the grade took longer than {} s and was stopped",
                        self.bound.as_secs()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(100)),
                Err(err) => return Err(format!("cannot wait for the grader: {err}")),
            }
        };
        let stderr = reader.join().unwrap_or_default();
        if status.code() == Some(2) || !json.exists() {
            let last = stderr
                .lines()
                .rev()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("no message");
            return Err(format!(
                "could not grade ({status}): {}",
                escape(last.trim())
            ));
        }
        let text = std::fs::read_to_string(&json)
            .map_err(|err| format!("cannot read the report: {err}"))?;
        serde_json::from_str(&text).map_err(|err| format!("the report does not parse: {err}"))
    }

    /// Clones `url` afresh into the work folder (a shallow clone, without a
    /// checkout: nothing of its tree is written until it is counted), and
    /// returns the clone.
    fn clone_repository(&self, url: &str, name: &str) -> Result<PathBuf, String> {
        let into = self.work_dir.join("class-clones").join(name);
        let _ = std::fs::remove_dir_all(&into);
        if let Some(parent) = into.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|err| format!("cannot create {}: {err}", parent.display()))?;
        }
        let output = Command::new("git")
            .args([
                "clone",
                "--quiet",
                "--no-checkout",
                "--depth",
                "1",
                "--no-recurse-submodules",
                "--",
            ])
            .arg(url)
            .arg(&into)
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(Stdio::null())
            .output()
            .map_err(|err| format!("cannot run git: {err}"))?;
        if !output.status.success() {
            let message = String::from_utf8_lossy(&output.stderr);
            return Err(format!(
                "cannot clone {}: {}",
                escape(url),
                escape(message.trim())
            ));
        }
        Ok(into)
    }
}

/// What a gradebook is of, beside its rows: the exercises graded (each
/// with its points), the seed every grade used, and the course's identity.
/// A sharded run records it in each part, and the merge refuses parts
/// whose headers differ (see [`crate::merge`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The exercises graded, in the book's order, with their points.
    pub exercises: Vec<(String, u32)>,
    /// The seed of every behaviour case's inputs.
    pub seed: u64,
    /// The course the cases came from.
    pub course: crate::merge::CourseId,
}

impl Header {
    fn names(&self) -> Vec<String> {
        self.exercises
            .iter()
            .map(|(name, _)| name.clone())
            .collect()
    }
}

/// Writes `grades.csv` and `gradebook.md` into `dir` (the rows in order).
pub fn write_gradebook(dir: &Path, header: &Header, rows: &[Row]) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|err| format!("cannot write {}: {err}", path.display()))
    };
    write("grades.csv", &csv(header, rows)?)?;
    write("gradebook.md", &markdown(header, rows))
}

/// Each student's folder name under `students/`: [`file_name`] of the
/// name, with `-2`, `-3`... for a name already taken, in roster order (so
/// a shard, which sees the whole roster, names its students' folders as
/// the unsharded run does).
pub fn folders(students: &[Student]) -> Vec<String> {
    let mut taken = std::collections::BTreeSet::new();
    students
        .iter()
        .map(|student| {
            let base = file_name(&student.name);
            let mut name = base.clone();
            let mut n = 1;
            while !taken.insert(name.clone()) {
                n += 1;
                name = format!("{base}-{n}");
            }
            name
        })
        .collect()
}

/// The gradebook as CSV: a row per student, a column per exercise (its
/// points, empty when not graded), the total, the maximum, and the status.
pub fn csv(header: &Header, rows: &[Row]) -> Result<String, String> {
    let exercises = header.names();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["student".to_owned()];
    head.extend(exercises.iter().cloned());
    head.extend(["total".to_owned(), "max".to_owned(), "status".to_owned()]);
    writer.write_record(&head).map_err(|err| err.to_string())?;
    let max: u32 = header.exercises.iter().map(|(_, max)| max).sum();
    for row in rows {
        let mut record = vec![cell(&row.name)];
        for name in &exercises {
            record.push(row.points_of(name).map_or(String::new(), |p| p.to_string()));
        }
        record.push(row.total(&exercises).to_string());
        record.push(max.to_string());
        record.push(cell(&status(row)));
        writer
            .write_record(&record)
            .map_err(|err| err.to_string())?;
    }
    let bytes = writer.into_inner().map_err(|err| err.to_string())?;
    String::from_utf8(bytes).map_err(|err| err.to_string())
}

/// A row's status in words: `graded`, `graded; missing: NAME, ...`, or
/// `not graded: REASON`.
pub fn status(row: &Row) -> String {
    match (&row.report, &row.error) {
        (Some(report), _) => {
            let missing: Vec<&str> = report
                .exercises
                .iter()
                .filter(|exercise| exercise.status != ExerciseStatus::Graded)
                .map(|exercise| exercise.name.as_str())
                .collect();
            let broken: Vec<&str> = report
                .exercises
                .iter()
                .filter(|exercise| exercise.crate_errors.is_some())
                .map(|exercise| exercise.name.as_str())
                .collect();
            let mut status = "graded".to_owned();
            if !missing.is_empty() {
                status.push_str(&format!("; not graded: {}", missing.join(", ")));
            }
            if !broken.is_empty() {
                status.push_str(&format!("; does not compile: {}", broken.join(", ")));
            }
            status
        }
        (None, Some(error)) => format!("not graded: {error}"),
        (None, None) => "not graded".to_owned(),
    }
}

/// The gradebook as Markdown: the class's table (escaped as the report's
/// Markdown is), then the seed that reproduces every grade and the course
/// graded against. Nothing in it depends on the run's timing or on how the
/// class was sharded.
pub fn markdown(header: &Header, rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let md = xsafe_report::render::for_markdown;
    let exercises = header.names();
    let seed = header.seed;
    let mut text = format!("# Gradebook: {} submissions\n\n| Student |", rows.len());
    for (name, max) in &header.exercises {
        let _ = write!(text, " {name} (/{max}) |");
    }
    text.push_str(" Total | Status |\n|---|");
    for _ in &exercises {
        text.push_str("---:|");
    }
    text.push_str("---:|---|\n");
    for row in rows {
        let _ = write!(text, "| {} |", md(&row.name));
        for name in &exercises {
            match row.points_of(name) {
                Some(points) => {
                    let _ = write!(text, " {points} |");
                }
                None => text.push_str(" - |"),
            }
        }
        let _ = writeln!(text, " {} | {} |", row.total(&exercises), md(&status(row)));
    }
    let _ = writeln!(
        text,
        "\nEvery grade used the seed `{seed:#x}`: `xsafe-grader SUBMISSION --seed {seed:#x}` grades one again with the same inputs."
    );
    let _ = writeln!(
        text,
        "\nThe cases came from the course at commit `{}` (its exercises' files: fingerprint `{}`).",
        md(&header.course.commit),
        header.course.fingerprint
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_stay_text_in_a_spreadsheet() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell("-1+2"), "'-1+2");
        assert_eq!(cell("alice"), "alice");
    }

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_name("alice-smith"), "alice-smith");
        assert_eq!(file_name("../../etc"), ".._.._etc");
        assert_eq!(file_name(".."), "student2");
        assert_eq!(file_name("a\u{1b}[2Jb"), "a__2Jb");
    }

    #[test]
    fn repository_names_come_from_the_url() {
        assert_eq!(
            repository_name("https://github.com/org/hw-alice.git"),
            "hw-alice"
        );
        assert_eq!(repository_name("git@github.com:org/hw-bob"), "hw-bob");
        assert_eq!(repository_name("/srv/class/carol/"), "carol");
    }

    #[test]
    fn a_list_names_each_submission() {
        let dir = std::env::temp_dir().join(format!("xsafe-class-list-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let list = dir.join("class.txt");
        std::fs::write(&list, "# the class\nalice /srv/a.git\n\n/srv/hw-bob.git\n").expect("write");
        let students = students(&list).expect("a list");
        let names: Vec<&str> = students.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["alice", "hw-bob"]);
        std::fs::write(&list, "a b c\n").expect("write");
        assert!(students_err(&list).contains(":1: expected"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn students_err(path: &Path) -> String {
        students(path).err().unwrap_or_default()
    }
}
