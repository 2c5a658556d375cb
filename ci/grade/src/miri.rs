//! Miri for the unsafe step: behaviour cases marked `miri = true` run
//! their observation again, interpreted by Miri, which stops at the first
//! undefined behaviour (two `&mut` to one item, a read of uninitialised
//! memory, a use after free) that no observation can see.
//!
//! **Invariant**: a case marked `miri` that passed its ordinary run fails
//! when its observation under Miri does not end cleanly, with Miri's own
//! words as the reason; it is never judged from what Miri's run printed
//! otherwise. The interpreted program is the same observing program (its
//! case and seed on standard input), built from the same crate as the
//! deciding build (the learner's macros replayed), and it runs as a
//! confined job like every other. Where the machine has no Miri, nothing
//! runs and the report says so.

use crate::limits::{Bounds, Ending, run_bounded};
use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Miri, where the machine has it.
#[derive(Debug, Clone)]
pub struct Miri {
    /// The toolchain whose `cargo miri` runs (a nightly).
    pub toolchain: Toolchain,
    /// Miri's standard library (`cargo miri setup` builds it once).
    pub sysroot: PathBuf,
}

/// The flags Miri's interpretation runs with: a fixed seed keeps every run
/// the same. Miri's isolation stays on: the interpreted code opens no file,
/// reads no clock of the machine and no environment, so it cannot write
/// into the folder where the job's other steps leave their output (the
/// observing program takes its case as its first argument instead of on
/// standard input, which isolation refuses too). What isolation refuses
/// fails as it would in any sandbox, with an error the code can handle
/// (and a warning on standard error), rather than stopping the run: a
/// correct solution that tries a file is not failed for it.
pub const MIRIFLAGS: &str = "-Zmiri-seed=0 -Zmiri-isolation-error=warn-nobacktrace";

impl Miri {
    /// Miri, found once per process: the toolchain named by
    /// `XSAFE_MIRI_TOOLCHAIN` (default `nightly`) with its `cargo-miri`,
    /// and its sysroot, built by `cargo miri setup` on first use (a trusted
    /// build of the standard library: no learner byte is read). `Err` says
    /// why there is none.
    pub fn find() -> Result<Miri, String> {
        static FOUND: OnceLock<Result<Miri, String>> = OnceLock::new();
        FOUND
            .get_or_init(|| {
                let name = std::env::var("XSAFE_MIRI_TOOLCHAIN")
                    .unwrap_or_else(|_| "nightly".to_owned());
                let toolchain = Toolchain::find(Path::new("/"), Some(&name))
                    .map_err(|err| format!("no `{name}` toolchain ({err})"))?;
                let bin = toolchain.sysroot.join("bin");
                if !bin.join("cargo-miri").is_file() {
                    return Err(format!(
                        "the `{name}` toolchain has no Miri: rustup component add miri rust-src --toolchain {name}"
                    ));
                }
                let mut setup = Command::new(toolchain.cargo());
                let mut path = bin.clone().into_os_string();
                path.push(":/usr/local/bin:/usr/bin:/bin");
                // cargo looks for `cargo-miri` in CARGO_HOME's `bin` first,
                // where rustup's proxy would pick its default toolchain:
                // name the toolchain for it.
                setup
                    .args(["miri", "setup", "--print-sysroot"])
                    .env("RUSTUP_TOOLCHAIN", &name)
                    .env("PATH", path)
                    .env("RUSTC", toolchain.rustc())
                    .env_remove("RUSTFLAGS")
                    .env_remove("RUSTC_WRAPPER")
                    .current_dir("/");
                let bounds = Bounds {
                    time: std::time::Duration::from_secs(900),
                    processor: None,
                    output_bytes: 4 << 20,
                    memory_bytes: 8 << 30,
                };
                let run = run_bounded(setup, bounds, None)
                    .map_err(|err| format!("`cargo miri setup` could not run ({err})"))?;
                if !matches!(run.ending, Ending::Exited(status) if status.success()) {
                    return Err(format!(
                        "`cargo miri setup` failed: {}",
                        crate::behaviour::tail(&run.stderr, 5)
                    ));
                }
                let sysroot = run
                    .stdout
                    .lines()
                    .last()
                    .map(|line| PathBuf::from(line.trim()))
                    .filter(|path| path.is_dir())
                    .ok_or_else(|| "`cargo miri setup` printed no sysroot".to_owned())?;
                Ok(Miri { toolchain, sysroot })
            })
            .clone()
    }

    /// What the report says about Miri on this machine.
    pub fn describe(found: &Result<Miri, String>) -> String {
        match found {
            Ok(miri) => format!("Miri ({})", miri.toolchain.version),
            Err(why) => format!("no Miri: {why}"),
        }
    }
}

/// Why Miri's run of a case failed, in one line, from what it printed:
/// its error line (`error: Undefined Behavior: ...`) when there is one.
pub fn reason(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|line| line.starts_with("error: Undefined Behavior"))
        .or_else(|| stderr.lines().find(|line| line.starts_with("error:")))
        .map(str::trim);
    match line {
        Some(line) if line.contains("Undefined Behavior") => format!(
            "Miri found undefined behaviour: {}",
            line.trim_start_matches("error: Undefined Behavior:").trim()
        ),
        Some(line) => format!("under Miri: {}", line.trim_start_matches("error:").trim()),
        None => "under Miri, the case did not end cleanly (see the details)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Miri's undefined behaviour is named as such; another error keeps its
    /// words; nothing recognisable still gives a reason.
    #[test]
    fn reasons_come_from_mirs_error_line() {
        assert_eq!(
            reason(
                "warning: x\nerror: Undefined Behavior: attempting a write access using <1234> at alloc5[0x0], but that tag does not exist\n  --> src/lib.rs:3"
            ),
            "Miri found undefined behaviour: attempting a write access using <1234> at alloc5[0x0], but that tag does not exist"
        );
        assert_eq!(
            reason("error: unsupported operation: can't call foreign function `f`"),
            "under Miri: unsupported operation: can't call foreign function `f`"
        );
        assert!(reason("thread 'main' panicked").contains("did not end cleanly"));
    }
}
