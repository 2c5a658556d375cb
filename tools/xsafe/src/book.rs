//! `book`: the book, opened at the current exercise's chapter (the current
//! exercise is read from the tool's state, never graded). mdbook is
//! `$XSAFE_MDBOOK` if set, else the copy `--install` put in target/tools,
//! else the one on the PATH when its version is 0.5.x (the book's
//! `book.toml` is written for mdbook 0.5). The chapters' quizzes need
//! mdbook-quiz, which `--install` puts in target/tools too; without it the
//! book is built with a note in place of each quiz.

use crate::course::{BOOK_PORT, Course, ExerciseInfo};
use crate::progress::{self, State};
use crate::term::{self, Look};
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The version `--install` installs: the course writes it once, in
/// `book/mdbook-version`, which ci/test.sh and the Pages workflow read too.
const MDBOOK_VERSION: &str = include_str!("../../../book/mdbook-version").trim_ascii();

/// The versions the book builds with: those of [`MDBOOK_VERSION`]'s minor
/// release (`1.2.` for 1.2.3).
fn mdbook_series() -> &'static str {
    match MDBOOK_VERSION.match_indices('.').nth(1) {
        Some((at, _)) => &MDBOOK_VERSION[..=at],
        None => MDBOOK_VERSION,
    }
}
/// How long `--install` takes: `cargo install mdbook` compiles about 190
/// crates (measured: 191 s on 2 cores shared with other builds).
const INSTALL_TIME: &str = "about 190 crates: 2 to 3 minutes on 2 cores";

/// The mdbook-quiz that `--install` installs, for the chapters' quizzes:
/// written once, in `book/mdbook-quiz-version`, which ci/test.sh and the
/// Pages workflow read too.
const MDBOOK_QUIZ_VERSION: &str = include_str!("../../../book/mdbook-quiz-version").trim_ascii();

/// How long installing mdbook-quiz takes (measured: 85 s on 2 cores).
const QUIZ_INSTALL_TIME: &str = "1 to 2 minutes on 2 cores";

/// What `book` does.
#[derive(Debug, Clone, Copy)]
pub struct BookOptions {
    /// Serve the book (else only build it).
    pub serve: bool,
    /// Open the chapter in a browser.
    pub open: bool,
    /// Install mdbook if no suitable one is found.
    pub install: bool,
}

/// An mdbook and its version.
struct Mdbook {
    path: PathBuf,
    version: String,
}

/// `mdbook --version` of `candidate`: `mdbook v1.2.3` gives `1.2.3`.
fn version_of(candidate: &Path) -> Option<String> {
    let output = Command::new(candidate)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())?;
    let text = String::from_utf8_lossy(&output.stdout);
    let version = text.split_whitespace().last()?.trim_start_matches('v');
    Some(version.to_owned())
}

/// The mdbook to use, or why none fits.
fn find_mdbook(root: &Path) -> Result<Mdbook, String> {
    if let Some(chosen) = std::env::var_os("XSAFE_MDBOOK") {
        let path = PathBuf::from(chosen);
        return match version_of(&path) {
            Some(version) => Ok(Mdbook { path, version }),
            None => Err(format!("$XSAFE_MDBOOK ({}) does not run", path.display())),
        };
    }
    let installed = root.join("target/tools/bin/mdbook");
    if let Some(version) = version_of(&installed) {
        return Ok(Mdbook {
            path: installed,
            version,
        });
    }
    match version_of(Path::new("mdbook")) {
        Some(version) if version.starts_with(mdbook_series()) => Ok(Mdbook {
            path: PathBuf::from("mdbook"),
            version,
        }),
        Some(version) => Err(format!(
            "the mdbook on your PATH is version {version}; the book needs {}x",
            mdbook_series()
        )),
        None => Err("mdbook is not installed".to_owned()),
    }
}

/// Whether target/tools holds the mdbook-quiz the book is tested with.
fn has_mdbook_quiz(root: &Path) -> bool {
    version_of(&root.join("target/tools/bin/mdbook-quiz"))
        .is_some_and(|version| version == MDBOOK_QUIZ_VERSION)
}

/// Installs mdbook into `target/tools`, showing each crate cargo compiles
/// on one line. Returns its path.
fn install(root: &Path) -> Result<PathBuf, String> {
    install_tool(root, "mdbook", MDBOOK_VERSION, INSTALL_TIME)?;
    Ok(root.join("target/tools/bin/mdbook"))
}

