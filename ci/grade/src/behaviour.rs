//! Behaviour cases: observe confined, then judge without the learner's
//! code.
//!
//! **Invariant**: no verdict comes from what a process running learner code
//! prints. The observing program runs one case per process, confined (see
//! `confine`), and gets its case and seed as data on its standard input,
//! never on its command line; what it prints after [`OBSERVATION_MARKER`]
//! is handed, as data, to the judge, a program built without the learner's
//! crate (confined too, since it reads what learner code printed), and the
//! verdict is the judge's answer. An observation is refused outright (the
//! case fails) when the process did not exit successfully, printed no
//! observation, or printed more than one: it is never repaired or guessed
//! at. What the learner's code printed is kept as the case's details, for
//! people to read.

use crate::confine::{Confiner, Installed};
use crate::limits::{Bounds, Ending};
use crate::outcome::{CaseOutcome, Status};
use crate::parallel::in_parallel;
use std::collections::BTreeMap;
use xsafe_case::Seed;
use xsafe_case::protocol::{
    JudgeAnswer, JudgeRequest, OBSERVATION_MARKER, ObserveRequest, Observed,
};
use xsafe_course::Case;

/// How to run the behaviour cases of one grade.
#[derive(Clone)]
pub struct BehaviourRun<'a> {
    /// The observing program.
    pub observe: &'a Installed,
    /// The judge.
    pub judge: &'a Installed,
    /// The one way to run them.
    pub confiner: &'a Confiner,
    /// The seed of the grade; each case runs with its own seed drawn from it.
    pub seed: u64,
    /// Limits of each observation (and of the judge).
    pub bounds: Bounds,
    /// The size of each run's `/tmp`.
    pub tmp_bytes: u64,
    /// Observations run at once.
    pub workers: usize,
    /// Where each case's last observing time is kept: the longest start
    /// first, so the last worker does not end alone with a long case.
    /// The order changes no verdict, since every case runs in its own
    /// process from its own seed.
    pub times: Option<&'a std::path::Path>,
    /// Shows paths the way the reader knows them.
    pub show: &'a (dyn Fn(&str) -> String + Sync),
}

