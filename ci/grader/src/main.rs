//! `xsafe-grader`: the instructor's grader.
//!
//! Grades a student's copy of the course (a folder, or a revision of a git
//! checkout) against the pristine course it was built from: only the
//! learner files are taken from the submission (see [`submission`]), every
//! build and run is bounded (see `xsafe_grade::Limits`), and the result is
//! written as text, JSON, JUnit XML or Markdown.
//!
//! Exit codes: 0 graded; 1 graded, but `--require-full-marks` was not met;
//! 2 the grader could not run (bad arguments, no course, unreadable
//! submission, a revision that does not exist).

mod class;
mod grading;
mod merge;
mod shard;
mod slot;

use anstream::{eprintln, println};
use clap::{Parser, ValueEnum};
use grading::{Event, Plan};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use xsafe_grade::{Course, CourseExercise, Isolation, Limits, Toolchain};
use xsafe_report::{Ignored, Report, Setting, classroom, model as report, render};
use xsafe_sandbox::submission;

/// Grade a student's copy of the X-safe Rust course.
///
/// Only the learner files of each exercise (its `src/` trees, as the
/// pristine manifest names them) are taken from the submission; they are
/// copied into a fresh copy of the pristine exercise and graded there, so
/// edited tests, snapshots, manifests or build scripts have no effect.
/// Every such difference is reported as ignored.
#[derive(Debug, Parser)]
#[command(
    version,
    after_help = "Exit status: 0 graded, 1 graded below --require-full-marks, 2 could not grade."
)]
struct Cli {
    /// The submission: a copy of the course (with `exercises/`), or its
    /// `exercises/` folder. With --class, the class; with --merge, the
    /// folder holding the shards' parts.
    #[arg(required_unless_present = "print_schema")]
    submission: Option<PathBuf>,

    /// Grade this git revision of SUBMISSION (a git checkout) instead of its
    /// working tree.
    #[arg(long, value_name = "REV")]
    rev: Option<String>,

    /// The pristine course whose cases grade the submission. Default: the
    /// course this grader was built from.
    #[arg(long, value_name = "DIR", env = "XSAFE_COURSE")]
    course: Option<PathBuf>,

    /// Grade only this exercise (repeat for several).
    #[arg(long = "exercise", short = 'e', value_name = "NAME")]
    exercises: Vec<String>,

    /// What to print on standard output.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,

    /// Also write the JSON report to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Also write a JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,

    /// Also write a Markdown summary to this file (such as
    /// "$GITHUB_STEP_SUMMARY").
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,

    /// Append GitHub Classroom's runner results to this file (normally
    /// "$GITHUB_OUTPUT"): a line `RUNNER_ID=BASE64` per exercise, the id
    /// being the exercise's name with `_` for `-`. Written even when the
    /// grader cannot grade (each exercise then scores 0, with the reason),
    /// so the reporter always has a score to send.
    #[arg(long, value_name = "FILE")]
    classroom: Option<PathBuf>,

    /// Grade a whole class: SUBMISSION is a folder holding one submission
    /// per sub-folder (as GitHub Classroom's tools download them), or a
    /// file listing one per line (`URL` or `NAME URL`, anything `git clone`
    /// takes). Writes the gradebook to --gradebook.
    #[arg(long, requires = "gradebook", conflicts_with = "merge")]
    class: bool,

    /// With --class: grade only the K-th of N shards of the class (K from
    /// 1 to N), each student in exactly one shard whatever the roster's
    /// order, and write that part of the gradebook to --gradebook, for
    /// --merge. Needs --seed, the same for every shard.
    #[arg(long, value_name = "K/N", requires = "class")]
    shard: Option<shard::Shard>,

    /// Merge the parts that `--class --shard K/N` wrote: SUBMISSION is a
    /// folder holding them, one sub-folder each; writes to --gradebook the
    /// gradebook an unsharded --class run would. Refuses parts of another
    /// course commit, roster, seed or N, a shard given twice, and a
    /// missing one.
    #[arg(long, requires = "gradebook")]
    merge: bool,

