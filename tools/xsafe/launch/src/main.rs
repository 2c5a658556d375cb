//! `cargo xsafe` runs this first (see `.cargo/config.toml`): it builds the
//! course's tool, `xsafe`, and runs it with the same arguments.
//!
//! The first build of the tool takes about a minute on two cores, and a
//! learner who typed `cargo xsafe` on a fresh clone should not stare at a
//! blank terminal meanwhile. So this launcher, which has no dependencies
//! and builds in about a second, asks cargo to build the tool and reports
//! each crate cargo compiles on one line that it rewrites, with the time so
//! far. When the tool is already built, cargo says nothing but `Finished`
//! and the launcher prints nothing at all.
//!
//! Exit codes: the tool's own; 2 if the tool cannot be built or started.

use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// The launcher's own build, measured the same way (`cargo build -p xsafe`
/// in an empty target directory on two cores): said up front, so that a
/// learner knows how long to wait.
const FIRST_BUILD: &str = "about a minute on 2 cores";

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let tool = match tool_path() {
        Some(tool) => tool,
        None => {
            eprintln!(
                "error: cannot tell where cargo put the launcher, so not where the tool goes"
            );
            return ExitCode::from(2);
        }
    };
    if !build(&cargo) {
        return ExitCode::from(2);
    }
    run(&tool, &args)
}

/// `xsafe` next to this program: cargo builds both into the same folder.
fn tool_path() -> Option<PathBuf> {
    let me = std::env::current_exe().ok()?;
    Some(me.with_file_name(format!("xsafe{}", std::env::consts::EXE_SUFFIX)))
}

/// Builds the tool with cargo, showing progress when something compiles.
/// Returns whether the tool is built.
fn build(cargo: &std::ffi::OsStr) -> bool {
    let started = Instant::now();
    let child = Command::new(cargo)
        .args([
            "build",
            "--locked",
            "--package",
            "xsafe",
            "--color",
            "never",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(err) => {
            eprintln!("error: cannot run cargo to build the course's tool: {err}");
            return false;
        }
    };
    let on_terminal = std::io::stderr().is_terminal();
    let mut said_hello = false;
    let mut drew_status = false;
    let mut compiled = 0;
    let mut everything = Vec::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let word = line.trim_start();
            let doing = [
                "Blocking ",
                "Compiling ",
                "Downloading ",
                "Downloaded ",
                "Updating ",
                "Locking ",
            ]
            .iter()
            .any(|verb| word.starts_with(verb));
            if doing {
                if !said_hello && !word.starts_with("Blocking ") {
                    said_hello = true;
                    eprintln!(
                        "cargo xsafe: building the course's tool ({FIRST_BUILD} the first \
                         time; later starts take a second)."
                    );
                }
                let what = match word.strip_prefix("Compiling ") {
                    Some(krate) => {
                        compiled += 1;
                        krate.split(" v").next().unwrap_or(krate).to_owned()
                    }
                    // Another cargo (an editor's rust-analyzer, often)
                    // holds the build folder.
                    None if word.starts_with("Blocking ") => {
                        "waiting for another cargo (your editor's?) to finish with target/"
                            .to_owned()
                    }
                    None => word.to_lowercase(),
                };
                let status = format!(
                    "  {compiled} crates compiled, {:.0} s: {what}",
                    started.elapsed().as_secs_f64()
                );
                drew_status = true;
                if on_terminal {
                    // One line, rewritten: `\r`, then clear to its end.
                    eprint!("\r{status}\x1b[K");
                    let _ = std::io::stderr().flush();
                } else {
                    eprintln!("{status}");
                }
            }
            everything.push(line);
        }
    }
    let built = child.wait().is_ok_and(|status| status.success());
    if drew_status && on_terminal {
        eprintln!();
    }
    if !built {
        for line in &everything {
            eprintln!("{line}");
        }
        eprintln!("error: the course's tool did not build; cargo's messages are above");
    } else if said_hello {
        eprintln!(
            "cargo xsafe: built in {:.0} s; starting it.",
            started.elapsed().as_secs_f64()
        );
    }
    built
}

/// Runs the tool in this process's place (Unix), or as a child whose exit
/// code becomes this one's.
fn run(tool: &std::path::Path, args: &[std::ffi::OsString]) -> ExitCode {
    let mut command = Command::new(tool);
    command.args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = command.exec();
        eprintln!("error: cannot start {}: {err}", tool.display());
        ExitCode::from(2)
    }
    #[cfg(not(unix))]
    {
        match command.status() {
            Ok(status) => ExitCode::from(
                status
                    .code()
                    .and_then(|c| u8::try_from(c).ok())
                    .unwrap_or(2),
            ),
            Err(err) => {
                eprintln!("error: cannot start {}: {err}", tool.display());
                ExitCode::from(2)
            }
        }
    }
}
