//! Watch mode: the current exercise's screen, drawn at once (before any
//! grade: what to read, what to edit, the step's goal, that a grade runs),
//! then again after every grade, fitted to the terminal. The exercise is
//! graded again when one of its learner files really changes (its content,
//! not its timestamp: building reads sources, and some systems report
//! reads), or on `r`. Saves during a grade lead to one more grade.
//!
//! When an exercise is done, the screen pauses on what was achieved, the
//! reference solution and the chapter's further reading until `n`.
//!
//! The loop returns what to do next ([`Next`]): list, or quit.

use crate::app::{App, Event, Next};
use crate::course::{
    CourseDirs, Exercise, ExerciseInfo, Place, error_place, further_reading, slashed, todo_places,
};
use crate::hints::{self, Hint};
use crate::progress::{self, Stage, State};
use crate::reset;
use crate::screen::{self, Lines};
use crate::term::{self, Input, Look, Paint, Session};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};
use xsafe_grade::StepName;
use xsafe_report::ExerciseReport;

/// What the screen is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Saves and keys.
    Working,
    /// `y` or `n`: reset the exercise?
    ConfirmReset,
    /// The exercise is done: `n` for the next one.
    Done,
    /// Every exercise is done.
    AllDone,
}

/// One exercise's screen.
struct Watch {
    index: usize,
    report: Option<ExerciseReport>,
    took: Option<Duration>,
    grades: usize,
    error: Option<String>,
    /// The learner files when the last grade started.
    graded_files: Option<BTreeMap<PathBuf, String>>,
    hint: Option<Hint>,
    message: Option<String>,
    mode: Mode,
    /// When to look at the files again after a burst of saves.
    settle: Option<Instant>,
    /// When the first save since the last grade's start was seen.
    saved: Option<Instant>,
    /// The row of the status line, redrawn while a grade runs.
    status_row: Option<u16>,
    /// Whether the running grade is the exercise's first one here (no
    /// generated workspace yet): it builds everything, and takes minutes.
    cold: bool,
    /// The report shown is the running grade's quick part: the cases it
    /// left for last (release builds, long sweeps) run now.
    confirming: bool,
}

/// How long saves must pause before the files are read: editors write a
/// file in more than one step (a write and a rename, a few milliseconds
/// apart), and every millisecond here is one the learner waits.
const SETTLE: Duration = Duration::from_millis(60);

/// Runs watch mode on the current exercise.
pub fn run(app: &mut App) -> std::io::Result<Next> {
    let index = app.current();
    app.set_current(index);
    let mut watch = Watch::new(index);
    watch.start_grade(app);
    watch.draw(app)?;
    loop {
        let timeout = watch.timeout(app);
        let event = match timeout {
            Some(timeout) => match app.events.recv_timeout(timeout) {
                Ok(event) => Some(event),
                Err(RecvTimeoutError::Timeout) => None,
                Err(_) => return Ok(Next::Quit),
            },
            None => match app.events.recv() {
                Ok(event) => Some(event),
                Err(_) => return Ok(Next::Quit),
            },
        };
        match event {
            None => watch.tick(app)?,
            Some(Event::Input(Input::Key(key))) => {
                if let Some(next) = watch.key(app, key)? {
                    return Ok(next);
                }
            }
            Some(Event::Input(Input::Resize)) => watch.draw(app)?,
            Some(Event::Input(Input::Failed(err))) => {
                return Err(std::io::Error::other(err));
            }
            Some(Event::Saved) => {
                watch.saved.get_or_insert_with(Instant::now);
                watch.settle = Some(Instant::now() + SETTLE);
            }
            Some(Event::WatchFailed(err)) => {
                watch.message = Some(format!(
                    "Watching files failed ({err}): press r to grade, or start again with `cargo xsafe --manual-run`."
                ));
                watch.draw(app)?;
            }
            Some(Event::QuickGraded(graded)) => {
                // The grade goes on with the deferred cases: shown now,
                // and the grade's end replaces it.
                if graded.index == watch.index {
                    let started = Instant::now();
                    watch.graded(graded, true);
                    watch.draw(app)?;
                    xsafe_grade::timing("the quick grade drawn", started);
                }
            }
            Some(Event::Graded(graded)) => {
                let started = Instant::now();
                app.graded();
                if graded.index == watch.index {
                    watch.graded(graded, false);
                }
                if watch.changed_since_grade(app) {
                    watch.start_grade(app);
                }
                watch.draw(app)?;
                xsafe_grade::timing("the grade drawn", started);
            }
        }
    }
}