    /// With --class: the folder for the gradebook (grades.csv, a row per
    /// student and a column per exercise; gradebook.md; and
    /// students/NAME/report.json and report.md); with --shard, the folder
    /// for this shard's part; with --merge, where the merged gradebook goes.
    #[arg(long, value_name = "DIR")]
    gradebook: Option<PathBuf>,

    /// With --class: the longest one submission's grade may take, in
    /// seconds, before it is stopped and reported as not graded.
    #[arg(long, value_name = "SECS", default_value_t = 1800.0)]
    submission_time_limit: f64,

    /// Where sandboxes are built. Default: COURSE/target/xsafe-grader.
    #[arg(long, value_name = "DIR")]
    work_dir: Option<PathBuf>,

    /// Cargo's target directory for the builds in which no submission code
    /// runs, shared by every exercise and safe to share between graders.
    /// Default: WORK_DIR/build.
    #[arg(long, value_name = "DIR")]
    target_dir: Option<PathBuf>,

    /// Grade with this rustup toolchain (such as `nightly`) instead of the
    /// one `rustc` resolves to in the course.
    #[arg(long, value_name = "NAME")]
    toolchain: Option<String>,

    /// The seed of every behaviour case's inputs (hexadecimal, `0x...`), to
    /// grade again exactly as a report did; random by default.
    #[arg(long, value_name = "SEED", value_parser = parse_seed)]
    seed: Option<u64>,

    /// Exercises graded at once. Builds share one target directory, so
    /// they wait for each other; two at a time lets one exercise's tests
    /// run while the next builds (measured on 2 cores, five exercises:
    /// cold 102 s with two, 129 s with one; warm 10-11 s against 14-15 s).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 2)]
    jobs: usize,

    #[command(flatten)]
    limits: LimitArgs,

    /// Do not run the cases marked `miri` under Miri (they run under it by
    /// default where the machine has Miri: `rustup component add miri
    /// rust-src --toolchain nightly`).
    #[arg(long)]
    no_miri: bool,

    /// Exit with 1 unless every graded exercise has full marks (for
    /// all-or-nothing autograders such as GitHub Classroom's).
    #[arg(long)]
    require_full_marks: bool,

    /// Print the JSON schema of the report and exit.
    #[arg(long)]
    print_schema: bool,
}

/// The limits of a grade, each a flag: one place that reads them and one
/// that forwards them to the per-submission graders of `--class`.
#[derive(Debug, Clone, clap::Args)]
struct LimitArgs {
    /// Seconds one build (or one step's compile-fail batch) may take.
    #[arg(long, value_name = "SECS", default_value_t = Limits::DEFAULT_BUILD_TIME.as_secs_f64())]
    build_time_limit: f64,

    /// Seconds of processor time one behaviour case may use (on the clock
    /// it may take three times as long, so a busy machine does not fail a
    /// case; a case that waits is stopped then).
    #[arg(long, value_name = "SECS", default_value_t = Limits::DEFAULT_CASE_TIME.as_secs_f64())]
    case_time_limit: f64,

    /// KiB of output a build or a case may print (per stream).
    #[arg(long, value_name = "KIB", default_value_t = Limits::DEFAULT_OUTPUT_BYTES / 1024)]
    output_limit: usize,

    /// MiB of memory (address space) each process of a build or a case may
    /// take.
    #[arg(long, value_name = "MIB", default_value_t = Limits::DEFAULT_MEMORY_BYTES >> 20)]
    memory_limit: u64,

    /// MiB a build may write into its target folders (a fresh tmpfs each,
    /// under bubblewrap).
    #[arg(long, value_name = "MIB", default_value_t = Limits::DEFAULT_BUILD_BYTES >> 20)]
    build_disk_limit: u64,

    /// MiB of `/tmp` a behaviour case (and the judge) may write.
    #[arg(long, value_name = "MIB", default_value_t = Limits::DEFAULT_RUN_TMP_BYTES >> 20)]
    tmp_limit: u64,

    /// Files and folders an exercise of the submission may hold; past it
    /// the exercise is not graded.
    #[arg(long, value_name = "N", default_value_t = submission::Budget::DEFAULT_ENTRIES)]
    max_files: usize,

