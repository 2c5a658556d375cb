//! The learner's screen: the report model ([`ExerciseReport`]) drawn for a
//! terminal of a given size, next to what the learner needs around it
//! (what to read, what to edit, the step's goal, the keys).
//!
//! Prose is wrapped at word boundaries to the terminal's width; what the
//! learner's code or the compiler wrote is escaped
//! ([`xsafe_report::render::for_terminal`]) and cut to the lines that fit,
//! with the count of the rest. The same functions write the plain report
//! of `cargo xsafe check` (no colours, no links, a fixed width).

use crate::course::{Course, Exercise, ExerciseInfo};
use crate::hints::Hint;
use crate::progress::{Stage, Standing};
use crate::term::{Look, Paint};
use std::time::Duration;
use xsafe_grade::StepName;
use xsafe_report::render::for_terminal;
use xsafe_report::{CaseReport, ExerciseReport, StepReport};

/// Lines being laid out for a width.
#[derive(Debug, Clone)]
pub struct Lines {
    /// How they are written.
    pub look: Look,
    /// The columns available.
    pub width: usize,
    /// The lines so far.
    pub lines: Vec<String>,
    /// For a screen too small for everything: goals on one line, cases
    /// without what they prove.
    pub brief: bool,
}

impl Lines {
    /// No lines yet, for `width` columns.
    pub fn new(look: Look, width: usize) -> Lines {
        Lines {
            look,
            // A line that fills the last column makes some terminals wrap.
            width: width.saturating_sub(1).max(20),
            lines: Vec::new(),
            brief: false,
        }
    }

    /// An empty line (never two in a row, never first).
    pub fn blank(&mut self) {
        if self.lines.last().is_some_and(|line| !line.is_empty()) {
            self.lines.push(String::new());
        }
    }

    /// A line as is: the caller made it fit.
    pub fn push(&mut self, line: String) {
        self.lines.push(line);
    }

    /// One line made of parts, each painted and perhaps linked to a file,
    /// cut to the width: a part that does not fit is cut with `…`, and
    /// the parts after it are left out.
    pub fn parts(&mut self, parts: &[Part<'_>]) {
        let mut line = String::new();
        let mut used = 0;
        for part in parts {
            // A file name can hold control characters: they are shown, not
            // obeyed.
            let escaped = for_terminal(part.text, false);
            let width = textwrap::core::display_width(&escaped);
            let (text, last) = if used + width > self.width {
                (cut_to(&escaped, self.width.saturating_sub(used)), true)
            } else {
                (escaped, false)
            };
            let painted = match part.paint {
                Some(paint) => self.look.paint(paint, &text),
                None => text.clone(),
            };
            match part.link {
                Some(target) => line.push_str(&self.look.file_link(&painted, target)),
                None => line.push_str(&painted),
            }
            used += textwrap::core::display_width(&text);
            if last {
                break;
            }
        }
        self.lines.push(line);
    }

    /// `text` wrapped at word boundaries, every line indented by `indent`
    /// columns, painted with `paint`.
    pub fn text(&mut self, indent: usize, text: &str, paint: Option<Paint>) {
        self.labelled(indent, "", None, text, paint);
    }

    /// `label` then `text`, wrapped so that every line of the text starts
    /// at the same column (`indent` + the label's width + 1).
    pub fn labelled(
        &mut self,
        indent: usize,
        label: &str,
        label_paint: Option<Paint>,
        text: &str,
        paint: Option<Paint>,
    ) {
        let text = for_terminal(text, false);
        let label_width = textwrap::core::display_width(label);
        let hang = indent + label_width + usize::from(label_width > 0);
        let pad = " ".repeat(hang);
        // Never split a word at its hyphens (URLs, `rust-lang`).
        let options = textwrap::Options::new(self.width.max(hang + 10))
            .initial_indent(&pad)
            .subsequent_indent(&pad)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        for (number, line) in textwrap::wrap(&text, options).iter().enumerate() {
            let body = &line[hang.min(line.len())..];
            let body = match paint {
                Some(paint) => self.look.paint(paint, body),
                None => body.to_owned(),
            };
            let lead = if number == 0 && label_width > 0 {
                let label = match label_paint {
                    Some(paint) => self.look.paint(paint, label),
                    None => label.to_owned(),
                };
                format!("{}{label} ", " ".repeat(indent))
            } else {
                " ".repeat(hang)
            };
            self.lines.push(format!("{lead}{body}"));
        }
    }

    /// Text the compiler or the learner's code wrote: escaped, every line
    /// indented and cut to the width (not wrapped: it keeps its layout).
    /// At most `room` lines; then a line that counts the rest.
    pub fn quoted(&mut self, indent: usize, text: &str, room: usize, rest: &str) {
        let lines: Vec<&str> = text.lines().collect();
        let room = room.max(1);
        let shown = if lines.len() > room {
            room - 1
        } else {
            lines.len()
        };
        let pad = " ".repeat(indent);
        for line in &lines[..shown] {
            let line = for_terminal(line, false);
            let cut = cut_to(&line, self.width.saturating_sub(indent));
            self.lines
                .push(format!("{pad}{}", self.look.paint(Paint::Dim, &cut)));
        }
        if lines.len() > shown {
            let more = format!("… {} more lines: {rest}", lines.len() - shown);
            let more = cut_to(&more, self.width.saturating_sub(indent));
            self.lines
                .push(format!("{pad}{}", self.look.paint(Paint::Dim, &more)));
        }
    }
}

/// A piece of a line: its text, its paint, the file it links to.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// The text (plain).
    pub text: &'a str,
    /// How it is painted.
    pub paint: Option<Paint>,
    /// The file it links to.
    pub link: Option<&'a std::path::Path>,
}

