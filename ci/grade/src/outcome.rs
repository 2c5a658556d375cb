//! How a case came out, and a grade: every case's outcome.

use std::fmt;
use xsafe_course::{Case, Manifest, StepName};

/// How one case came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The case's check held: it earns its points.
    Passed,
    /// The case's check said no. The reason is one line: what the case
    /// expected and what it got, or what the judge found.
    Failed(String),
    /// The case could not be checked: the learner's crate does not compile,
    /// or the case does not compile against it. The reason says which.
    NotRun(String),
    /// A limit stopped the case (time, output, memory) or its process
    /// crashed. The reason says which.
    Stopped(String),
}

impl Status {
    /// The same status with its reason rewritten by `f`.
    pub fn map_reason(self, f: impl FnOnce(&str) -> String) -> Status {
        match self {
            Status::Passed => Status::Passed,
            Status::Failed(reason) => Status::Failed(f(&reason)),
            Status::NotRun(reason) => Status::NotRun(f(&reason)),
            Status::Stopped(reason) => Status::Stopped(f(&reason)),
        }
    }

    /// Whether the case earns its points.
    pub fn is_pass(&self) -> bool {
        *self == Status::Passed
    }

    /// The one-line reason, for a case that did not pass.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Status::Passed => None,
            Status::Failed(why) | Status::NotRun(why) | Status::Stopped(why) => Some(why),
        }
    }

    /// `passed`, `failed`, `not run` or `stopped`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed(_) => "failed",
            Status::NotRun(_) => "not run",
            Status::Stopped(_) => "stopped",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason() {
            Some(reason) => write!(f, "{}: {reason}", self.word()),
            None => f.write_str(self.word()),
        }
    }
}

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseOutcome {
    /// How it came out.
    pub status: Status,
    /// What explains it, for a case that did not pass: the compiler's
    /// rendered errors, or what the learner's code printed as it failed.
    /// Text from the learner's code: show it, never decide on it.
    pub details: String,
}

impl CaseOutcome {
    /// A passed case.
    pub fn passed() -> CaseOutcome {
        CaseOutcome {
            status: Status::Passed,
            details: String::new(),
        }
    }

    /// A case that did not pass, with its details.
    pub fn new(status: Status, details: impl Into<String>) -> CaseOutcome {
        CaseOutcome {
            status,
            details: details.into(),
        }
    }
}

/// The outcome of every case of an exercise.
#[derive(Debug, Clone)]
pub struct Grade {
    /// The manifest whose cases were run.
    pub manifest: Manifest,
    /// One outcome per case, in manifest order.
    pub outcomes: Vec<(Case, CaseOutcome)>,
    /// When the learner's crate itself does not compile: the compiler's
    /// errors. Every case is then [`Status::NotRun`].
    pub crate_errors: Option<String>,
    /// The crate's public items, when a `surface` case read them.
    pub surface: Option<std::collections::BTreeSet<String>>,
}

impl Grade {
    /// The outcome of the case named `name` (such as `enforcement/no_node_literal`).
    pub fn outcome(&self, name: &str) -> Option<&CaseOutcome> {
        self.outcomes
            .iter()
            .find(|(case, _)| case.name() == name)
            .map(|(_, outcome)| outcome)
    }

    /// The names of the cases that did not pass, in manifest order.
    pub fn failing(&self) -> Vec<String> {
        self.outcomes
            .iter()
            .filter(|(_, outcome)| !outcome.status.is_pass())
            .map(|(case, _)| case.name())
            .collect()
    }

    /// Points earned, out of [`Manifest::total_points`].
    pub fn points(&self) -> u32 {
        self.outcomes
            .iter()
            .filter(|(_, outcome)| outcome.status.is_pass())
            .map(|(case, _)| case.points)
            .sum()
    }

    /// Points earned in one step, and the points the step is worth.
    pub fn step_points(&self, step: StepName) -> (u32, u32) {
        self.outcomes
            .iter()
            .filter(|(case, _)| case.step == step)
            .fold((0, 0), |(earned, total), (case, outcome)| {
                let won = if outcome.status.is_pass() {
                    case.points
                } else {
                    0
                };
                (earned + won, total + case.points)
            })
    }
}