    /// KiB an exercise of the submission may hold; past it the exercise is
    /// not graded.
    #[arg(long, value_name = "KIB", default_value_t = submission::Budget::DEFAULT_BYTES / 1024)]
    max_exercise_size: u64,

    /// MiB the cache of build outputs (TARGET_DIR/job-cache) may hold:
    /// under bubblewrap, a build, expansion or Miri run whose inputs are
    /// byte for byte those of an earlier successful one (a re-grade of an
    /// unchanged submission) is not run again; its cases still run. 0 turns
    /// it off.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_JOB_CACHE_MIB)]
    job_cache_size: u64,
}

/// The cache's default budget: a submission of all six exercises records
/// about 24 MiB (measured on the reference solutions), so the last 170 or so
/// submissions graded stay warm.
const DEFAULT_JOB_CACHE_MIB: u64 = 4096;

impl LimitArgs {
    /// The engine's limits.
    fn limits(&self) -> Result<Limits, String> {
        Ok(Limits {
            build_time: seconds_arg(self.build_time_limit, "build-time-limit")?,
            case_time: seconds_arg(self.case_time_limit, "case-time-limit")?,
            output_bytes: self.output_limit.max(1).saturating_mul(1024),
            memory_bytes: self.memory_limit.max(64).saturating_mul(1 << 20),
            build_bytes: self.build_disk_limit.max(64).saturating_mul(1 << 20),
            build_tmp_bytes: Limits::DEFAULT_BUILD_TMP_BYTES,
            run_tmp_bytes: self.tmp_limit.max(1).saturating_mul(1 << 20),
            miri_case_time: Limits::DEFAULT_MIRI_CASE_TIME,
        })
    }

    /// How much of a submission the grader takes on.
    fn budget(&self) -> submission::Budget {
        submission::Budget {
            entries: self.max_files,
            bytes: self.max_exercise_size.saturating_mul(1024),
        }
    }

    /// The same limits as flags, for another grader.
    fn forward(&self) -> Vec<String> {
        [
            ("--build-time-limit", self.build_time_limit.to_string()),
            ("--case-time-limit", self.case_time_limit.to_string()),
            ("--output-limit", self.output_limit.to_string()),
            ("--memory-limit", self.memory_limit.to_string()),
            ("--build-disk-limit", self.build_disk_limit.to_string()),
            ("--tmp-limit", self.tmp_limit.to_string()),
            ("--max-files", self.max_files.to_string()),
            ("--max-exercise-size", self.max_exercise_size.to_string()),
            ("--job-cache-size", self.job_cache_size.to_string()),
        ]
        .into_iter()
        .flat_map(|(flag, value)| [flag.to_owned(), value])
        .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A line per exercise, the cases that lost points, what was ignored.
    Human,
    /// The JSON report (see --print-schema).
    Json,
    /// JUnit XML.
    Junit,
    /// A Markdown summary.
    Markdown,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.print_schema {
        print!("{}", Report::json_schema());
        return ExitCode::SUCCESS;
    }
    if cli.merge {
        return match run_merge(&cli) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => could_not_run(&message),
        };
    }
    if cli.gradebook.is_some() && !cli.class {
        return could_not_run("--gradebook goes with --class or --merge");
    }
    if cli.class {
        return match run_class(&cli) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => could_not_run(&message),
        };
    }
    let outcome = run(&cli);
    if let Some(path) = &cli.classroom {
        let lines = match &outcome {
            Ok(report) => classroom::github_outputs(report),
            Err(message) => could_not_grade_outputs(&cli, message),
        };
        if let Err(message) = append(path, &lines) {
            return could_not_run(&message);
        }
    }
    match outcome {
        Ok(report) => {
            if cli.require_full_marks && report.points < report.max_points {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(message) => could_not_run(&message),
    }
}

/// Says why the grader could not run, as cargo does, and exits with 2.
fn could_not_run(message: &str) -> ExitCode {
    let style = anstyle::Style::new()
        .bold()
        .fg_color(Some(anstyle::AnsiColor::Red.into()));
    eprintln!("{style}error{style:#}: {message}");
    ExitCode::from(2)
}

/// A progress bar for `len` units of work, in cargo's style, with `extra`
/// after the elapsed time in its parentheses.
fn progress_bar(len: usize, extra: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{prefix:>12.cyan.bold}} [{{bar:25}}] {{pos}}/{{len}}: {{msg}} ({{elapsed}}{extra})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix("Grading");
    bar
}

