//! Watch mode: grade the first incomplete exercise, re-grade it on every
//! save under `exercises/`, move on when it is complete, and answer keys.
//!
//! Saves are debounced, and saves that arrive while a grade runs are merged
//! into one follow-up grade, so one burst of saves never starts two builds.
//! A file event only counts when a source file's size or modification time
//! really changed: building reads the sources, and some platforms report
//! those reads as events too.
//! Keys are read as lines (a letter, then Enter), which also lets a script
//! or a test drive the loop through standard input; the end of input quits.

use crate::course::{Course, Exercise};
use crate::report;
use crate::term;
use crate::{hint, list};
use anstream::println;
use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, new_debouncer};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, SystemTime};

enum Event {
    /// A source file under `exercises/` changed.
    Saved,
    /// A line of input.
    Key(String),
    /// Standard input closed.
    EndOfInput,
}

const KEYS: &str = "h = next hint, l = list, r = re-run, q = quit (then Enter)";

/// Whether a changed path under `exercises` is a source file (a crate's
/// `target/` folder, if a learner builds an exercise alone, is not).
fn is_source(exercises: &Path, path: &Path) -> bool {
    let relative = path.strip_prefix(exercises).unwrap_or(path);
    let in_target = relative
        .components()
        .any(|part| part.as_os_str() == "target");
    let source = path
        .extension()
        .is_some_and(|ext| ext == "rs" || ext == "toml");
    source && !in_target
}

/// The size and modification time of every source file under `exercises`.
fn sources(exercises: &Path) -> BTreeMap<PathBuf, (u64, Option<SystemTime>)> {
    walkdir::WalkDir::new(exercises)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file() && is_source(exercises, entry.path()))
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            Some((
                entry.into_path(),
                (metadata.len(), metadata.modified().ok()),
            ))
        })
        .collect()
}

/// Runs watch mode until `q` or the end of input.
pub fn watch(course: &Course) -> ExitCode {
    let (events, received) = mpsc::channel();
    let saves = events.clone();
    let exercises_dir = course.root.join("exercises");
    let watched = exercises_dir.clone();
    let debouncer = new_debouncer(
        Duration::from_millis(250),
        move |result: DebounceEventResult| {
            if let Ok(changes) = result
                && changes
                    .iter()
                    .any(|change| is_source(&watched, &change.path))
            {
                let _ = saves.send(Event::Saved);
            }
        },
    );
    let mut debouncer = match debouncer {
        Ok(debouncer) => debouncer,
        Err(err) => {
            term::error(&format!("cannot watch files: {err}"));
            return ExitCode::from(crate::CANNOT_RUN);
        }
    };
    if let Err(err) = debouncer
        .watcher()
        .watch(&exercises_dir, RecursiveMode::Recursive)
    {
        term::error(&format!("cannot watch {}: {err}", exercises_dir.display()));
        return ExitCode::from(crate::CANNOT_RUN);
    }
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if events.send(Event::Key(line.trim().to_owned())).is_err() {
                return;
            }
        }
        let _ = events.send(Event::EndOfInput);
    });

    let mut current = 0;
    let mut pending_keys = Vec::new();
    loop {
        let Some(exercise) = course.exercises.get(current) else {
            println!("\nEvery exercise is complete. Well done!");
            return ExitCode::SUCCESS;
        };
        let graded = sources(&exercises_dir);
        let complete = grade_and_show(course, exercise);
        // Saves made during the grade: one more grade covers them all.
        let mut saved_meanwhile = false;
        while let Ok(event) = received.try_recv() {
            match event {
                Event::Saved => saved_meanwhile |= sources(&exercises_dir) != graded,
                other => pending_keys.push(other),
            }
        }
        if complete {
            current += 1;
            if let Some(next) = course.exercises.get(current) {
                term::status(
                    "Next",
                    &format!("exercise {}: {}", current + 1, next.name()),
                );
            }
            continue;
        }
        if saved_meanwhile {
            continue;
        }
        println!(
            "\nWatching {} for saves. Keys: {KEYS}",
            exercises_dir.display()
        );
        loop {
            match wait(&received, &mut pending_keys) {
                Event::Saved if sources(&exercises_dir) != graded => break,
                Event::Saved => {}
                Event::EndOfInput => return ExitCode::SUCCESS,
                Event::Key(key) => match key.as_str() {
                    "q" => return ExitCode::SUCCESS,
                    "r" | "" => break,
                    "h" => {
                        hint(course, exercise);
                    }
                    "l" => {
                        list(course);
                    }
                    other => println!("`{other}` is not a key here. Keys: {KEYS}"),
                },
            }
        }
    }
}

fn grade_and_show(course: &Course, exercise: &Exercise) -> bool {
    match report::grade(course, exercise) {
        Ok((grade, took)) => {
            report::print_report(exercise, &grade, took);
            report::is_complete(&grade)
        }
        Err(err) => {
            term::error(&format!("cannot grade {}: {err}", exercise.name()));
            false
        }
    }
}

/// The next event: a key typed during the last grade first.
fn wait(received: &Receiver<Event>, pending: &mut Vec<Event>) -> Event {
    if !pending.is_empty() {
        return pending.remove(0);
    }
    received.recv().unwrap_or(Event::EndOfInput)
}
