//! The interactive tool: one terminal session, one stream of events (keys,
//! saves, finished grades), and the screens that take turns on it. Each
//! screen's loop returns what to do next ([`Next`]); [`run`] goes there.

use crate::course::Course;
use crate::editor::Editor;
use crate::grading::{self, Graded};
use crate::progress::{self, Standing, State};
use crate::term::{self, Input, Session};
use crate::{list, watch};
use notify::{RecursiveMode, Watcher};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Instant;

/// What a screen's loop asks for when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Watch the current exercise.
    Watch,
    /// Show the list of exercises.
    List,
    /// Leave the tool.
    Quit,
}

/// Something that happened.
#[derive(Debug)]
pub enum Event {
    /// The terminal sent something.
    Input(Input),
    /// A source file under `exercises/` changed.
    Saved,
    /// The file watcher failed.
    WatchFailed(String),
    /// A grade's quick part ended: its report, while the cases it left
    /// for last (release builds, long sweeps) run. [`Event::Graded`]
    /// follows.
    QuickGraded(Graded),
    /// A grade ended.
    Graded(Graded),
}

/// How the learner started the tool.
#[derive(Debug, Clone)]
pub struct Options {
    /// Do not watch files: grade on `r` only.
    pub manual_run: bool,
    /// The editor that opens learner files, if any.
    pub editor: Option<Editor>,
}

/// The grade that runs, if one does.
#[derive(Debug, Clone, Copy)]
pub struct Running {
    /// The exercise being graded.
    pub index: usize,
    /// When it started.
    pub started: Instant,
}

/// What every screen shares.
pub struct App {
    /// The course.
    pub course: Course,
    /// The options.
    pub options: Options,
    /// `rustc --version`: part of every cache key.
    pub toolchain: String,
    /// The terminal.
    pub session: Session,
    /// The events.
    pub events: Receiver<Event>,
    sender: Sender<Event>,
    /// Why files are not watched, when watching was asked for and failed.
    pub watch_error: Option<String>,
    _watcher: Option<notify::RecommendedWatcher>,
    /// The grade that runs.
    pub running: Option<Running>,
    /// The exercise to grade once the running grade ends.
    pub queued: Option<usize>,
}

impl App {
    /// Starts a grade of the `index`th exercise, or queues it while
    /// another grade runs (two grades never share the build folders).
    pub fn grade(&mut self, index: usize) {
        if self.running.is_some() {
            self.queued = Some(index);
            return;
        }
        self.running = Some(Running {
            index,
            started: Instant::now(),
        });
        let course = self.course.clone();
        let toolchain = self.toolchain.clone();
        let sender = self.sender.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            // A bug of the tool or the engine must not leave the screen
            // grading forever.
            let quick = sender.clone();
            let graded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                grading::grade_showing(&course, index, &toolchain, false, |graded| {
                    let _ = quick.send(Event::QuickGraded(graded));
                })
            }))
            .unwrap_or_else(|payload| {
                let message = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("no message");
                Graded {
                    index,
                    result: Err(format!(
                        "the grade failed (a bug, please report it): {message}"
                    )),
                    took: started.elapsed(),
                }
            });
            let _ = sender.send(Event::Graded(graded));
        });
    }

    /// Notes that a grade ended, and starts the queued one. Every screen
    /// calls it on [`Event::Graded`].
    pub fn graded(&mut self) {
        self.running = None;
        if let Some(index) = self.queued.take() {
            self.grade(index);
        }
    }

    /// Every exercise's standing, now.
    pub fn standings(&self) -> Vec<Standing> {
        progress::standings(&self.course, &State::load(&self.course), &self.toolchain)
    }

    /// The current exercise.
    pub fn current(&self) -> usize {
        let state = State::load(&self.course);
        progress::current(&self.course, &state, &self.standings())
    }

    /// Makes the `index`th exercise the current one.
    pub fn set_current(&self, index: usize) {
        let name = self.course.exercises[index].name().to_owned();
        State::update(&self.course, |state| state.current = Some(name));
    }

    /// Opens `file` in the editor, giving it the terminal meanwhile.
    pub fn edit(&self, file: &Path) -> Result<(), String> {
        let Some(editor) = &self.options.editor else {
            return Err(
                "no editor: set $EDITOR, or start with `cargo xsafe --editor CMD`".to_owned(),
            );
        };
        self.session.lend(|| editor.open(file))
    }
}

/// Runs the interactive tool from `first` until a screen asks to quit.
pub fn run(course: Course, options: Options, first: Next) -> ExitCode {
    let (sender, events) = mpsc::channel();
    let session = match Session::start(sender.clone(), Event::Input) {
        Ok(session) => session,
        Err(err) => {
            term::error(&format!("cannot use the terminal: {err}"));
            return ExitCode::from(crate::CANNOT_RUN);
        }
    };
    let (watcher, watch_error) = if options.manual_run {
        (None, None)
    } else {
        match watch_files(&course.root.join("exercises"), sender.clone()) {
            Ok(watcher) => (Some(watcher), None),
            Err(err) => (None, Some(err)),
        }
    };
    let toolchain = progress::toolchain(&course.root);
    let mut app = App {
        course,
        options,
        toolchain,
        session,
        events,
        sender,
        watch_error,
        _watcher: watcher,
        running: None,
        queued: None,
    };
    let mut next = first;
    loop {
        let ended = match next {
            Next::Watch => watch::run(&mut app),
            Next::List => list::run(&mut app),
            Next::Quit => break,
        };
        next = match ended {
            Ok(next) => next,
            Err(err) => {
                drop(app.session);
                term::error(&format!("the terminal failed: {err}"));
                return ExitCode::from(crate::CANNOT_RUN);
            }
        };
    }
    // A grade still running stops with the tool: its builds would go on
    // holding the build folder's lock, and the next start would wait.
    if app.running.is_some() {
        xsafe_grade::limits::stop_running();
    }
    ExitCode::SUCCESS
}

/// Watches `exercises` for changes to source files.
fn watch_files(
    exercises: &Path,
    sender: Sender<Event>,
) -> Result<notify::RecommendedWatcher, String> {
    let root = exercises.to_path_buf();
    let mut watcher =
        notify::recommended_watcher(move |result: notify::Result<notify::Event>| match result {
            Ok(event) => {
                let changes =
                    event.kind.is_modify() || event.kind.is_create() || event.kind.is_remove();
                if !changes {
                    return;
                }
                for path in event.paths {
                    if is_source(&root, &path) {
                        let _ = sender.send(Event::Saved);
                    }
                }
            }
            Err(err) => {
                let _ = sender.send(Event::WatchFailed(err.to_string()));
            }
        })
        .map_err(|err| err.to_string())?;
    watcher
        .watch(exercises, RecursiveMode::Recursive)
        .map_err(|err| format!("cannot watch {}: {err}", exercises.display()))?;
    Ok(watcher)
}

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
