//! Behaviour cases: observe in isolation, then judge without the learner's
//! code.
//!
//! **Invariant**: no verdict comes from what a process running learner code
//! prints. The observing program runs one case per process, confined (see
//! `isolation`), with a seed it could not know in advance; what it prints
//! after [`OBSERVATION_MARKER`] is handed, as data, to the judge, a program
//! built without the learner's crate, and the verdict is the judge's
//! answer. An observation is refused outright (the case fails) when the
//! process did not exit successfully, printed no observation, or printed
//! more than one: it is never repaired or guessed at. What the learner's
//! code printed is kept as the case's details, for people to read.

use crate::isolation::{Confinement, Isolation};
use crate::limits::{Bounds, Ending, run_bounded};
use crate::outcome::{CaseOutcome, Status};
use crate::parallel::in_parallel;
use std::path::{Path, PathBuf};
use std::process::Command;
use xsafe_case::Seed;
use xsafe_case::protocol::{JudgeAnswer, JudgeRequest, OBSERVATION_MARKER, Observed};
use xsafe_course::Case;

/// How to run the behaviour cases of one grade.
#[derive(Clone)]
pub struct BehaviourRun<'a> {
    /// The observing program.
    pub observe: &'a Path,
    /// The judge.
    pub judge: &'a Path,
    /// A folder of the grade's own, where the judge is copied to run.
    pub scratch: &'a Path,
    /// The folder the observing program runs in (read-only to it).
    pub workdir: &'a Path,
    /// The seed of the grade; each case runs with its own seed drawn from it.
    pub seed: u64,
    /// Limits of each observation (and of the judge).
    pub bounds: Bounds,
    /// How observations are isolated.
    pub isolation: &'a Isolation,
    /// Observations run at once.
    pub workers: usize,
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

/// Observes every case, then asks the judge about those that printed an
/// observation. Outcomes come back in the order of `cases`.
pub fn run_behaviour(run: &BehaviourRun<'_>, cases: &[Case]) -> Vec<CaseOutcome> {
    // The judge is read before any learner code runs and written afresh
    // after the last observation ended: where the isolation lets the
    // learner's code write the build's output, it still cannot replace the
    // program that judges it.
    let judge = std::fs::read(run.judge);
    let observations: Vec<(Seed, Observation, String)> =
        in_parallel(cases, run.workers, |case| observe(run, case));
    let request = JudgeRequest {
        cases: cases
            .iter()
            .zip(&observations)
            .filter_map(|(case, (seed, observation, _))| {
                observation.as_ref().ok().map(|observation| Observed {
                    case: case.name(),
                    seed: *seed,
                    observation: observation.clone(),
                })
            })
            .collect(),
    };
    let verdicts = judge
        .map_err(|err| format!("the judge could not be read: {err}"))
        .and_then(|judge| ask_judge(run, &judge, &request));
    cases
        .iter()
        .zip(observations)
        .map(|(case, (seed, observation, printed))| match observation {
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
    let mut command = Command::new(run.observe);
    command
        .arg(case.name())
        .arg(seed.to_string())
        .current_dir(run.workdir)
        .env("RUST_BACKTRACE", "0")
        .env("HOME", "/tmp");
    let confinement = Confinement {
        read_only: vec![run.workdir.to_path_buf()],
        writable: Vec::new(),
    };
    let command = run.isolation.confine(&command, &confinement);
    let finished = match run_bounded(command, run.bounds, None) {
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
    if !status.success() {
        let how = match status.code() {
            Some(101) => "the code under test panicked (see the details)".to_owned(),
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

/// Runs the judge on every observation. An error here is the course's
/// (or the machine's), not the learner's.
fn ask_judge(
    run: &BehaviourRun<'_>,
    judge: &[u8],
    request: &JudgeRequest,
) -> Result<JudgeAnswer, String> {
    if request.cases.is_empty() {
        return Ok(JudgeAnswer {
            verdicts: Vec::new(),
        });
    }
    let input = serde_json::to_vec(request).map_err(|err| format!("the judge's request: {err}"))?;
    let program = fresh_copy(judge, run.scratch)
        .map_err(|err| format!("the judge could not be copied: {err}"))?;
    // A program written a moment ago can be "busy" for a moment, while
    // another thread's fork still holds it open: try again then.
    let mut finished = Err(std::io::Error::other("not started"));
    for _ in 0..20 {
        let mut command = Command::new(&program);
        command.env("RUST_BACKTRACE", "0");
        finished = run_bounded(command, run.bounds, Some(input.clone()));
        match &finished {
            Err(err) if err.raw_os_error() == Some(26) => {
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            _ => break,
        }
    }
    let _ = std::fs::remove_file(&program);
    let finished = finished.map_err(|err| format!("the judge could not start: {err}"))?;
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

/// Writes `program` to a new file in `dir`, executable by its owner only.
fn fresh_copy(program: &[u8], dir: &Path) -> std::io::Result<PathBuf> {
    use std::io::Write as _;
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!(
        "judge-{}-{:x}",
        std::process::id(),
        xsafe_case::Rng::new().u64(..)
    ));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o700);
    }
    let mut file = options.open(&path)?;
    file.write_all(program)?;
    file.sync_all()?;
    Ok(path)
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