/// Installs `name` at `version` into `target/tools`, showing each crate
/// cargo compiles on one line.
fn install_tool(root: &Path, name: &str, version: &str, time: &str) -> Result<(), String> {
    term::status(
        "Installing",
        &format!("{name} {version} into target/tools ({time}, once)"),
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut child = Command::new(cargo)
        .args(["install", "--locked", "--color", "never", name, "--version"])
        .arg(format!("={version}"))
        .arg("--root")
        .arg(root.join("target/tools"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("cannot run cargo: {err}"))?;
    let started = Instant::now();
    let on_terminal = std::io::stderr().is_terminal();
    let mut everything = Vec::new();
    let mut compiled = 0;
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let word = line.trim_start();
            if let Some(what) = word.strip_prefix("Compiling ") {
                compiled += 1;
                let what = what.split(" v").next().unwrap_or(what);
                let status = format!(
                    "  {compiled} crates compiled, {:.0} s: {what}",
                    started.elapsed().as_secs_f64()
                );
                if on_terminal {
                    eprint!("\r{status}\x1b[K");
                    let _ = std::io::stderr().flush();
                } else if compiled % 25 == 1 {
                    eprintln!("{status}");
                }
            }
            everything.push(line);
        }
    }
    if on_terminal && compiled > 0 {
        eprintln!();
    }
    let installed = child.wait().is_ok_and(|status| status.success());
    if !installed {
        for line in &everything {
            eprintln!("{line}");
        }
        return Err(format!(
            "could not install {name}; cargo's messages are above"
        ));
    }
    term::status(
        "Installed",
        &format!(
            "{name} {version} in {:.0} s (target/tools/bin/{name}: `cargo xsafe book` finds it there)",
            started.elapsed().as_secs_f64()
        ),
    );
    Ok(())
}

/// Runs `book`.
pub fn book(course: &Course, options: BookOptions) -> ExitCode {
    let root = &course.root;
    let mdbook = match find_mdbook(root) {
        Ok(mdbook) => {
            term::status(
                "Using",
                &format!("mdbook {} ({})", mdbook.version, mdbook.path.display()),
            );
            mdbook.path
        }
        Err(why) if options.install => {
            term::status("Note", &why);
            match install(root) {
                Ok(path) => path,
                Err(err) => {
                    term::error(&err);
                    return ExitCode::from(crate::FAILED);
                }
            }
        }
        Err(why) => {
            term::error(&why);
            eprintln!(
                "  run `cargo xsafe book --install` to install mdbook {MDBOOK_VERSION} into target/tools ({INSTALL_TIME}),"
            );
            eprintln!("  or `cargo install --locked mdbook@{MDBOOK_VERSION}`");
            return ExitCode::from(crate::CANNOT_RUN);
        }
    };
    if options.install
        && !has_mdbook_quiz(root)
        && let Err(err) = install_tool(root, "mdbook-quiz", MDBOOK_QUIZ_VERSION, QUIZ_INSTALL_TIME)
    {
        term::status(
            "Note",
            &format!("{err}: the book is built without its quizzes"),
        );
    }
    let state = State::load(course);
    let toolchain = progress::toolchain(root);
    let standings = progress::standings(course, &state, &toolchain);
    let exercise = &course.exercises[progress::current(course, &state, &standings)];
    let book_dir = root.join("book");
    let page = exercise
        .manifest
        .chapter
        .strip_suffix(".md")
        .unwrap_or(&exercise.manifest.chapter)
        .to_owned()
        + ".html";
    if !options.serve {
        term::status(
            "Building",
            &format!("the book into {}", book_dir.join("book").display()),
        );
        let built = Command::new(&mdbook).arg("build").arg(&book_dir).status();
        return match built {
            Ok(status) if status.success() => {
                let chapter = book_dir.join("book").join(&page);
                let look = Look::stderr();
                term::status(
                    "Finished",
                    &format!(
                        "your chapter ({}) is {}",
                        exercise.manifest.title,
                        look.file_link(&chapter.display().to_string(), &chapter)
                    ),
                );
                if options.open {
                    open_in_browser(&chapter.display().to_string());
                }
                ExitCode::SUCCESS
            }
            Ok(_) => {
                term::error("mdbook failed; its messages are above");
                ExitCode::from(crate::FAILED)
            }
            Err(err) => {
                term::error(&format!("cannot run {}: {err}", mdbook.display()));
                ExitCode::from(crate::CANNOT_RUN)
            }
        };
    }
    let url = exercise.chapter_url();
    term::status(
        "Serving",
        &format!(
            "the book at http://localhost:{BOOK_PORT}/; your chapter ({}): {url} (Ctrl-C stops it)",
            exercise.manifest.title
        ),
    );
    let mut server = match Command::new(&mdbook)
        .arg("serve")
        .arg("--port")
        .arg(BOOK_PORT.to_string())
        .arg(&book_dir)
        .spawn()
    {
        Ok(server) => server,
        Err(err) => {
            term::error(&format!("cannot run {}: {err}", mdbook.display()));
            return ExitCode::from(crate::CANNOT_RUN);
        }
    };
    if options.open && wait_for_port(BOOK_PORT, Duration::from_secs(30)) {
        open_in_browser(&url);
    }
    match server.wait() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        _ => ExitCode::from(crate::FAILED),
    }
}

/// Whether something listens on `port` of this machine within `limit`.
fn wait_for_port(port: u16, limit: Duration) -> bool {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let started = Instant::now();
    while started.elapsed() < limit {
        if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

/// Opens `target` (a URL or a file) in the browser, or says how to.
fn open_in_browser(target: &str) {
    if let Err(err) = open::that_detached(target) {
        term::status(
            "Note",
            &format!("cannot open a browser ({err}): open {target}"),
        );
    }
}
