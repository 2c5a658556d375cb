//! Parts of a sharded class, and their merge into one gradebook.
//!
//! **Invariant**: a merged gradebook equals the one an unsharded run would
//! write (`grades.csv` and `gradebook.md` byte for byte, the students'
//! reports as each shard wrote them), or the merge refuses and says why.
//!
//! A shard (`--class --shard K/N`) writes a *part* into its `--gradebook`
//! folder: [`PART_FILE`], which records what the gradebook is of (the
//! [`Header`]: exercises and their points, seed, course identity), the
//! settings every grade shared (limits, toolchain, Miri, revision), the
//! roster's size and fingerprint, K and N, and the shard's rows with their
//! positions in the roster; and `students/FOLDER/`, each of its students'
//! reports. The merge takes a folder holding the parts (one sub-folder
//! each, as CI downloads them) and refuses, naming the part:
//!
//! * a part of another course (another commit, or other exercise files),
//!   another seed, other settings, or other exercises;
//! * a part of another roster (its students, their sources or their order
//!   differ), or of another N;
//! * a shard given twice, or a shard missing (named);
//! * rows that do not cover the roster exactly once.
//!
//! Rows are written in roster order, which is the unsharded run's order.

use crate::class::{Header, Row, Source, Student};
use crate::report::Report;
use crate::shard::Shard;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use xsafe_grade::Course;

/// The file that makes a folder a shard's part.
pub const PART_FILE: &str = "part.json";

/// What a part's [`PART_FILE`] says it is.
const FORMAT: &str = "xsafe-gradebook-part";
const VERSION: u64 = 1;

/// The course a class was graded against: its git commit (`HEAD` of the
/// course's checkout, or `none`) and a fingerprint of the graded
/// exercises' files (their cases, manifests and starters), which also
/// tells two uncommitted edits apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CourseId {
    pub commit: String,
    pub fingerprint: String,
}

impl CourseId {
    /// The identity of `course`, for the exercises `exercises`.
    pub fn of(course: &Course, exercises: &[String]) -> CourseId {
        let commit = Command::new("git")
            .arg("-C")
            .arg(&course.root)
            .args(["rev-parse", "--verify", "--quiet", "HEAD"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
            .filter(|commit| !commit.is_empty())
            .unwrap_or_else(|| "none".to_owned());
        let mut hash = Fingerprint::new();
        for name in exercises {
            hash.write(name.as_bytes());
            let Some(exercise) = course.exercise(name) else {
                continue;
            };
            let files = walkdir::WalkDir::new(&exercise.dir)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|entry| entry.file_name() != "target")
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_file());
            for entry in files {
                let relative = entry
                    .path()
                    .strip_prefix(&exercise.dir)
                    .unwrap_or(entry.path());
                hash.write(relative.to_string_lossy().as_bytes());
                hash.write(&std::fs::read(entry.path()).unwrap_or_default());
            }
        }
        CourseId {
            commit,
            fingerprint: hash.hex(),
        }
    }
}

/// The roster a class was graded from: how many students, and a
/// fingerprint of their names and sources in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roster {
    pub students: usize,
    pub fingerprint: String,
}

impl Roster {
    pub fn of(students: &[Student]) -> Roster {
        let mut hash = Fingerprint::new();
        for student in students {
            hash.write(student.name.as_bytes());
            match &student.source {
                Source::Folder(path) => hash.write(path.to_string_lossy().as_bytes()),
                Source::Git(url) => hash.write(url.as_bytes()),
            }
        }
        Roster {
            students: students.len(),
            fingerprint: hash.hex(),
        }
    }
}

/// One student's row in a part: its position in the roster and its folder
/// under `students/`.
#[derive(Debug)]
pub struct PartRow {
    pub index: usize,
    pub folder: String,
    pub row: Row,
}

