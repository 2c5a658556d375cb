//! Hints, one at a time, for the step the learner is on: the step of the
//! first case that does not pass. How many of each step's hints were shown
//! is kept in the tool's state (`target/xsafe/state.json`); `reset`
//! clears an exercise's counts.

use crate::course::{Course, Exercise};
use crate::progress::State;
use xsafe_grade::StepName;

/// A hint to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The step it is for.
    pub step: StepName,
    /// Its number, from 1.
    pub number: usize,
    /// How many hints the step has.
    pub count: usize,
    /// The hint.
    pub text: String,
}

impl Hint {
    /// Whether it is the step's last hint.
    pub fn is_last(&self) -> bool {
        self.number == self.count
    }

    /// `Hint 2 of 4 for the enforcement step`.
    pub fn title(&self) -> String {
        format!(
            "Hint {} of {} for the {} step",
            self.number, self.count, self.step
        )
    }

    /// What follows the last hint.
    pub const AFTER_LAST: &'static str = "That was the last hint for this step. The chapter's \"The exercise\" section and the cases in grading/cases/ say what is asked.";
}

/// The next hint of `step`, recorded as shown. After the last one, the
/// last one again. `None` when the step has no hints.
pub fn next(course: &Course, exercise: &Exercise, step: StepName) -> Option<Hint> {
    let hints = &exercise.manifest.step(step)?.hints;
    if hints.is_empty() {
        return None;
    }
    let index = State::update(course, |state| {
        let shown = state
            .hints
            .entry(exercise.name().to_owned())
            .or_default()
            .entry(step.as_str().to_owned())
            .or_insert(0);
        let index = (*shown).min(hints.len() - 1);
        *shown = index + 1;
        index
    });
    Some(Hint {
        step,
        number: index + 1,
        count: hints.len(),
        text: hints[index].clone(),
    })
}

/// Forgets which hints of `exercise` were shown.
pub fn clear(course: &Course, exercise: &Exercise) {
    State::update(course, |state| {
        state.hints.remove(exercise.name());
    });
}