/// Classroom results for a grade that did not happen: every exercise the
/// command asked for (every exercise of the course by default) scores 0 of
/// its points, with `message`. Nothing when the course itself cannot be
/// read (the workflow's fallback value covers that).
fn could_not_grade_outputs(cli: &Cli, message: &str) -> String {
    let course_dir = cli.course.clone().unwrap_or_else(default_course);
    let Ok(course) = Course::load(&course_dir) else {
        return String::new();
    };
    course
        .exercises
        .iter()
        .filter(|exercise| {
            cli.exercises.is_empty() || cli.exercises.iter().any(|name| name == exercise.name())
        })
        .map(|exercise| {
            let result = classroom::could_not_grade(exercise.manifest.total_points(), message);
            classroom::output_line(exercise.name(), &result)
        })
        .collect()
}

fn append(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|err| format!("cannot write {}: {err}", path.display()))
}

/// A seed for a grade when none is asked for: from the clock and the pid.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    let mut mixed = (nanos as u64) ^ (u64::from(std::process::id()) << 32);
    // splitmix64's finaliser: neighbouring clocks give unrelated seeds.
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    mixed ^ (mixed >> 31)
}

fn parse_seed(text: &str) -> Result<u64, String> {
    let digits = text.strip_prefix("0x").unwrap_or(text);
    u64::from_str_radix(digits, 16).map_err(|err| format!("not a hexadecimal seed: {err}"))
}

fn seconds_arg(value: f64, flag: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| format!("--{flag} must be a positive number of seconds, not {value}"))
}

fn write_report(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|err| format!("cannot write {}: {err}", path.display()))
}

fn default_course() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What a shard's grades depend on beside its arguments: the compiler's
/// version (`rustc --version` of the toolchain the grades use) and Miri's
/// (or why there is none), as each student's report shows them.
fn grading_tools(course: &Course, cli: &Cli, exercises: &[String]) -> Result<Vec<String>, String> {
    let toolchain = Toolchain::find(&course.root, cli.toolchain.as_deref())
        .map_err(|err| format!("cannot find the toolchain: {err}"))?;
    let miri = miri_setting(
        cli,
        exercises.iter().filter_map(|name| course.exercise(name)),
    );
    Ok(vec![toolchain.version, miri])
}

/// What a report says of Miri for a grade of `exercises`: its version, or
/// why there is none, or that no case asked for it.
fn miri_setting<'a>(cli: &Cli, exercises: impl IntoIterator<Item = &'a CourseExercise>) -> String {
    let asked = !cli.no_miri
        && exercises
            .into_iter()
            .any(|exercise| exercise.manifest.cases.iter().any(|case| case.miri));
    if asked {
        xsafe_grade::miri::Miri::describe(&xsafe_grade::miri::Miri::find())
    } else {
        "Miri not asked".to_owned()
    }
}