/// A shard's part of the gradebook.
#[derive(Debug)]
pub struct Part {
    /// Where it was read from (or is written to).
    pub dir: PathBuf,
    pub shard: Shard,
    pub header: Header,
    /// The arguments every grade shared that change a grade (limits,
    /// toolchain, Miri, revision, exercises), as given to each grader.
    pub settings: Vec<String>,
    /// What this runner graded with that no argument fixes: the
    /// toolchain's `rustc --version`, and Miri's version or its absence.
    /// Runners with another compiler, or one without Miri, grade some
    /// cases differently, so their parts do not merge.
    pub tools: Vec<String>,
    pub roster: Roster,
    pub rows: Vec<PartRow>,
}

impl Part {
    /// Writes [`PART_FILE`] into the part's folder (the students' reports
    /// are already there, written by their graders).
    pub fn write(&self) -> Result<(), String> {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|part_row| {
                json!({
                    "index": part_row.index,
                    "name": part_row.row.name,
                    "folder": part_row.folder,
                    "error": part_row.row.error,
                    "graded": part_row.row.report.is_some(),
                    "seconds": part_row.row.seconds,
                })
            })
            .collect();
        let exercises: Vec<Value> = self
            .header
            .exercises
            .iter()
            .map(|(name, max)| json!({ "name": name, "max_points": max }))
            .collect();
        let value = json!({
            "format": FORMAT,
            "version": VERSION,
            "shard": { "k": self.shard.k(), "n": self.shard.n() },
            "course": {
                "commit": self.header.course.commit,
                "fingerprint": self.header.course.fingerprint,
            },
            "seed": format!("{:#x}", self.header.seed),
            "exercises": exercises,
            "settings": self.settings,
            "tools": self.tools,
            "roster": {
                "students": self.roster.students,
                "fingerprint": self.roster.fingerprint,
            },
            "rows": rows,
        });
        let text = serde_json::to_string_pretty(&value)
            .map_err(|err| format!("cannot write the part: {err}"))?;
        let path = self.dir.join(PART_FILE);
        std::fs::write(&path, text + "\n")
            .map_err(|err| format!("cannot write {}: {err}", path.display()))
    }

    /// Reads the part in `dir`, with each graded student's report.
    pub fn read(dir: &Path) -> Result<Part, String> {
        let path = dir.join(PART_FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|err| format!("{} is not a shard's part: {err}", path.display()))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|err| format!("{} does not parse: {err}", path.display()))?;
        let bad = |what: &str| format!("{}: {what} is missing or malformed", path.display());
        if value["format"] != FORMAT || value["version"].as_u64() != Some(VERSION) {
            return Err(format!(
                "{} is not a part of format {FORMAT} version {VERSION} (written by another grader?)",
                path.display()
            ));
        }
        let string = |v: &Value, what: &str| v.as_str().map(str::to_owned).ok_or_else(|| bad(what));
        let number = |v: &Value, what: &str| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| bad(what))
        };
        let shard = Shard::new(
            number(&value["shard"]["k"], "shard.k")?,
            number(&value["shard"]["n"], "shard.n")?,
        )
        .ok_or_else(|| bad("shard"))?;
        let seed_text = string(&value["seed"], "seed")?;
        let seed =
            u64::from_str_radix(seed_text.trim_start_matches("0x"), 16).map_err(|_| bad("seed"))?;
        let exercises = value["exercises"]
            .as_array()
            .ok_or_else(|| bad("exercises"))?
            .iter()
            .map(|exercise| {
                let max = number(&exercise["max_points"], "exercises.max_points")?;
                Ok((
                    string(&exercise["name"], "exercises.name")?,
                    u32::try_from(max).map_err(|_| bad("exercises.max_points"))?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let strings = |what: &str| {
            value[what]
                .as_array()
                .ok_or_else(|| bad(what))?
                .iter()
                .map(|item| string(item, what))
                .collect::<Result<Vec<_>, String>>()
        };
        let settings = strings("settings")?;
        let tools = strings("tools")?;
        let header = Header {
            exercises,
            seed,
            course: CourseId {
                commit: string(&value["course"]["commit"], "course.commit")?,
                fingerprint: string(&value["course"]["fingerprint"], "course.fingerprint")?,
            },
        };
        let roster = Roster {
            students: number(&value["roster"]["students"], "roster.students")?,
            fingerprint: string(&value["roster"]["fingerprint"], "roster.fingerprint")?,
        };
        let mut rows = Vec::new();
        for entry in value["rows"].as_array().ok_or_else(|| bad("rows"))? {
            let folder = string(&entry["folder"], "rows.folder")?;
            if crate::class::file_name(&folder) != folder {
                return Err(bad("rows.folder"));
            }
            let report = if entry["graded"].as_bool() == Some(true) {
                let json = dir.join("students").join(&folder).join("report.json");
                let text = std::fs::read_to_string(&json)
                    .map_err(|err| format!("{}: {err}", json.display()))?;
                Some(
                    serde_json::from_str::<Report>(&text)
                        .map_err(|err| format!("{} does not parse: {err}", json.display()))?,
                )
            } else {
                None
            };
            rows.push(PartRow {
                index: number(&entry["index"], "rows.index")?,
                folder,
                row: Row {
                    name: string(&entry["name"], "rows.name")?,
                    report,
                    error: entry["error"].as_str().map(str::to_owned),
                    seconds: entry["seconds"].as_f64().unwrap_or(0.0),
                },
            });
        }
        Ok(Part {
            dir: dir.to_path_buf(),
            shard,
            header,
            settings,
            tools,
            roster,
            rows,
        })
    }
}

/// The parts in `parts`: every folder directly inside it (as CI's artifact
/// downloads leave them), each of which must be a part.
pub fn read_parts(parts: &Path) -> Result<Vec<Part>, String> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(parts)
        .map_err(|err| format!("cannot read the parts in {}: {err}", parts.display()))?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
        .map(|entry| entry.path())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(format!(
            "{} holds no parts (a folder per shard, each with {PART_FILE})",
            parts.display()
        ));
    }
    dirs.iter().map(|dir| Part::read(dir)).collect()
}