impl Watch {
    fn new(index: usize) -> Watch {
        Watch {
            index,
            report: None,
            took: None,
            grades: 0,
            error: None,
            graded_files: None,
            hint: None,
            message: None,
            mode: Mode::Working,
            settle: None,
            saved: None,
            status_row: None,
            cold: false,
            confirming: false,
        }
    }

    fn exercise<'a>(&self, app: &'a App) -> &'a Exercise {
        &app.course.exercises[self.index]
    }

    /// How long to wait for an event: until saves settle, or until the
    /// running grade's status line needs a new second.
    fn timeout(&self, app: &App) -> Option<Duration> {
        let settle = self
            .settle
            .map(|at| at.saturating_duration_since(Instant::now()));
        let spin = app.running.map(|_| Duration::from_millis(250));
        match (settle, spin) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Nothing happened for a while: saves have settled, or the spinner
    /// moves.
    fn tick(&mut self, app: &mut App) -> std::io::Result<()> {
        if self.settle.is_some_and(|at| at <= Instant::now()) {
            self.settle = None;
            if self.changed_since_grade(app) && app.running.is_none() {
                self.start_grade(app);
                return self.draw(app);
            }
        }
        if let (Some(row), Some(_)) = (self.status_row, app.running) {
            let (width, _) = Session::size();
            let line = self.status_line(app, Look::stdout(), usize::from(width));
            term::redraw_row(row, &line)?;
        }
        Ok(())
    }

    /// Whether the learner files differ from the ones last graded.
    fn changed_since_grade(&self, app: &App) -> bool {
        self.mode != Mode::AllDone
            && self.graded_files.as_ref() != Some(&progress::learner_blobs(self.exercise(app)))
    }

    fn start_grade(&mut self, app: &mut App) {
        if app
            .running
            .is_some_and(|running| running.index == self.index)
        {
            // One grade at a time; this one is graded again when it ends.
            return;
        }
        self.graded_files = Some(progress::learner_blobs(self.exercise(app)));
        if let Some(saved) = self.saved.take() {
            xsafe_grade::timing("from the first save to the grade's start", saved);
        }
        let exercise = self.exercise(app).name().to_owned();
        self.cold = !xsafe_grade::built_before(&app.course.work_dir().join("work").join(exercise));
        app.grade(self.index);
    }

    /// Shows a grade's report: its quick part when `quick` (the grade
    /// goes on), else the whole grade.
    fn graded(&mut self, graded: crate::grading::Graded, quick: bool) {
        self.confirming = quick;
        if !quick {
            self.grades += 1;
        }
        self.took = Some(graded.took);
        match graded.result {
            Ok(report) => {
                self.error = None;
                let complete = report.is_complete();
                let step_changed = self.hint.as_ref().is_some_and(|hint| {
                    report
                        .first_failing()
                        .is_none_or(|case| case.step != hint.step.as_str())
                });
                if step_changed {
                    self.hint = None;
                }
                self.report = Some(report);
                if complete && self.mode != Mode::ConfirmReset {
                    self.mode = Mode::Done;
                } else if self.mode == Mode::Done {
                    self.mode = Mode::Working;
                }
            }
            Err(err) => self.error = Some(err),
        }
    }

    /// The step to work on: the first failing case's, else the one the
    /// last grade of these files recorded, else the starter's.
    fn step(&self, app: &App) -> StepName {
        if let Some(step) = self
            .report
            .as_ref()
            .and_then(|report| report.first_failing())
            .and_then(|case| StepName::parse(&case.step))
        {
            return step;
        }
        let state = State::load(&app.course);
        let standing = progress::standing(&state, self.exercise(app), &app.toolchain);
        progress::step_without_grade(self.exercise(app), &standing)
    }

    fn key(&mut self, app: &mut App, key: KeyEvent) -> std::io::Result<Option<Next>> {
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        if control && matches!(key.code, KeyCode::Char('c' | 'd')) {
            return Ok(Some(Next::Quit));
        }
        if self.mode == Mode::ConfirmReset {
            match key.code {
                KeyCode::Char('y' | 'Y') => {
                    self.mode = Mode::Working;
                    self.reset(app);
                }
                KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                    self.mode = Mode::Working;
                    self.message = Some("Nothing was reset.".to_owned());
                }
                _ => return Ok(None),
            }
            self.draw(app)?;
            return Ok(None);
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return Ok(Some(Next::Quit)),
            KeyCode::Char('l') => return Ok(Some(Next::List)),
            KeyCode::Char('h') if self.mode == Mode::Working => {
                let step = self.step(app);
                self.hint = hints::next(&app.course, self.exercise(app), step);
                if self.hint.is_none() {
                    self.message = Some(format!("The {step} step has no hints."));
                }
            }
            KeyCode::Char('r') if self.mode != Mode::AllDone => {
                self.message = None;
                if app.running.is_some() {
                    self.message =
                        Some("A grade is running; it is graded again when it ends.".to_owned());
                    app.queued = Some(self.index);
                } else {
                    self.start_grade(app);
                }
            }
            KeyCode::Char('x') if self.mode != Mode::AllDone => {
                self.mode = Mode::ConfirmReset;
            }
            KeyCode::Char('n') if self.mode == Mode::Done => self.next_exercise(app),
            KeyCode::Char('e') if self.mode != Mode::AllDone => {
                let file = self
                    .place_to_edit(app)
                    .map(|place| (place.relative, place.path));
                self.edit(app, file);
            }
            KeyCode::Char(digit @ '1'..='9') if self.mode != Mode::AllDone => {
                let files = self.exercise(app).learner_files();
                self.edit(app, files.get(digit as usize - '1' as usize).cloned());
            }
            _ => return Ok(None),
        }
        self.draw(app)?;
        Ok(None)
    }

    /// The file to edit now: where the compiler's first error is, else
    /// the first place the starter marks `TODO(step)` for the step, else
    /// the crate's root.
    fn place_to_edit(&self, app: &App) -> Option<Place> {
        let exercise = self.exercise(app);
        if let Some(errors) = self.report.as_ref().and_then(|r| r.crate_errors.as_deref()) {
            return error_place(exercise, errors);
        }
        let step = self.step(app);
        todo_places(exercise, step.as_str())
            .into_iter()
            .next()
            .or_else(|| {
                exercise
                    .learner_files()
                    .into_iter()
                    .find(|(relative, _)| relative == "src/lib.rs")
                    .map(|(relative, path)| Place {
                        relative,
                        path,
                        line: 1,
                    })
            })
    }

    fn edit(&mut self, app: &mut App, file: Option<(String, PathBuf)>) {
        let Some((relative, file)) = file else {
            return;
        };
        self.message = match app.edit(&file) {
            Ok(()) => Some(format!(
                "Opened {relative} with {}.",
                app.options
                    .editor
                    .as_ref()
                    .map_or("the editor", |editor| editor.name())
            )),
            Err(err) => Some(err),
        };
    }

    fn reset(&mut self, app: &mut App) {
        let exercise = self.exercise(app);
        match reset::reset(&app.course, exercise) {
            Ok(backup) => {
                hints::clear(&app.course, exercise);
                self.hint = None;
                let backup = backup
                    .strip_prefix(&app.course.root)
                    .map(slashed)
                    .unwrap_or_else(|_| backup.display().to_string());
                self.message = Some(format!(
                    "{} is back to its starter; your files are in {backup}. Hints start again.",
                    exercise.name()
                ));
                self.start_grade(app);
            }
            Err(err) => self.message = Some(format!("Reset failed, nothing lost: {err}")),
        }
    }

    fn next_exercise(&mut self, app: &mut App) {
        let standings = app.standings();
        match progress::next_pending(&standings, self.index) {
            Some(next) => {
                app.set_current(next);
                *self = Watch::new(next);
                self.start_grade(app);
            }
            None => self.mode = Mode::AllDone,
        }
    }

    /// Draws the whole screen, fitted to the terminal.
    fn draw(&mut self, app: &App) -> std::io::Result<()> {
        let (width, height) = Session::size();
        let look = Look::stdout();
        let height = usize::from(height).max(10);
        // Quoted output and further reading give way until the screen
        // fits (the rest of it is short).
        let mut room = 40;
        let mut brief = false;
        let (mut lines, mut status_row, mut tail) =
            self.layout(app, look, usize::from(width), room, brief);
        while lines.len() > height && room > 3 {
            room = room.saturating_sub(lines.len() - height).clamp(3, room - 1);
            (lines, status_row, tail) = self.layout(app, look, usize::from(width), room, brief);
        }
        if lines.len() > height {
            brief = true;
            (lines, status_row, tail) = self.layout(app, look, usize::from(width), room, brief);
        }
        if lines.len() > height {
            // Still too tall: the middle gives way; the header, and what
            // the learner just asked for (a hint), the status and the keys
            // stay.
            let kept = lines.split_off(tail);
            lines.truncate(height.saturating_sub(kept.len() + 1));
            lines.push(look.paint(
                Paint::Dim,
                &screen::cut_to(
                    "… (a taller terminal shows the rest)",
                    usize::from(width).saturating_sub(1),
                ),
            ));
            status_row = status_row.map(|row| row - tail + lines.len());
            lines.extend(kept);
        }
        self.status_row = status_row.and_then(|row| u16::try_from(row).ok());
        term::draw(&lines)
    }

    /// The screen's lines; `room` lines for quoted output. Also the index
    /// of the status line, and where the lines start that must stay on a
    /// screen too small for all (the hint, messages, status, keys).
    fn layout(
        &self,
        app: &App,
        look: Look,
        width: usize,
        room: usize,
        brief: bool,
    ) -> (Vec<String>, Option<usize>, usize) {
        let exercise = self.exercise(app);
        let standings = app.standings();
        let mut out = Lines::new(look, width);
        out.brief = brief;
        if self.mode == Mode::AllDone {
            let lines = all_done(app, look, width, &standings);
            let tail = lines.len();
            return (lines, None, tail);
        }
        let numbered = app.options.editor.is_some();
        let points = self
            .report
            .as_ref()
            .filter(|report| report.compiles())
            .map(|report| report.points);
        screen::exercise_header(
            &mut out,
            &app.course,
            self.index,
            &standings,
            points,
            numbered,
        );
        out.blank();
        match &self.report {
            Some(report) => {
                screen::step_lines(&mut out, exercise, &report.steps, report.compiles())
            }
            None => screen::ungraded_step_lines(&mut out, exercise),
        }
        out.blank();
        match (&self.report, &self.error) {
            (_, Some(err)) => {
                out.text(
                    0,
                    &format!("Cannot grade {}: {err}", exercise.name()),
                    Some(Paint::Bad),
                );
                out.text(
                    0,
                    "This is a problem of the course or of this machine, not of your code.",
                    None,
                );
            }
            (None, None) => {
                let step = self.step(app);
                screen::goal_line(&mut out, exercise, step);
                screen::todo_line(&mut out, exercise, step);
            }
            (Some(report), None) if report.crate_errors.is_some() => {
                screen::not_compiling(&mut out, exercise, report, room);
            }
            (Some(report), None) if self.mode == Mode::Done => {
                done_section(&mut out, app, self.index, report, room);
            }
            (Some(report), None) if self.confirming => {
                // Every quick case passes; the deferred ones run now. They
                // are not failures: name them, without a verdict.
                let deferred: Vec<&str> = report
                    .cases
                    .iter()
                    .filter(|case| case.status == xsafe_report::CaseStatus::NotRun)
                    .map(|case| case.name.as_str())
                    .collect();
                out.text(
                    0,
                    &format!(
                        "✓ Every quick case passes. Confirming with the long ones, which decide whether {} is done: {}.",
                        exercise.name(),
                        deferred.join(", ")
                    ),
                    Some(Paint::Good),
                );
            }
            (Some(report), None) => match report.first_failing() {
                Some(case) => {
                    if let Some(step) = StepName::parse(&case.step) {
                        screen::goal_line(&mut out, exercise, step);
                        screen::todo_line(&mut out, exercise, step);
                        out.blank();
                    }
                    screen::failing_case(&mut out, exercise, case, room);
                }
                None => {
                    if let Some(reason) = &report.reason {
                        out.text(0, reason, Some(Paint::Bad));
                    }
                }
            },
        }
        out.blank();
        let tail = out.lines.len();
        if let Some(hint) = &self.hint {
            screen::hint_lines(&mut out, hint);
        }
        if let Some(message) = &self.message {
            out.blank();
            out.text(0, message, Some(Paint::Warn));
        }
        if let Some(err) = &app.watch_error {
            out.blank();
            out.text(
                0,
                &format!("Files are not watched ({err}): press r to grade. `cargo xsafe --manual-run` starts without watching."),
                Some(Paint::Warn),
            );
        }
        out.blank();
        let status_row = out.lines.len();
        let status = self.status_line(app, look, width);
        out.push(status);
        if app
            .running
            .is_some_and(|running| running.index == self.index)
            && self.cold
        {
            out.text(
                2,
                "The first grade builds the exercise, its cases and their dependencies: under a minute on 2 cores, once. Later grades take about a second. Meanwhile, read the chapter.",
                Some(Paint::Dim),
            );
        }
        let keys = self.keys(app);
        let keys: Vec<(&str, &str)> = keys
            .iter()
            .map(|(key, what)| (*key, what.as_str()))
            .collect();
        for line in screen::keys_line(look, &keys, out.width) {
            out.push(line);
        }
        (out.lines, Some(status_row), tail)
    }

    /// What the tool is doing: grading (with the time so far), or watching.
    fn status_line(&self, app: &App, look: Look, width: usize) -> String {
        let exercise = self.exercise(app);
        let text = match app.running {
            Some(running) if running.index == self.index => {
                let elapsed = running.started.elapsed();
                let what = if self.confirming {
                    "Running the long cases".to_owned()
                } else if self.cold {
                    format!("Grading {} for the first time", exercise.name())
                } else {
                    format!("Grading {}", exercise.name())
                };
                format!(
                    "{} {what} ({})",
                    screen::spinner(elapsed),
                    screen::seconds(elapsed)
                )
            }
            Some(_) => "Waiting for another grade to end…".to_owned(),
            None => {
                let watching = if app.options.manual_run || app.watch_error.is_some() {
                    "press r to grade again".to_owned()
                } else {
                    format!("watching exercises/{}/ for saves", exercise.name())
                };
                match self.took {
                    Some(took) => format!(
                        "Grade {} took {}; {watching}.",
                        self.grades,
                        screen::seconds(took)
                    ),
                    None => format!("Not graded yet; {watching}."),
                }
            }
        };
        let text = screen::cut_to(&text, width.saturating_sub(1));
        look.paint(Paint::Dim, &text)
    }

    /// The keys of this moment.
    fn keys(&self, app: &App) -> Vec<(&'static str, String)> {
        let keys = |list: &[(&'static str, &str)]| {
            list.iter()
                .map(|&(key, what)| (key, what.to_owned()))
                .collect::<Vec<_>>()
        };
        match self.mode {
            Mode::ConfirmReset => keys(&[
                ("y", "reset to the starter (your files are backed up first)"),
                ("n", "keep my files"),
            ]),
            Mode::AllDone => keys(&[("l", "list"), ("q", "quit")]),
            Mode::Done | Mode::Working => {
                let mut list = Vec::new();
                if self.mode == Mode::Done {
                    list.push(("n", "next exercise".to_owned()));
                }
                if self.mode == Mode::Working {
                    list.push(("h", "hint".to_owned()));
                }
                if app.options.editor.is_some() {
                    let file = self
                        .place_to_edit(app)
                        .map_or_else(|| "a file".to_owned(), |place| place.relative);
                    list.push(("e", format!("edit {file}")));
                    list.push(("1-9", "edit file [n]".to_owned()));
                }
                list.extend(keys(&[
                    ("r", "grade again"),
                    ("l", "list"),
                    ("x", "reset"),
                    ("q", "quit"),
                ]));
                list
            }
        }
    }
}

