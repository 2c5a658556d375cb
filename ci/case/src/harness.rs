//! The `main` functions of the two programs the grading engine generates
//! for an exercise: the observing program (every case's `observe`, linked
//! with the learner's crate) and the judge (every case's `judge`, without
//! it). The engine writes the table of cases; these functions do the rest.

use crate::Seed;
use crate::protocol::{JudgeAnswer, JudgeRequest, OBSERVATION_MARKER, ObserveRequest, Verdict};
use std::io::{Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// A case's `observe`, with its observation encoded.
pub type ObserveFn = fn(Seed) -> String;
/// A case's `judge`, with the observation still to be decoded.
pub type JudgeFn = fn(Seed, &str) -> Result<(), String>;

/// The exit status of an observing program whose process the code under
/// test ended (`std::process::exit`) while a case was running: the case
/// did not finish, whatever was printed.
pub const ENDED_DURING_CASE: i32 = 86;

/// Whether a case's `observe` is running, for the exit guard.
static CASE_RUNNING: AtomicBool = AtomicBool::new(false);

/// Runs when the process exits through `exit` (Rust's
/// `std::process::exit` included): if a case was still running, the code
/// under test ended the process, and the status says so, whatever it asked
/// for.
#[cfg(all(unix, not(miri)))]
extern "C" fn exit_guard() {
    if CASE_RUNNING.load(Ordering::SeqCst) {
        // SAFETY: `_exit` ends the process at once; nothing runs after it.
        unsafe { libc::_exit(ENDED_DURING_CASE) }
    }
}

/// The observing program: reads an [`ObserveRequest`] (its case and seed)
/// from standard input (under Miri, from its first argument), runs that case's `observe` and prints its
/// observation on one line of standard output. Exit codes: 0 observed, 2
/// bad request, [`ENDED_DURING_CASE`] when the code under test ended the
/// process before the case finished. A panic ends the program as panics
/// do.
pub fn observe_main(cases: &[(&str, ObserveFn)]) -> ! {
    // The request is read before any code under test runs: from standard
    // input, or under Miri from the first argument (Miri's isolation, which
    // keeps the interpreted code from every file, refuses reads of standard
    // input too).
    let mut input = String::new();
    let read = if cfg!(miri) {
        std::env::args().nth(1).map(|argument| input = argument)
    } else {
        std::io::stdin().read_to_string(&mut input).ok().map(drop)
    };
    let request: Option<ObserveRequest> = read.and_then(|()| serde_json::from_str(&input).ok());
    let found = request.and_then(|request| {
        cases
            .iter()
            .find(|(name, _)| *name == request.case)
            .map(|(_, observe)| (*observe, request.seed))
    });
    let Some((observe, seed)) = found else {
        eprintln!("usage: observe < {{\"case\": CASE, \"seed\": SEED}}, where CASE is one of:");
        for (name, _) in cases {
            eprintln!("  {name}");
        }
        std::process::exit(2);
    };
    // (Miri interprets the program and has no `atexit`: under it, an early
    // exit is seen by the status and the missing observation alone.)
    #[cfg(all(unix, not(miri)))]
    // SAFETY: `exit_guard` is a plain `extern "C" fn` that only reads an
    // atomic and calls `_exit`.
    unsafe {
        libc::atexit(exit_guard);
    }
    // The request's text is not left where the code under test could
    // read it back, and from here on no other program can end the case.
    input.clear();
    input.shrink_to_fit();
    crate::seal::seal();
    CASE_RUNNING.store(true, Ordering::SeqCst);
    let observation = panic::catch_unwind(AssertUnwindSafe(|| observe(seed)));
    CASE_RUNNING.store(false, Ordering::SeqCst);
    // A panic ends the program as panics do (its message is printed).
    let Ok(observation) = observation else {
        std::process::exit(101);
    };
    let mut stdout = std::io::stdout().lock();
    let written =
        writeln!(stdout, "\n{OBSERVATION_MARKER}{observation}").and_then(|()| stdout.flush());
    // Exit at once: threads the learner's code left running end here.
    std::process::exit(if written.is_ok() { 0 } else { 1 });
}

/// The message of the last panic on this process, with its place.
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// The judge: reads a [`JudgeRequest`] on standard input and writes a
/// [`JudgeAnswer`] on standard output. A case fails when its `judge`
/// panics (a failed `assert!`) or its observation cannot be decoded.
pub fn judge_main(cases: &[(&str, JudgeFn)]) {
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("the judge panicked");
        let place = info
            .location()
            .map(|place| format!(" ({}:{})", place.file(), place.line()))
            .unwrap_or_default();
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = format!("{message}{place}");
        }
    }));
    let mut input = String::new();
    if let Err(err) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("judge: cannot read the request: {err}");
        std::process::exit(2);
    }
    let request: JudgeRequest = match serde_json::from_str(&input) {
        Ok(request) => request,
        Err(err) => {
            eprintln!("judge: the request is not valid: {err}");
            std::process::exit(2);
        }
    };
    let verdicts = request
        .cases
        .iter()
        .map(|observed| {
            let Some((_, judge)) = cases.iter().find(|(name, _)| *name == observed.case) else {
                return Verdict {
                    case: observed.case.clone(),
                    passed: false,
                    message: "the judge has no such case".to_owned(),
                };
            };
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                judge(observed.seed, &observed.observation)
            }));
            let (passed, message) = match outcome {
                Ok(Ok(())) => (true, String::new()),
                Ok(Err(message)) => (false, message),
                Err(_) => (
                    false,
                    LAST_PANIC
                        .lock()
                        .map(|last| last.clone())
                        .unwrap_or_default(),
                ),
            };
            Verdict {
                case: observed.case.clone(),
                passed,
                message,
            }
        })
        .collect();
    let answer = JudgeAnswer { verdicts };
    match serde_json::to_string(&answer) {
        Ok(text) => println!("{text}"),
        Err(err) => {
            eprintln!("judge: cannot write the answer: {err}");
            std::process::exit(2);
        }
    }
}