/// Checks that `parts` are the N shards of one class, each once, and
/// returns their rows in roster order with the folder each came from.
pub fn check(parts: Vec<Part>) -> Result<(Header, Vec<(PathBuf, PartRow)>), String> {
    let Some(first) = parts.first() else {
        return Err("no parts to merge".to_owned());
    };
    let name = |part: &Part| format!("shard {} ({})", part.shard, part.dir.display());
    for part in &parts[1..] {
        let differs = |what: &str, theirs: &str, ours: &str| {
            format!(
                "{} was graded with another {what} than {}: {theirs} against {ours}; grade every shard with the same course commit, roster and flags",
                name(part),
                name(first)
            )
        };
        if part.header.course.commit != first.header.course.commit {
            return Err(differs(
                "course commit",
                &part.header.course.commit,
                &first.header.course.commit,
            ));
        }
        if part.header.course.fingerprint != first.header.course.fingerprint {
            return Err(differs(
                "copy of the course (its exercises' files differ)",
                &part.header.course.fingerprint,
                &first.header.course.fingerprint,
            ));
        }
        if part.shard.n() != first.shard.n() {
            return Err(format!(
                "{} is one of {} shards, but {} is one of {}: every part must come from the same --shard K/N split",
                name(part),
                part.shard.n(),
                name(first),
                first.shard.n()
            ));
        }
        if part.roster != first.roster {
            return Err(differs(
                "roster (its students, their sources or their order differ)",
                &format!(
                    "{} students, {}",
                    part.roster.students, part.roster.fingerprint
                ),
                &format!(
                    "{} students, {}",
                    first.roster.students, first.roster.fingerprint
                ),
            ));
        }
        if part.header.seed != first.header.seed {
            return Err(differs(
                "seed",
                &format!("{:#x}", part.header.seed),
                &format!("{:#x}", first.header.seed),
            ));
        }
        if part.header.exercises != first.header.exercises {
            let list = |part: &Part| {
                let names: Vec<String> = part
                    .header
                    .exercises
                    .iter()
                    .map(|(name, max)| format!("{name} /{max}"))
                    .collect();
                names.join(", ")
            };
            return Err(differs("set of exercises", &list(part), &list(first)));
        }
        if part.settings != first.settings {
            return Err(differs(
                "settings",
                &part.settings.join(" "),
                &first.settings.join(" "),
            ));
        }
        if part.tools != first.tools {
            return Err(differs(
                "grading tools",
                &part.tools.join(", "),
                &first.tools.join(", "),
            ));
        }
    }
    let n = first.shard.n();
    let mut by_k: Vec<Option<&Part>> = vec![None; n + 1];
    for part in &parts {
        if let Some(other) = by_k[part.shard.k()] {
            return Err(format!(
                "shard {} is given twice: {} and {}",
                part.shard,
                other.dir.display(),
                part.dir.display()
            ));
        }
        by_k[part.shard.k()] = Some(part);
    }
    let missing: Vec<String> = (1..=n)
        .filter(|&k| by_k[k].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard{} {} missing: the merge needs all {n} parts (it has {} of them)",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ") + if missing.len() == 1 { " is" } else { " are" },
            parts.len()
        ));
    }
    let header = first.header.clone();
    let students = first.roster.students;
    let mut slots: Vec<Option<(PathBuf, PartRow)>> = (0..students).map(|_| None).collect();
    for part in parts {
        let dir = part.dir.clone();
        let shard = part.shard;
        for part_row in part.rows {
            let Some(slot) = slots.get_mut(part_row.index) else {
                return Err(format!(
                    "shard {shard} ({}) has a row past its roster of {students}",
                    dir.display()
                ));
            };
            if slot.is_some() {
                return Err(format!(
                    "student {} is in two shards (shard {shard}, {}, among them)",
                    part_row.row.name,
                    dir.display()
                ));
            }
            *slot = Some((dir.clone(), part_row));
        }
    }
    let rows: Vec<(PathBuf, PartRow)> = slots
        .into_iter()
        .enumerate()
        .map(|(index, slot)| {
            slot.ok_or_else(|| format!("no shard has student {} of {students}", index + 1))
        })
        .collect::<Result<_, _>>()?;
    Ok((header, rows))
}