/// The pause after an exercise is done: what was achieved, the reference
/// solution and what to compare, the chapter's further reading, and the
/// next exercise.
fn done_section(out: &mut Lines, app: &App, index: usize, report: &ExerciseReport, room: usize) {
    let exercise = &app.course.exercises[index];
    let look = out.look;
    out.push(look.paint(
        Paint::Good,
        &format!(
            "✓ {} is done: {}/{} points. What you achieved:",
            exercise.name(),
            report.points,
            report.max_points
        ),
    ));
    for step in &exercise.manifest.steps {
        out.labelled(
            2,
            &format!("✓ {}:", step.name),
            Some(Paint::Good),
            &step.goal,
            None,
        );
    }
    out.blank();
    out.text(
        0,
        &format!(
            "Compare with the reference solution in {}/: where does each step's property live, which module upholds it, and what does the rest of the code rely on?",
            exercise.solution_dir()
        ),
        Some(Paint::Bold),
    );
    for root in &exercise.manifest.learner_files {
        let root = slashed(root);
        out.push(format!(
            "    git diff --no-index exercises/{name}/{root} {}/{root}",
            exercise.solution_dir(),
            name = exercise.name()
        ));
    }
    let reading = further_reading(&app.course, exercise);
    if !reading.is_empty() {
        out.blank();
        out.push(look.paint(
            Paint::Bold,
            &format!("Further reading, from {}:", exercise.chapter_path()),
        ));
        let mut used = 0;
        for item in &reading {
            let before = out.lines.len();
            out.labelled(2, "•", None, item, None);
            used += out.lines.len() - before;
            if used >= room {
                out.text(4, "… more in the chapter.", Some(Paint::Dim));
                break;
            }
        }
    }
    let standings = app.standings();
    out.blank();
    match progress::next_pending(&standings, index) {
        Some(next) => {
            let next = &app.course.exercises[next];
            out.text(
                0,
                &format!(
                    "Press n for the next exercise: {} ({}), chapter {}.",
                    next.manifest.title,
                    next.name(),
                    next.chapter_path()
                ),
                Some(Paint::Bold),
            );
        }
        None => out.text(
            0,
            "That was the last exercise not done: press n.",
            Some(Paint::Bold),
        ),
    }
}

/// Every exercise is done.
fn all_done(app: &App, look: Look, width: usize, standings: &[progress::Standing]) -> Vec<String> {
    let mut out = Lines::new(look, width);
    let (earned, total) = screen::course_points(&app.course, standings);
    out.push(look.paint(
        Paint::Good,
        "Every exercise of X-safe Rust is done. Well done!",
    ));
    out.blank();
    out.text(0, &format!("Course: {earned}/{total} points."), None);
    for (exercise, standing) in app.course.exercises.iter().zip(standings) {
        let mark = if standing.stage == Stage::Done {
            "✓"
        } else {
            " "
        };
        out.push(format!(
            "  {mark} {} ({})",
            exercise.manifest.title,
            exercise.name()
        ));
    }
    out.blank();
    out.text(0, "The reference solutions are in solutions/; the appendix for instructors (book/src/instructors.md) says how a class is graded.", None);
    out.blank();
    for line in screen::keys_line(look, &[("l", "list"), ("q", "quit")], out.width) {
        out.push(line);
    }
    out.lines
}