impl<'a> Part<'a> {
    /// Plain text.
    pub fn plain(text: &'a str) -> Part<'a> {
        Part {
            text,
            paint: None,
            link: None,
        }
    }

    /// Painted text.
    pub fn painted(text: &'a str, paint: Paint) -> Part<'a> {
        Part {
            text,
            paint: Some(paint),
            link: None,
        }
    }

    /// Text linked to a file.
    pub fn link(text: &'a str, target: &'a std::path::Path) -> Part<'a> {
        Part {
            text,
            paint: None,
            link: Some(target),
        }
    }
}

/// `text` cut to `width` columns, with `…` when cut.
pub fn cut_to(text: &str, width: usize) -> String {
    if textwrap::core::display_width(text) <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = textwrap::core::display_width(c.encode_utf8(&mut [0; 4]));
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// A bar of `width` cells, `done` of `total` filled.
pub fn bar(done: u32, total: u32, width: usize) -> String {
    let filled = (u64::from(done) * width as u64)
        .checked_div(u64::from(total))
        .map_or(width, |filled| filled as usize)
        .min(width);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

/// The course's points so far: earned and available, counting the
/// exercises whose current files have a recorded grade.
pub fn course_points(course: &Course, standings: &[Standing]) -> (u32, u32) {
    let earned = standings.iter().filter_map(Standing::points).sum();
    let total = course
        .exercises
        .iter()
        .map(|exercise| exercise.manifest.total_points())
        .sum();
    (earned, total)
}

/// The first lines of every screen about one exercise: which it is, its
/// points, what to read and what to edit.
pub fn exercise_header(
    out: &mut Lines,
    course: &Course,
    index: usize,
    standings: &[Standing],
    points: Option<u32>,
    numbered_files: bool,
) {
    let exercise = &course.exercises[index];
    let max = exercise.manifest.total_points();
    let points = match points {
        Some(points) => format!("{points}/{max} points"),
        None => format!("–/{max} points"),
    };
    let (earned, total) = course_points(course, standings);
    let done = standings.iter().filter(|s| s.stage == Stage::Done).count();
    let title = format!(
        "Exercise {} of {}: {} ({})",
        index + 1,
        course.exercises.len(),
        exercise.manifest.title,
        exercise.name()
    );
    let rest = format!(
        "  {points} · course {earned}/{total} points, {done} of {} done",
        course.exercises.len()
    );
    out.parts(&[Part::painted(&title, Paint::Heading), Part::plain(&rest)]);
    out.blank();
    let chapter = exercise.chapter_path();
    let chapter_file = course.root.join(&chapter);
    let served = format!("  {} (`cargo xsafe book`)", exercise.chapter_url());
    out.parts(&[
        Part::painted("Read  ", Paint::Bold),
        Part::link(&chapter, &chapter_file),
        Part::painted(&served, Paint::Dim),
    ]);
    files_lines(out, exercise, numbered_files);
}

/// `title` painted, then `rest`, cut to the width.
fn cut_to_styled(look: Look, title: &str, paint: Paint, rest: &str, width: usize) -> String {
    let title_width = textwrap::core::display_width(title);
    if title_width >= width {
        return look.paint(paint, &cut_to(title, width));
    }
    let rest = cut_to(rest, width - title_width);
    format!("{}{rest}", look.paint(paint, title))
}

/// `Edit  exercises/NAME/` and the learner's files, each a link, as many
/// to a line as fit; numbered when keys open them.
fn files_lines(out: &mut Lines, exercise: &Exercise, numbered: bool) {
    let look = out.look;
    let folder = format!("exercises/{}/", exercise.name());
    let lead = format!("{}  {folder}", look.paint(Paint::Bold, "Edit"));
    let lead_width = 6 + folder.len();
    let mut line = lead;
    let mut used = lead_width;
    for (number, (relative, absolute)) in exercise.learner_files().iter().enumerate() {
        let relative = for_terminal(relative, false);
        let shown = if numbered && number < 9 {
            format!("[{}] {relative}", number + 1)
        } else {
            relative
        };
        let width = textwrap::core::display_width(&shown) + 2;
        if used + width > out.width && used > lead_width {
            out.push(line);
            line = " ".repeat(lead_width);
            used = lead_width;
        }
        line.push_str("  ");
        line.push_str(&look.file_link(&shown, absolute));
        used += width;
    }
    out.push(line);
}

/// One line per step: a bar and the step's points, in points.
pub fn step_lines(out: &mut Lines, exercise: &Exercise, steps: &[StepReport], compiles: bool) {
    for step in steps {
        let Some(name) = StepName::parse(&step.name) else {
            continue;
        };
        let given = exercise.manifest.cases_of(name).all(|case| case.given);
        let full = step.points == step.max_points;
        let to_go = format!("{} points to go", step.max_points - step.points);
        let (state, paint) = if !compiles {
            ("not graded: your crate does not compile", Paint::Dim)
        } else if full && given {
            ("✓ kept (the starter gives this step)", Paint::Good)
        } else if full {
            ("✓ done", Paint::Good)
        } else {
            (to_go.as_str(), Paint::Bad)
        };
        let points = if compiles {
            format!("{:>2}/{:<2} points", step.points, step.max_points)
        } else {
            format!(" –/{:<2} points", step.max_points)
        };
        let lead = format!(
            "  {:<12} {} {points}  ",
            step.name,
            bar(if compiles { step.points } else { 0 }, step.max_points, 10)
        );
        out.parts(&[Part::plain(&lead), Part::painted(state, paint)]);
    }
}

/// Step lines before any grade: each step's points available.
pub fn ungraded_step_lines(out: &mut Lines, exercise: &Exercise) {
    let steps: Vec<StepReport> = StepName::ALL
        .iter()
        .map(|&step| StepReport {
            name: step.to_string(),
            points: 0,
            max_points: exercise.manifest.cases_of(step).map(|c| c.points).sum(),
        })
        .collect();
    for step in steps {
        let lead = format!(
            "  {:<12} {}  –/{:<2} points  ",
            step.name,
            bar(0, step.max_points, 10),
            step.max_points,
        );
        out.parts(&[
            Part::plain(&lead),
            Part::painted("not graded yet", Paint::Dim),
        ]);
    }
}

/// The step to work on, with its goal.
pub fn goal_line(out: &mut Lines, exercise: &Exercise, step: StepName) {
    let Some(description) = exercise.manifest.step(step) else {
        return;
    };
    let label = format!("Step  {step}:");
    if out.brief {
        let goal = for_terminal(&description.goal, false);
        let rest = format!(" {goal}");
        out.parts(&[Part::painted(&label, Paint::Bold), Part::plain(&rest)]);
    } else {
        out.labelled(0, &label, Some(Paint::Bold), &description.goal, None);
    }
}

/// Where the starter marks the step's work (`TODO(step):` lines): the
/// first place as a link, and how many more there are.
pub fn todo_line(out: &mut Lines, exercise: &Exercise, step: StepName) {
    let places = crate::course::todo_places(exercise, step.as_str());
    let Some(first) = places.first() else {
        return;
    };
    let shown = first.shown();
    let files: std::collections::BTreeSet<&str> =
        places.iter().map(|place| place.relative.as_str()).collect();
    let rest = match places.len() {
        1 => format!("  marked TODO({step})"),
        count => format!(
            "  and {} more marked TODO({step}), in {}",
            count - 1,
            files.into_iter().collect::<Vec<_>>().join(", ")
        ),
    };
    out.parts(&[
        Part::painted("Work  ", Paint::Bold),
        Part::link(&shown, &first.path),
        Part::painted(&rest, Paint::Dim),
    ]);
}

/// The first failing case: what it proves, why it failed, its details in
/// at most `room` lines.
pub fn failing_case(out: &mut Lines, exercise: &Exercise, case: &CaseReport, room: usize) {
    let look = out.look;
    let title = format!(
        "✗ {} ({}, {} point{}): {}",
        case.name,
        case.kind(),
        case.max_points,
        if case.max_points == 1 { "" } else { "s" },
        case.status.word()
    );
    out.push(cut_to_styled(look, &title, Paint::Bad, "", out.width));
    if !case.proves.is_empty() && !out.brief {
        out.text(2, &case.proves, None);
    }
    if let Some(reason) = &case.reason {
        out.text(
            2,
            &format!("{}: {reason}.", case.status.sentence()),
            Some(Paint::Bold),
        );
    }
    if !case.details.trim().is_empty() {
        out.quoted(
            4,
            case.details.trim_end(),
            room,
            &format!("`cargo xsafe check {}` shows them all", exercise.name()),
        );
    }
}

/// The crate does not compile: its first error, and that no step is to
/// blame.
pub fn not_compiling(out: &mut Lines, exercise: &Exercise, report: &ExerciseReport, room: usize) {
    let Some((first, count)) = report.first_crate_error() else {
        return;
    };
    let look = out.look;
    let errors = if count == 1 {
        "1 error".to_owned()
    } else {
        format!("{count} errors; the first")
    };
    out.push(look.paint(
        Paint::Bad,
        &cut_to(
            &format!("✗ Your crate does not compile ({errors}):"),
            out.width,
        ),
    ));
    out.quoted(
        4,
        &first,
        room,
        &format!("`cargo xsafe check {}` shows them all", exercise.name()),
    );
    out.text(
        2,
        "No case runs until the crate compiles, so no step is graded: fix this error first (the compiler's message above says where).",
        None,
    );
}

/// A hint, with a note after the step's last one.
pub fn hint_lines(out: &mut Lines, hint: &Hint) {
    out.push(out.look.paint(Paint::Heading, &hint.title()));
    out.text(2, &hint.text, None);
    if hint.is_last() {
        out.text(2, Hint::AFTER_LAST, Some(Paint::Dim));
    }
}

/// How long something took, for people.
pub fn seconds(took: Duration) -> String {
    let secs = took.as_secs_f64();
    if secs < 10.0 {
        format!("{secs:.1} s")
    } else if secs < 120.0 {
        format!("{secs:.0} s")
    } else {
        format!("{} min {} s", took.as_secs() / 60, took.as_secs() % 60)
    }
}

/// A spinner's frame for `elapsed`.
pub fn spinner(elapsed: Duration) -> char {
    const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    FRAMES[(elapsed.as_millis() / 250) as usize % FRAMES.len()]
}

/// The keys line: `h hint · l list · q quit`.
pub fn keys_line(look: Look, keys: &[(&str, &str)], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for (key, what) in keys {
        let plain = format!("{key} {what}");
        let width_of = textwrap::core::display_width(&plain) + 3;
        if used + width_of > width && used > 0 {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        if used > 0 {
            line.push_str(&look.paint(Paint::Dim, " · "));
        }
        line.push_str(&look.paint(Paint::Key, key));
        line.push(' ');
        line.push_str(what);
        used += width_of;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The whole plain report of one grade, for `cargo xsafe check`: the
/// header, the steps, then the first failing case or the compile error,
/// or that the exercise is done.
pub fn plain_report(
    look: Look,
    course: &Course,
    index: usize,
    standings: &[Standing],
    report: &ExerciseReport,
    took: Duration,
) -> Vec<String> {
    let exercise = &course.exercises[index];
    let mut out = Lines::new(look, 100);
    exercise_header(
        &mut out,
        course,
        index,
        standings,
        Some(report.points),
        false,
    );
    out.blank();
    step_lines(&mut out, exercise, &report.steps, report.compiles());
    out.blank();
    if report.crate_errors.is_some() {
        not_compiling(&mut out, exercise, report, 40);
    } else if let Some(case) = report.first_failing() {
        if let Some(step) = StepName::parse(&case.step) {
            goal_line(&mut out, exercise, step);
            todo_line(&mut out, exercise, step);
            out.blank();
        }
        failing_case(&mut out, exercise, case, usize::MAX);
        out.blank();
        out.text(
            0,
            &format!(
                "Hint: `cargo xsafe hint {}` (h while `cargo xsafe` runs).",
                exercise.name()
            ),
            Some(Paint::Dim),
        );
    } else if report.is_complete() {
        out.push(look.paint(
            Paint::Good,
            &format!(
                "✓ {} is done: {}/{} points. Compare with the reference solution in {}.",
                exercise.name(),
                report.points,
                report.max_points,
                exercise.solution_dir()
            ),
        ));
    } else if let Some(reason) = &report.reason {
        out.text(0, reason, Some(Paint::Bad));
    }
    out.blank();
    out.push(look.paint(Paint::Dim, &format!("Graded in {}", seconds(took))));
    out.lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Look = Look {
        color: false,
        links: false,
    };

    /// Prose wraps at words to the width, never at a URL's hyphens, and
    /// every line after the first starts under the text, not the label.
    #[test]
    fn prose_wraps_at_words() {
        let mut out = Lines::new(PLAIN, 41);
        out.labelled(
            0,
            "Step  x:",
            None,
            "see https://doc.rust-lang.org/reference/visibility-and-privacy.html for more",
            None,
        );
        assert!(
            out.lines.iter().all(|line| display_width(line) <= 40),
            "{:#?}",
            out.lines
        );
        assert!(
            out.lines
                .iter()
                .any(|line| line.contains("https://doc.rust-lang.org")),
            "{:#?}",
            out.lines
        );
        assert!(out.lines[1].starts_with("         "), "{:#?}", out.lines);
    }

    /// Text cut to a width ends with `…` and fits.
    #[test]
    fn cut_fits() {
        assert_eq!(cut_to("abcdef", 10), "abcdef");
        assert_eq!(cut_to("abcdef", 4), "abc…");
        assert_eq!(display_width(&cut_to("█████████", 5)), 5);
    }

    /// A bar is filled in proportion, and full when there is nothing to do.
    #[test]
    fn bars() {
        assert_eq!(bar(1, 2, 4), "██░░");
        assert_eq!(bar(0, 0, 2), "██");
        assert_eq!(bar(9, 3, 2), "██");
    }

    /// Quoted output keeps its lines, escapes control characters and
    /// counts what it leaves out.
    #[test]
    fn quoted_output_is_escaped_and_counted() {
        let mut out = Lines::new(PLAIN, 80);
        out.quoted(2, "one\u{1b}[2J\ntwo\nthree\nfour", 3, "see all");
        assert_eq!(out.lines.len(), 3, "{:#?}", out.lines);
        assert!(!out.lines[0].contains('\u{1b}'), "{:#?}", out.lines);
        assert!(
            out.lines[2].contains("2 more lines: see all"),
            "{:#?}",
            out.lines
        );
    }

    /// Parts of a line (file names among them) are shown, not obeyed.
    #[test]
    fn parts_are_escaped() {
        let mut out = Lines::new(PLAIN, 80);
        out.parts(&[Part::plain("src/\u{1b}[2Jx.rs")]);
        assert!(!out.lines[0].contains('\u{1b}'), "{:?}", out.lines);
    }

    fn display_width(text: &str) -> usize {
        textwrap::core::display_width(text)
    }
}
