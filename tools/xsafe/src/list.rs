//! The list of exercises: each one's state (not started, in progress,
//! done) and points, from the learner files and the recorded grades,
//! without grading. On a terminal it is interactive, as rustlings' list is:
//! move, continue here, open a file, reset; off a terminal it is a table.

use crate::app::{App, Event, Next};
use crate::course::{Course, ExerciseInfo};
use crate::hints;
use crate::progress::{self, Stage, Standing, State};
use crate::reset;
use crate::screen::{self, Lines, cut_to};
use crate::term::{self, Input, Look, Paint, Session};
use crossterm::event::{KeyCode, KeyModifiers};
use std::process::ExitCode;

/// The table's rows, as text: `▶` marks the current exercise.
fn rows(course: &Course, standings: &[Standing], current: usize, look: Look) -> Vec<String> {
    let mut rows = vec![look.paint(
        Paint::Bold,
        &format!(
            "   {:>2}  {:<24} {:<12} {:>9}  {}",
            "#", "Exercise", "State", "Points", "Chapter"
        ),
    )];
    for (index, (exercise, standing)) in course.exercises.iter().zip(standings).enumerate() {
        let mark = if index == current { "▶" } else { " " };
        let points = match standing.points() {
            Some(points) => format!("{points}/{}", exercise.manifest.total_points()),
            None => format!("–/{}", exercise.manifest.total_points()),
        };
        let state = format!("{:<12}", standing.stage.word());
        let state = match standing.stage {
            Stage::Done => look.paint(Paint::Good, &state),
            Stage::InProgress => look.paint(Paint::Warn, &state),
            Stage::NotStarted => state,
        };
        rows.push(format!(
            " {mark} {:>2}  {:<24} {state} {points:>9}  {}",
            index + 1,
            exercise.name(),
            exercise.chapter_path()
        ));
    }
    rows
}

/// The summary line: exercises done and points.
fn summary(course: &Course, standings: &[Standing]) -> String {
    let (earned, total) = screen::course_points(course, standings);
    let done = standings
        .iter()
        .filter(|standing| standing.stage == Stage::Done)
        .count();
    format!(
        "{done} of {} exercises done · course {earned}/{total} points {}",
        course.exercises.len(),
        screen::bar(earned, total, 20)
    )
}

/// `cargo xsafe list` off a terminal: the table and the summary. Exit
/// code 0 when every exercise is done.
pub fn plain(course: &Course) -> ExitCode {
    let state = State::load(course);
    let toolchain = progress::toolchain(&course.root);
    let standings = progress::standings(course, &state, &toolchain);
    let current = progress::current(course, &state, &standings);
    let look = Look::stdout();
    for row in rows(course, &standings, current, look) {
        println!("{row}");
    }
    println!();
    println!("{}", summary(course, &standings));
    println!(
        "{}",
        look.paint(
            Paint::Dim,
            "Points are those of each exercise's last grade of its current files (– when not graded since a change)."
        )
    );
    if standings
        .iter()
        .all(|standing| standing.stage == Stage::Done)
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::FAILED)
    }
}

/// The interactive list, on the alternate screen.
pub fn run(app: &mut App) -> std::io::Result<Next> {
    term::alternate_screen(true)?;
    let next = interact(app);
    term::alternate_screen(false)?;
    next
}