/// `--class`: grades every submission of the class (or of one shard of
/// it, see [`shard`]), one grader process each (see [`class`]), and writes
/// the gradebook (or the shard's part of it, see [`merge`]).
fn run_class(cli: &Cli) -> Result<(), String> {
    let started = Instant::now();
    let Some(list) = cli.submission.as_deref() else {
        return Err("no class given".to_owned());
    };
    let Some(gradebook) = cli.gradebook.as_deref() else {
        return Err("--class needs --gradebook DIR".to_owned());
    };
    if cli.shard.is_some() && cli.seed.is_none() {
        return Err(
            "--shard needs --seed SEED, the same for every shard (in CI, such as the run's id), so that every student's cases draw from one seed"
                .to_owned(),
        );
    }
    let course_dir = cli.course.clone().unwrap_or_else(default_course);
    let course = Course::load(&course_dir)
        .map_err(|err| format!("cannot read the course at {}: {err}", course_dir.display()))?;
    let exercises: Vec<String> = if cli.exercises.is_empty() {
        course
            .exercises
            .iter()
            .map(|e| e.name().to_owned())
            .collect()
    } else {
        for name in &cli.exercises {
            if course.exercise(name).is_none() {
                return Err(format!("the course has no exercise `{name}`"));
            }
        }
        cli.exercises.clone()
    };
    let students = class::students(list)?;
    if students.is_empty() {
        return Err(format!("{} holds no submissions", list.display()));
    }
    let work_dir = cli
        .work_dir
        .clone()
        .unwrap_or_else(|| course.root.join("target/xsafe-grader"));
    let target_dir = cli
        .target_dir
        .clone()
        .unwrap_or_else(|| work_dir.join("build"));
    let seed = cli.seed.unwrap_or_else(random_seed);
    // What changes a grade, beside the course and the seed: every shard of
    // a class must agree on it (see `merge`).
    let mut settings: Vec<String> = Vec::new();
    if cli.no_miri {
        settings.push("--no-miri".into());
    }
    settings.extend(cli.limits.forward());
    for name in &exercises {
        settings.extend(["--exercise".into(), name.clone()]);
    }
    if let Some(toolchain) = &cli.toolchain {
        settings.extend(["--toolchain".into(), toolchain.clone()]);
    }
    if let Some(rev) = &cli.rev {
        settings.extend(["--rev".into(), rev.clone()]);
    }
    let mut shared: Vec<String> = vec![
        "--course".into(),
        course.root.to_string_lossy().into_owned(),
        "--work-dir".into(),
        work_dir.to_string_lossy().into_owned(),
        "--target-dir".into(),
        target_dir.to_string_lossy().into_owned(),
        "--seed".into(),
        format!("{seed:#x}"),
        "--jobs".into(),
        cli.jobs.to_string(),
    ];
    shared.extend(settings.iter().cloned());
    let runner = class::Runner {
        program: std::env::current_exe()
            .map_err(|err| format!("cannot find the grader's own binary: {err}"))?,
        shared,
        work_dir,
        bound: seconds_arg(cli.submission_time_limit, "submission-time-limit")?,
    };
    let header = class::Header {
        exercises: exercises
            .iter()
            .map(|name| {
                let max = course
                    .exercise(name)
                    .map_or(0, |exercise| exercise.manifest.total_points());
                (name.clone(), max)
            })
            .collect(),
        seed,
        course: merge::CourseId::of(&course, &exercises),
    };
    std::fs::create_dir_all(gradebook.join("students"))
        .map_err(|err| format!("cannot create {}: {err}", gradebook.display()))?;

    // Folders are named over the whole roster, so that a shard names its
    // students' folders as the unsharded run does.
    let folders = class::folders(&students);
    let members: Vec<usize> = match cli.shard {
        Some(shard) => shard.members(&students),
        None => (0..students.len()).collect(),
    };
    let shard_label = cli.shard.map(|shard| format!("shard {shard}: "));
    let bar = progress_bar(members.len(), ", about {eta} left");
    if let Some(label) = &shard_label {
        bar.set_prefix(format!("Grading {}", label.trim_end_matches(": ")));
    }
    let on_terminal = !bar.is_hidden();
    if on_terminal {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    let mut rows = Vec::new();
    for (done, &index) in members.iter().enumerate() {
        let student = &students[index];
        bar.set_message(student.name.clone());
        let row = runner.grade(student, &gradebook.join("students").join(&folders[index]));
        let progress = progress_line(
            shard_label.as_deref().unwrap_or(""),
            done + 1,
            members.len(),
            started.elapsed(),
        );
        let line = match &row.report {
            Some(report) => format!(
                "{:>12} {} {}/{} in {:.0}s ({progress})",
                "Graded", row.name, report.points, report.max_points, row.seconds
            ),
            None => format!(
                "{:>12} {}: {} ({progress})",
                "Not graded",
                row.name,
                class::status(&row)
            ),
        };
        if on_terminal {
            bar.println(line);
        } else {
            eprintln!("{line}");
        }
        bar.inc(1);
        rows.push((index, row));
    }
    bar.finish_and_clear();

    let graded = rows.iter().filter(|(_, row)| row.report.is_some()).count();
    let count = rows.len();
    let style = anstyle::Style::new()
        .bold()
        .fg_color(Some(anstyle::AnsiColor::Green.into()));
    let elapsed = started.elapsed().as_secs_f64();
    match cli.shard {
        Some(shard) => {
            let part = merge::Part {
                dir: gradebook.to_path_buf(),
                shard,
                header,
                settings,
                tools: grading_tools(&course, cli, &exercises)?,
                roster: merge::Roster::of(&students),
                rows: rows
                    .into_iter()
                    .map(|(index, row)| merge::PartRow {
                        index,
                        folder: folders[index].clone(),
                        row,
                    })
                    .collect(),
            };
            part.write()?;
            println!(
                "{style}{:>12}{style:#} shard {shard}: {count} of {} submissions ({graded} graded, {} not) in {elapsed:.0}s; its part in {} (merge the parts with --merge)",
                "Finished",
                students.len(),
                count - graded,
                gradebook.display()
            );
        }
        None => {
            let rows: Vec<class::Row> = rows.into_iter().map(|(_, row)| row).collect();
            class::write_gradebook(gradebook, &header, &rows)?;
            println!(
                "{style}{:>12}{style:#} {count} submissions ({graded} graded, {} not) in {elapsed:.0}s; gradebook in {}",
                "Finished",
                count - graded,
                gradebook.display()
            );
        }
    }
    Ok(())
}

/// `done/total done, ELAPSED elapsed, about LEFT left`, after `prefix`
/// (such as `shard 2/5: `): the estimate is the mean time per submission
/// so far times the submissions left.
fn progress_line(prefix: &str, done: usize, total: usize, elapsed: Duration) -> String {
    let left = total.saturating_sub(done);
    let estimate = if done == 0 {
        "unknown".to_owned()
    } else {
        clock(elapsed.as_secs_f64() / done as f64 * left as f64)
    };
    format!(
        "{prefix}{done}/{total} done, {} elapsed, about {estimate} left",
        clock(elapsed.as_secs_f64())
    )
}

/// Seconds as `42s`, `3m 05s` or `1h 02m`.
fn clock(seconds: f64) -> String {
    let whole = seconds.max(0.0).round() as u64;
    match whole {
        0..60 => format!("{whole}s"),
        60..3600 => format!("{}m {:02}s", whole / 60, whole % 60),
        _ => format!("{}h {:02}m", whole / 3600, whole % 3600 / 60),
    }
}

/// `--merge`: checks the shards' parts and writes the class's gradebook
/// (see [`merge`]).
fn run_merge(cli: &Cli) -> Result<(), String> {
    let started = Instant::now();
    let Some(parts) = cli.submission.as_deref() else {
        return Err("--merge needs the folder holding the parts".to_owned());
    };
    let Some(gradebook) = cli.gradebook.as_deref() else {
        return Err("--merge needs --gradebook DIR".to_owned());
    };
    let (count, graded) = merge::merge(parts, gradebook)?;
    let style = anstyle::Style::new()
        .bold()
        .fg_color(Some(anstyle::AnsiColor::Green.into()));
    println!(
        "{style}{:>12}{style:#} {count} submissions ({graded} graded, {} not) from the parts in {} in {:.1}s; gradebook in {}",
        "Merged",
        count - graded,
        parts.display(),
        started.elapsed().as_secs_f64(),
        gradebook.display()
    );
    Ok(())
}

fn run(cli: &Cli) -> Result<Report, String> {
    let started = Instant::now();
    let limits = cli.limits.limits()?;
    // Processes that a submission's code leaves behind are adopted and
    // killed as each run ends.
    xsafe_grade::limits::adopt_orphans();
    let course_dir = cli.course.clone().unwrap_or_else(default_course);
    let course = Course::load(&course_dir)
        .map_err(|err| format!("cannot read the course at {}: {err}", course_dir.display()))?;
    if course.exercises.is_empty() {
        return Err(format!("{} has no exercises", course.root.display()));
    }
    let selected: Vec<_> = if cli.exercises.is_empty() {
        course.exercises.iter().collect()
    } else {
        cli.exercises
            .iter()
            .map(|name| {
                course.exercise(name).ok_or_else(|| {
                    let names: Vec<&str> = course.exercises.iter().map(|e| e.name()).collect();
                    format!(
                        "the course has no exercise `{name}` (it has: {})",
                        names.join(", ")
                    )
                })
            })
            .collect::<Result<_, _>>()?
    };

    let Some(submission) = cli.submission.as_deref() else {
        return Err("no submission given".to_owned());
    };
    if !submission::is_real_dir(submission) {
        return Err(submission::SubmissionError::NotAFolder(submission.to_path_buf()).to_string());
    }
    let work_dir = cli
        .work_dir
        .clone()
        .unwrap_or_else(|| course.root.join("target/xsafe-grader"));
    std::fs::create_dir_all(&work_dir)
        .map_err(|err| format!("cannot create {}: {err}", work_dir.display()))?;
    let slot = slot::Slot::take(&work_dir, submission, cli.rev.as_deref())
        .map_err(|err| format!("cannot use {}: {err}", work_dir.display()))?;
    let mut ignored: Vec<Ignored> = Vec::new();
    let tree = match &cli.rev {
        Some(rev) => {
            let exported = slot.dir.join("submission");
            let left_out = submission::export_revision(submission, rev, &exported)
                .map_err(|err| err.to_string())?;
            ignored.extend(left_out.into_iter().map(Ignored::from));
            exported
        }
        None => submission.to_path_buf(),
    };
    let exercises_root = submission::exercises_root(&tree);
    let names: Vec<String> = course
        .exercises
        .iter()
        .map(|e| e.name().to_owned())
        .collect();
    ignored.extend(
        submission::ignored_outside(&exercises_root, &names)
            .into_iter()
            .map(Ignored::from),
    );
    let toolchain = Toolchain::find(&course.root, cli.toolchain.as_deref())
        .map_err(|err| format!("cannot find the toolchain: {err}"))?;
    let seed = cli.seed.unwrap_or_else(random_seed);
    let setting = Setting {
        toolchain: toolchain.version.clone(),
        isolation: Isolation::detect(),
        miri: miri_setting(cli, selected.iter().copied()),
        seed,
    };

    let plan = Plan {
        target_dir: cli
            .target_dir
            .clone()
            .unwrap_or_else(|| work_dir.join("build")),
        slot: slot.dir.clone(),
        exercises_root,
        course: course.clone(),
        limits,
        budget: cli.limits.budget(),
        jobs: cli.jobs,
        toolchain: cli.toolchain.clone(),
        seed: Some(seed),
        miri: !cli.no_miri,
        job_cache_bytes: cli.limits.job_cache_size.saturating_mul(1 << 20),
    };
    let bar = progress_bar(selected.len(), "");
    let on_terminal = !bar.is_hidden();
    let progress = |event: Event<'_>| match event {
        Event::Started(name) => {
            if on_terminal {
                bar.set_message(name.to_owned());
            } else {
                eprintln!("{:>12} {name}", "Grading");
            }
        }
        Event::Finished(exercise) => {
            bar.inc(1);
            bar.set_message(format!(
                "{} got {}/{}",
                exercise.name, exercise.points, exercise.max_points
            ));
        }
    };
    if on_terminal {
        bar.enable_steady_tick(Duration::from_millis(120));
    }
    let exercises = grading::grade_all(&plan, &selected, &progress);
    bar.finish_and_clear();

    drop(slot);
    let report = Report::new(
        submission,
        cli.rev.clone(),
        &course.root,
        limits,
        &setting,
        ignored,
        exercises,
        started.elapsed(),
    );
    let json = || render::json(&report).map_err(|err| format!("cannot write JSON: {err}"));
    let junit = || render::junit(&report).map_err(|err| format!("cannot write JUnit XML: {err}"));
    if let Some(path) = &cli.json {
        write_report(path, &json()?)?;
    }
    if let Some(path) = &cli.junit {
        write_report(path, &junit()?)?;
    }
    if let Some(path) = &cli.markdown {
        write_report(path, &render::markdown(&report))?;
    }
    match cli.format {
        Format::Human => anstream::print!("{}", render::human(&report)),
        Format::Json => println!("{}", json()?),
        Format::Junit => println!("{}", junit()?),
        Format::Markdown => anstream::print!("{}", render::markdown(&report)),
    }
    Ok(report)
}
