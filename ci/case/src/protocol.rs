//! What passes between the grading engine, the observing program and the
//! judge: plain data, in JSON.
//!
//! **Invariant**: the observing program's output is only ever *data* for a
//! judge. It reaches a verdict through [`JudgeRequest`], never as one:
//! the engine reads verdicts from [`JudgeAnswer`]s alone, which the judge
//! program writes, and the judge program is built without the learner's
//! crate.

use crate::Seed;
use serde::{Deserialize, Serialize};

/// The prefix of the one line on which the observing program prints a
/// case's observation. The learner's code may print lines like it too: the
/// engine then refuses the observation (more than one), and in any case it
/// only hands the text to the judge, which checks it against the seed.
pub const OBSERVATION_MARKER: &str = "xsafe-observation: ";

/// What the engine asks the observing program: one case, with its seed.
/// It comes as data on the program's standard input, never on its command
/// line, so code that runs in the program cannot learn the case from its
/// arguments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ObserveRequest {
    /// The case, `STEP/NAME`.
    pub case: String,
    /// The seed it runs with.
    pub seed: Seed,
}

/// What the engine asks the judge: one observation per case.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JudgeRequest {
    /// The observations to judge.
    pub cases: Vec<Observed>,
}

/// One case's observation, as the observing program printed it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Observed {
    /// The case, `STEP/NAME`.
    pub case: String,
    /// The seed the case ran with.
    pub seed: Seed,
    /// The JSON it printed after [`OBSERVATION_MARKER`].
    pub observation: String,
}

/// The judge's answer: one verdict per observation, in request order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JudgeAnswer {
    /// The verdicts.
    pub verdicts: Vec<Verdict>,
}

/// The judge's verdict on one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The case, `STEP/NAME`.
    pub case: String,
    /// Whether the observation is right for the seed.
    pub passed: bool,
    /// Why not: the failed assertion's message, or why the observation
    /// could not be read.
    pub message: String,
}

/// An observation as the observing program prints it (one line of JSON).
pub fn encode<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|err| panic!("an observation could not be written as JSON: {err}"))
}

/// An observation read back for the judge.
pub fn decode<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|err| {
        format!(
            "the observation is not what this case records ({err}); was it printed by the case?"
        )
    })
}
