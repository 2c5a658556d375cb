//! The Rust toolchain that grades: found once, named in reports, and run
//! directly (not through rustup's proxies), so that a confined build sees
//! the same compiler as the grader.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

/// The toolchain every build of a grade uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolchain {
    /// Its root (`rustc --print sysroot`).
    pub sysroot: PathBuf,
    /// `rustc --version`, such as `rustc 1.95.0 (59807616e 2026-04-14)`.
    pub version: String,
}

impl Toolchain {
    /// The toolchain that `rustc` resolves to from `dir` (so a
    /// `rust-toolchain.toml` there, or `RUSTUP_TOOLCHAIN`, chooses it), or
    /// the rustup toolchain `name` when one is given.
    ///
    /// Found once per process for each folder and name: a learner's tool
    /// grades again on every save, and each question to rustup's proxy
    /// costs it about 40 ms.
    pub fn find(dir: &Path, name: Option<&str>) -> std::io::Result<Toolchain> {
        type Found = HashMap<(PathBuf, Option<String>, Option<OsString>), Toolchain>;
        static FOUND: OnceLock<Mutex<Found>> = OnceLock::new();
        let key = (
            dir.to_path_buf(),
            name.map(str::to_owned),
            std::env::var_os("RUSTC"),
        );
        let found = FOUND.get_or_init(Mutex::default);
        if let Some(toolchain) = found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return Ok(toolchain.clone());
        }
        let toolchain = Toolchain::ask(dir, name)?;
        found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, toolchain.clone());
        Ok(toolchain)
    }

    fn ask(dir: &Path, name: Option<&str>) -> std::io::Result<Toolchain> {
        let rustc = match name {
            Some(_) => "rustc".into(),
            None => std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()),
        };
        let ask = |arg: &str| -> std::io::Result<String> {
            let mut command = Command::new(&rustc);
            command.arg(arg).current_dir(dir).stdin(Stdio::null());
            if let Some(name) = name {
                command.env("RUSTUP_TOOLCHAIN", name);
            }
            let output = command.output()?;
            if !output.status.success() {
                return Err(std::io::Error::other(format!(
                    "`rustc {arg}` failed: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                )));
            }
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
        };
        let sysroot = PathBuf::from(ask("--print=sysroot")?);
        // The version from the toolchain's own rustc, past the proxy.
        let own = sysroot.join("bin/rustc");
        let version = match Command::new(&own)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
        {
            Ok(output) if output.status.success() => {
                String::from_utf8_lossy(&output.stdout).trim().to_owned()
            }
            _ => ask("--version")?,
        };
        Ok(Toolchain { sysroot, version })
    }

    /// Its `cargo`.
    pub fn cargo(&self) -> PathBuf {
        self.sysroot.join("bin/cargo")
    }

    /// Its `rustc`.
    pub fn rustc(&self) -> PathBuf {
        self.sysroot.join("bin/rustc")
    }

    /// A `cargo` command of this toolchain with a clean build environment:
    /// flags from the caller's environment would change what compiles.
    pub fn cargo_command(&self) -> Command {
        let mut command = Command::new(self.cargo());
        command
            .env("RUSTC", self.rustc())
            .env("CARGO_TERM_COLOR", "never")
            .env("CARGO_TERM_PROGRESS_WHEN", "never")
            .env("RUST_BACKTRACE", "0");
        for variable in [
            "RUSTFLAGS",
            "CARGO_ENCODED_RUSTFLAGS",
            "CARGO_BUILD_RUSTFLAGS",
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
            "RUSTC_BOOTSTRAP",
            "CARGO_TARGET_DIR",
            "CARGO_BUILD_TARGET",
            "CARGO_INCREMENTAL",
        ] {
            command.env_remove(variable);
        }
        command
    }
}

/// The user's registry (`$CARGO_HOME/registry`, or `~/.cargo/registry`):
/// the crates' sources, which confined builds read.
pub fn registry_dir() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .map(|home| home.join("registry"))
}

/// The grader's own `CARGO_HOME` under `root`: a configuration file that
/// says so and nothing else, and a link to the user's registry, so that
/// nothing of the user's cargo configuration (a `rustc-wrapper`, flags,
/// a target folder) reaches a grade.
pub fn pinned_cargo_home(root: &Path) -> std::io::Result<PathBuf> {
    let home = root.join("cargo-home");
    std::fs::create_dir_all(&home)?;
    let config = home.join("config.toml");
    if !config.is_file() {
        std::fs::write(
            &config,
            "# The X-safe Rust grader's own CARGO_HOME: no configuration on purpose.\n",
        )?;
    }
    let link = home.join("registry");
    if std::fs::symlink_metadata(&link).is_err()
        && let Some(registry) = registry_dir()
    {
        std::fs::create_dir_all(&registry)?;
        std::os::unix::fs::symlink(&registry, &link)?;
    }
    Ok(home)
}