/// The seed of one case in a grade: the same for the same grade seed and
/// case, different between cases.
pub fn case_seed(grade_seed: u64, case: &str) -> Seed {
    let mut mixed = grade_seed;
    for byte in case.bytes() {
        mixed = (mixed ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    Seed(xsafe_case::Rng::with_seed(mixed).u64(..))
}

/// One observation: the observation text, or why there is none.
type Observation = Result<String, CaseOutcome>;

/// What the observing program did in each case, in the order of the cases.
#[derive(Debug, Clone)]
pub struct Observations {
    /// Per case: its seed, its observation (or its outcome when there is
    /// none to judge), and what the learner's code printed.
    cases: Vec<(Case, Seed, Observation, String)>,
}

/// The observe phase: runs every case's observation, confined, at most
/// `run.workers` at a time.
pub fn observe_all(run: &BehaviourRun<'_>, cases: &[Case]) -> Observations {
    let before: BTreeMap<String, f64> = run
        .times
        .and_then(|path| std::fs::read(path).ok())
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default();
    // Longest first; a case not timed yet counts as the longest.
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by(|&a, &b| {
        let time = |index: usize| {
            before
                .get(&cases[index].name())
                .copied()
                .unwrap_or(f64::MAX)
        };
        time(b).total_cmp(&time(a))
    });
    let mut observed = in_parallel(&order, run.workers, |&index| {
        let started = std::time::Instant::now();
        let observed = observe(run, &cases[index]);
        (index, observed, started.elapsed().as_secs_f64())
    });
    let after: BTreeMap<String, f64> = observed
        .iter()
        .map(|&(index, _, took)| (cases[index].name(), took))
        .collect();
    if let Some(path) = run.times
        && let Ok(bytes) = serde_json::to_vec(&after)
    {
        // Only an order depends on it: a failed write costs nothing else.
        let _ = std::fs::write(path, bytes);
    }
    observed.sort_by_key(|&(index, _, _)| index);
    Observations {
        cases: observed
            .into_iter()
            .map(|(index, (seed, observation, printed), _)| {
                (cases[index].clone(), seed, observation, printed)
            })
            .collect(),
    }
}

/// The judge phase: asks the judge, confined, about every observation, and
/// returns each case's outcome, in the order of the cases.
pub fn judge_all(run: &BehaviourRun<'_>, observations: Observations) -> Vec<(Case, CaseOutcome)> {
    let request = JudgeRequest {
        cases: observations
            .cases
            .iter()
            .filter_map(|(case, seed, observation, _)| {
                observation.as_ref().ok().map(|observation| Observed {
                    case: case.name(),
                    seed: *seed,
                    observation: observation.clone(),
                })
            })
            .collect(),
    };
    let verdicts = ask_judge(run, &request);
    observations
        .cases
        .into_iter()
        .map(|(case, seed, observation, printed)| {
            let outcome = match observation {
                Err(outcome) => outcome,
                Ok(_) => match &verdicts {
                    Err(why) => CaseOutcome::new(Status::Stopped(why.clone()), String::new()),
                    Ok(answer) => match answer
                        .verdicts
                        .iter()
                        .find(|verdict| verdict.case == case.name())
                    {
                        Some(verdict) if verdict.passed => CaseOutcome::passed(),
                        Some(verdict) => CaseOutcome::new(
                            Status::Failed((run.show)(&verdict.message)),
                            (run.show)(&with_seed(seed, &printed)),
                        ),
                        None => CaseOutcome::new(
                            Status::Stopped("the judge gave no verdict on this case".to_owned()),
                            String::new(),
                        ),
                    },
                },
            };
            (case, outcome)
        })
        .collect()
}

fn with_seed(seed: Seed, printed: &str) -> String {
    let printed = printed.trim();
    if printed.is_empty() {
        format!("(seed {seed})")
    } else {
        format!("(seed {seed}) what the case printed:\n{printed}")
    }
}

/// Runs one case's observation, confined, and reads what it printed.
fn observe(run: &BehaviourRun<'_>, case: &Case) -> (Seed, Observation, String) {
    let seed = case_seed(run.seed, &case.name());
    let request = ObserveRequest {
        case: case.name(),
        seed,
    };
    let input = serde_json::to_vec(&request).unwrap_or_default();
    let started = std::time::Instant::now();
    let finished = run
        .confiner
        .run_program(run.observe, &[], input, run.tmp_bytes, run.bounds);
    crate::timing(
        &format!(
            "  observed {}{}",
            case.name(),
            match finished.as_ref().ok().and_then(|run| run.processor_used) {
                Some(used) => format!(" ({used:?} of processor time)"),
                None => String::new(),
            }
        ),
        started,
    );
    let finished = match finished {
        Ok(finished) => finished,
        Err(err) => {
            let outcome = CaseOutcome::new(
                Status::Stopped(format!("the observing program could not start: {err}")),
                String::new(),
            );
            return (seed, Err(outcome), String::new());
        }
    };
    let marked: Vec<&str> = finished
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix(OBSERVATION_MARKER))
        .collect();
    let printed: String = finished
        .stdout
        .lines()
        .filter(|line| !line.starts_with(OBSERVATION_MARKER))
        .chain(finished.stderr.lines())
        .collect::<Vec<_>>()
        .join("\n");
    let details = (run.show)(&with_seed(seed, &tail(&printed, 40)));
    let refused = |status: Status| {
        (
            seed,
            Err(CaseOutcome::new(status, details.clone())),
            printed.clone(),
        )
    };
    if let Some(why) = finished.stopped_because() {
        return refused(Status::Stopped(format!("it was {why}")));
    }
    let Ending::Exited(status) = finished.ending else {
        return refused(Status::Stopped(
            "it ended without an exit status".to_owned(),
        ));
    };
    if finished.stderr.contains("has overflowed its stack") {
        return refused(Status::Stopped("it overflowed its stack".to_owned()));
    }
    // A case program has no /proc, so std cannot find the main thread's
    // guard page and a stack overflow there ends as a plain SIGSEGV (the
    // sandbox reports a child's signal as 128 + its number).
    if status.code() == Some(128 + 11)
        || std::os::unix::process::ExitStatusExt::signal(&status) == Some(11)
    {
        return refused(Status::Stopped(
            "it crashed with SIGSEGV: most likely it overflowed its stack (unbounded recursion), or it touched memory it may not".to_owned(),
        ));
    }
    if !status.success() {
        let how = match status.code() {
            Some(101) => "the code under test panicked (see the details)".to_owned(),
            Some(xsafe_case::harness::ENDED_DURING_CASE) => {
                "the code under test ended the process before the case finished".to_owned()
            }
            Some(code) => format!("the code under test exited with status {code}"),
            None => "the code under test was killed by a signal".to_owned(),
        };
        return refused(Status::Failed(how));
    }
    match marked.as_slice() {
        [observation] => (seed, Ok((*observation).to_owned()), printed),
        [] => refused(Status::Failed(
            "the case ended without recording what happened: the code under test exited early".to_owned(),
        )),
        _ => refused(Status::Failed(
            "the case recorded more than one observation: the code under test printed lines that imitate the grader's".to_owned(),
        )),
    }
}

/// Runs the judge, confined, on every observation. An error here is the
/// course's (or the machine's), not the learner's.
fn ask_judge(run: &BehaviourRun<'_>, request: &JudgeRequest) -> Result<JudgeAnswer, String> {
    if request.cases.is_empty() {
        return Ok(JudgeAnswer {
            verdicts: Vec::new(),
        });
    }
    let input = serde_json::to_vec(request).map_err(|err| format!("the judge's request: {err}"))?;
    let started = std::time::Instant::now();
    let finished = run
        .confiner
        .run_program(run.judge, &[], input, run.tmp_bytes, run.bounds)
        .map_err(|err| format!("the judge could not start: {err}"))?;
    crate::timing("  judged every case", started);
    if let Some(why) = finished.stopped_because() {
        return Err(format!("the judge was {why}"));
    }
    serde_json::from_str(finished.stdout.trim()).map_err(|err| {
        format!(
            "the judge gave no answer ({err}): {}",
            tail(&finished.stderr, 5)
        )
    })
}

/// The last `lines` lines of `text`.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.trim().lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeds differ between cases and between grades, and are stable.
    #[test]
    fn seeds() {
        let a = case_seed(1, "enforcement/a");
        assert_eq!(a, case_seed(1, "enforcement/a"));
        assert_ne!(a, case_seed(1, "enforcement/b"));
        assert_ne!(a, case_seed(2, "enforcement/a"));
    }
}