fn interact(app: &mut App) -> std::io::Result<Next> {
    let mut standings = app.standings();
    let mut current = app.current();
    let mut selected = current;
    let mut confirm_reset = false;
    let mut message: Option<String> = None;
    loop {
        draw(
            app,
            &standings,
            current,
            selected,
            confirm_reset,
            message.as_deref(),
        )?;
        let Ok(event) = app.events.recv() else {
            return Ok(Next::Quit);
        };
        let key = match event {
            Event::Input(Input::Key(key)) => key,
            Event::Input(Input::Resize) => continue,
            Event::Input(Input::Failed(err)) => return Err(std::io::Error::other(err)),
            Event::Graded(_) => {
                app.graded();
                standings = app.standings();
                continue;
            }
            Event::Saved | Event::WatchFailed(_) | Event::QuickGraded(_) => {
                standings = app.standings();
                continue;
            }
        };
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        if control && matches!(key.code, KeyCode::Char('c' | 'd')) {
            return Ok(Next::Quit);
        }
        message = None;
        let last = app.course.exercises.len() - 1;
        if confirm_reset {
            confirm_reset = false;
            if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                let exercise = &app.course.exercises[selected];
                message = Some(match reset::reset(&app.course, exercise) {
                    Ok(backup) => {
                        hints::clear(&app.course, exercise);
                        format!(
                            "{} is back to its starter; your files are in {}.",
                            exercise.name(),
                            backup.display()
                        )
                    }
                    Err(err) => format!("Reset failed, nothing lost: {err}"),
                });
                standings = app.standings();
            } else {
                message = Some("Nothing was reset.".to_owned());
            }
            continue;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc | KeyCode::Char('l') => return Ok(Next::Watch),
            KeyCode::Down | KeyCode::Char('j') => selected = (selected + 1).min(last),
            KeyCode::Up | KeyCode::Char('k') => selected = selected.saturating_sub(1),
            KeyCode::Home | KeyCode::Char('g') => selected = 0,
            KeyCode::End | KeyCode::Char('G') => selected = last,
            KeyCode::Enter | KeyCode::Char('c') => {
                app.set_current(selected);
                return Ok(Next::Watch);
            }
            KeyCode::Char('x') => confirm_reset = true,
            KeyCode::Char('o' | 'e') => {
                let files = app.course.exercises[selected].learner_files();
                message = Some(match files.first() {
                    Some((relative, file)) => match app.edit(file) {
                        Ok(()) => format!("Opened {relative}."),
                        Err(err) => err,
                    },
                    None => "This exercise has no files to open.".to_owned(),
                });
                standings = app.standings();
            }
            _ => {}
        }
        current = app.current();
    }
}

fn draw(
    app: &App,
    standings: &[Standing],
    current: usize,
    selected: usize,
    confirm_reset: bool,
    message: Option<&str>,
) -> std::io::Result<()> {
    let (width, _) = Session::size();
    let look = Look::stdout();
    let mut out = Lines::new(look, usize::from(width));
    out.push(look.paint(Paint::Heading, "X-safe Rust: exercises"));
    out.blank();
    let plain_look = Look {
        color: false,
        links: false,
    };
    let plain_rows = rows(&app.course, standings, current, plain_look);
    for (row, line) in rows(&app.course, standings, current, look)
        .into_iter()
        .enumerate()
    {
        let line = if row == selected + 1 {
            // The selected row: `>` (seen without colours too), reversed.
            let plain = &plain_rows[row];
            let plain = cut_to(&format!(">{}", plain.get(1..).unwrap_or("")), out.width);
            look.paint(Paint::Selected, &plain)
        } else {
            line
        };
        out.push(line);
    }
    out.blank();
    out.push(summary(&app.course, standings));
    out.text(
        0,
        "▶ current exercise. Points: each exercise's last grade of its current files (– when not graded since a change).",
        Some(Paint::Dim),
    );
    out.blank();
    if confirm_reset {
        let name = app.course.exercises[selected].name();
        out.text(
            0,
            &format!("Reset {name} to its starter? Your files are backed up first."),
            Some(Paint::Warn),
        );
        for line in screen::keys_line(look, &[("y", "reset"), ("n", "keep my files")], out.width) {
            out.push(line);
        }
    } else {
        if let Some(message) = message {
            out.text(0, message, Some(Paint::Warn));
        }
        let keys = [
            ("↑↓/jk", "move"),
            ("Enter/c", "continue here"),
            ("o", "open in the editor"),
            ("x", "reset"),
            ("q", "back"),
        ];
        for line in screen::keys_line(look, &keys, out.width) {
            out.push(line);
        }
    }
    term::draw(&out.lines)
}