/// Merges the parts in `parts` into the gradebook `gradebook`: its
/// `grades.csv`, `gradebook.md` and each student's reports. Returns how
/// many students, and how many were graded.
pub fn merge(parts: &Path, gradebook: &Path) -> Result<(usize, usize), String> {
    let (header, rows) = check(read_parts(parts)?)?;
    let students = gradebook.join("students");
    std::fs::create_dir_all(&students)
        .map_err(|err| format!("cannot create {}: {err}", students.display()))?;
    for (dir, part_row) in &rows {
        let from = dir.join("students").join(&part_row.folder);
        if from.is_dir() {
            copy_files(&from, &students.join(&part_row.folder))?;
        }
    }
    let rows: Vec<Row> = rows.into_iter().map(|(_, part_row)| part_row.row).collect();
    crate::class::write_gradebook(gradebook, &header, &rows)?;
    let graded = rows.iter().filter(|row| row.report.is_some()).count();
    Ok((rows.len(), graded))
}

/// Copies the regular files directly in `from` into `to` (a student's
/// reports; nothing else is expected there, and links are not followed).
fn copy_files(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|err| format!("cannot create {}: {err}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|err| format!("cannot read {}: {err}", from.display()))?;
    for entry in entries.filter_map(Result::ok) {
        if entry.file_type().is_ok_and(|kind| kind.is_file()) {
            let target = to.join(entry.file_name());
            std::fs::copy(entry.path(), &target)
                .map_err(|err| format!("cannot copy to {}: {err}", target.display()))?;
        }
    }
    Ok(())
}

/// A fingerprint that is the same on every machine and run (Rust's
/// `DefaultHasher` is not promised to be): SHA-256, of which the first 16
/// hex digits are kept. Each `write` is length-prefixed so that `("ab",
/// "c")` and `("a", "bc")` differ.
struct Fingerprint(Sha256);

impl Fingerprint {
    fn new() -> Fingerprint {
        Fingerprint(Sha256::new())
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn hex(self) -> String {
        self.0
            .finalize()
            .iter()
            .take(8)
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(k: usize, n: usize, indexes: &[usize]) -> Part {
        Part {
            dir: PathBuf::from(format!("parts/shard-{k}")),
            shard: Shard::new(k, n).expect("a shard"),
            header: Header {
                exercises: vec![("ordered-tree".to_owned(), 20)],
                seed: 0x5eed,
                course: CourseId {
                    commit: "abc".to_owned(),
                    fingerprint: "f".to_owned(),
                },
            },
            settings: vec!["--no-miri".to_owned()],
            tools: vec!["rustc 1.95.0".to_owned(), "Miri not asked".to_owned()],
            roster: Roster {
                students: 4,
                fingerprint: "r".to_owned(),
            },
            rows: indexes
                .iter()
                .map(|&index| PartRow {
                    index,
                    folder: format!("s{index}"),
                    row: Row {
                        name: format!("s{index}"),
                        report: None,
                        error: Some("x".to_owned()),
                        seconds: 0.0,
                    },
                })
                .collect(),
        }
    }

    fn refused(parts: Vec<Part>) -> String {
        check(parts).err().unwrap_or_default()
    }

    #[test]
    fn rows_come_back_in_roster_order() {
        let (_, rows) = check(vec![part(2, 2, &[1, 3]), part(1, 2, &[0, 2])]).expect("merges");
        let names: Vec<&str> = rows.iter().map(|(_, r)| r.row.name.as_str()).collect();
        assert_eq!(names, ["s0", "s1", "s2", "s3"]);
    }

    #[test]
    fn a_mismatched_part_is_refused_by_name() {
        let mut other = part(2, 2, &[1, 3]);
        other.header.course.commit = "def".to_owned();
        let message = refused(vec![part(1, 2, &[0, 2]), other]);
        assert!(
            message.contains("course commit") && message.contains("shard 2/2"),
            "{message}"
        );

        let message = refused(vec![part(1, 2, &[0, 2]), part(2, 3, &[1, 3])]);
        assert!(message.contains("one of 3 shards"), "{message}");

        let mut other = part(2, 2, &[1, 3]);
        other.roster.fingerprint = "q".to_owned();
        assert!(refused(vec![part(1, 2, &[0, 2]), other]).contains("roster"));

        let mut other = part(2, 2, &[1, 3]);
        other.header.seed = 1;
        assert!(refused(vec![part(1, 2, &[0, 2]), other]).contains("seed"));

        let mut other = part(2, 2, &[1, 3]);
        other.settings.clear();
        assert!(refused(vec![part(1, 2, &[0, 2]), other]).contains("settings"));
        // A runner whose Miri differs (or is missing) grades Miri's cases
        // otherwise.
        let mut other = part(2, 2, &[1]);
        other.tools[1] = "no Miri: the `nightly` toolchain has no Miri".to_owned();
        assert!(refused(vec![part(1, 2, &[0, 2]), other]).contains("grading tools"));

        let message = refused(vec![part(1, 3, &[0]), part(3, 3, &[2])]);
        assert!(message.contains("shard 2/3 is missing"), "{message}");

        let message = refused(vec![part(1, 2, &[0, 2]), part(1, 2, &[0, 2])]);
        assert!(message.contains("shard 1/2 is given twice"), "{message}");

        let message = refused(vec![part(1, 2, &[0, 2]), part(2, 2, &[1])]);
        assert!(message.contains("no shard has student 4 of 4"), "{message}");

        let message = refused(vec![part(1, 2, &[0, 2]), part(2, 2, &[1, 2, 3])]);
        assert!(message.contains("in two shards"), "{message}");
    }
}
