//! The terminal: styles and links that fall back to plain text off a
//! terminal, cargo-like status lines, and an interactive session (raw
//! mode, single keys read on a thread that can be paused while an editor
//! has the terminal, a whole-screen redraw).

use crossterm::event::{self, Event as TermEvent, KeyEvent, KeyEventKind};
use crossterm::style::{Attribute, Color, ContentStyle, Stylize};
use crossterm::{QueueableCommand, cursor, terminal};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The few styles the tool uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// Success.
    Good,
    /// Failure.
    Bad,
    /// Something to notice.
    Warn,
    /// Emphasis.
    Bold,
    /// Quoted output, secondary text.
    Dim,
    /// A key the learner can press.
    Key,
    /// A heading.
    Heading,
    /// The selected row of a list.
    Selected,
}

impl Paint {
    fn style(self) -> ContentStyle {
        let style = ContentStyle::new();
        match self {
            Paint::Good => style.green().bold(),
            Paint::Bad => style.red().bold(),
            Paint::Warn => style.yellow().bold(),
            Paint::Bold => style.bold(),
            Paint::Dim => style.attribute(Attribute::Dim),
            Paint::Key => style.with(Color::Cyan).bold(),
            Paint::Heading => style.bold().underlined(),
            Paint::Selected => style.reverse(),
        }
    }
}

/// How text is written: colours and links only where they work.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// Colours and attributes.
    pub color: bool,
    /// OSC 8 hyperlinks.
    pub links: bool,
}

impl Look {
    /// For standard output: colours on a terminal unless `NO_COLOR` is
    /// set, links where the terminal is known to support them (or
    /// `FORCE_HYPERLINK=1`).
    pub fn stdout() -> Look {
        let terminal = std::io::stdout().is_terminal();
        Look {
            color: terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            links: terminal && supports_hyperlinks::on(supports_hyperlinks::Stream::Stdout),
        }
    }

    /// For standard error (status lines, errors).
    pub fn stderr() -> Look {
        let terminal = std::io::stderr().is_terminal();
        Look {
            color: terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            links: false,
        }
    }

    /// `text` painted, or as is.
    pub fn paint(self, paint: Paint, text: &str) -> String {
        if self.color && !text.is_empty() {
            paint.style().apply(text).to_string()
        } else {
            text.to_owned()
        }
    }

    /// `shown`, linked to the file `target` (OSC 8) where links work.
    pub fn file_link(self, shown: &str, target: &Path) -> String {
        if !self.links {
            return shown.to_owned();
        }
        let target = target
            .canonicalize()
            .unwrap_or_else(|_| target.to_path_buf());
        let mut url = String::from("file://");
        for c in target.to_string_lossy().replace('\\', "/").chars() {
            match c {
                // What would end the escape sequence or the URL.
                c if c.is_control() => {}
                ' ' => url.push_str("%20"),
                c => url.push(c),
            }
        }
        format!("\x1b]8;;{url}\x1b\\{shown}\x1b]8;;\x1b\\")
    }
}

/// A cargo-like status line on stderr: a right-aligned, coloured verb.
pub fn status(verb: &str, message: &str) {
    let look = Look::stderr();
    eprintln!(
        "{} {message}",
        look.paint(Paint::Good, &format!("{verb:>12}"))
    );
}

/// An error line on stderr.
pub fn error(message: &str) {
    let look = Look::stderr();
    eprintln!("{}: {message}", look.paint(Paint::Bad, "error"));
}

/// Whether the tool can be interactive: standard input and output are a
/// terminal.
pub fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// What the terminal sends.
#[derive(Debug, Clone)]
pub enum Input {
    /// A key was pressed.
    Key(KeyEvent),
    /// The terminal changed size.
    Resize,
    /// Reading the terminal failed.
    Failed(String),
}

/// Raw mode, and a thread that reads keys and sizes. Dropping it (also
/// when the tool panics) gives the terminal back as it was.
pub struct Session {
    paused: Arc<AtomicBool>,
    reading: Arc<Mutex<()>>,
}

impl Session {
    /// Enters raw mode and starts reading the terminal; every key and
    /// resize becomes `wrap(Input)` on `sender`.
    pub fn start<E: Send + 'static>(
        sender: Sender<E>,
        wrap: fn(Input) -> E,
    ) -> std::io::Result<Session> {
        terminal::enable_raw_mode()?;
        let mut stdout = std::io::stdout();
        stdout.queue(cursor::Hide)?;
        stdout.flush()?;
        let paused = Arc::new(AtomicBool::new(false));
        let reading = Arc::new(Mutex::new(()));
        let (thread_paused, thread_reading) = (paused.clone(), reading.clone());
        std::thread::spawn(move || {
            loop {
                if thread_paused.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                let _reading = thread_reading
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                let input = match event::poll(Duration::from_millis(100)) {
                    Ok(false) => continue,
                    Ok(true) => match event::read() {
                        Ok(TermEvent::Key(key)) if key.kind != KeyEventKind::Release => {
                            Input::Key(key)
                        }
                        Ok(TermEvent::Resize(..)) => Input::Resize,
                        Ok(_) => continue,
                        Err(err) => Input::Failed(err.to_string()),
                    },
                    Err(err) => Input::Failed(err.to_string()),
                };
                let failed = matches!(input, Input::Failed(_));
                if sender.send(wrap(input)).is_err() || failed {
                    return;
                }
            }
        });
        Ok(Session { paused, reading })
    }

    /// Runs `with_terminal` with the terminal as it was before raw mode and
    /// no key read meanwhile (for an editor that runs in the terminal).
    pub fn lend<T>(&self, with_terminal: impl FnOnce() -> T) -> T {
        self.paused.store(true, Ordering::SeqCst);
        let _reading = self.reading.lock().unwrap_or_else(PoisonError::into_inner);
        let mut stdout = std::io::stdout();
        let _ = stdout.queue(cursor::Show);
        let _ = stdout.flush();
        let _ = terminal::disable_raw_mode();
        let result = with_terminal();
        let _ = terminal::enable_raw_mode();
        let _ = stdout.queue(cursor::Hide);
        let _ = stdout.flush();
        self.paused.store(false, Ordering::SeqCst);
        result
    }

    /// The terminal's size: columns, rows.
    pub fn size() -> (u16, u16) {
        terminal::size().unwrap_or((80, 24))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.paused.store(true, Ordering::SeqCst);
        let mut stdout = std::io::stdout();
        let _ = stdout.queue(cursor::Show);
        let _ = stdout.flush();
        let _ = terminal::disable_raw_mode();
    }
}

/// Clears the screen (and its scrollback, so that redraws do not pile up)
/// and draws `lines` from the top. In raw mode a line feed does not return
/// the cursor, so every line ends with `\r\n`.
pub fn draw(lines: &[String]) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .queue(cursor::MoveTo(0, 0))?
        .queue(terminal::Clear(terminal::ClearType::All))?
        .queue(terminal::Clear(terminal::ClearType::Purge))?;
    for (index, line) in lines.iter().enumerate() {
        if index > 0 {
            stdout.write_all(b"\r\n")?;
        }
        stdout.write_all(line.as_bytes())?;
    }
    stdout.flush()
}

/// Rewrites row `row` of the screen with `line` (a status line that
/// changes while the rest stays).
pub fn redraw_row(row: u16, line: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .queue(cursor::MoveTo(0, row))?
        .queue(terminal::Clear(terminal::ClearType::CurrentLine))?;
    stdout.write_all(line.as_bytes())?;
    stdout.flush()
}

/// Enters or leaves the alternate screen (the list draws there).
pub fn alternate_screen(enter: bool) -> std::io::Result<()> {
    let mut stdout = std::io::stdout();
    if enter {
        stdout.queue(terminal::EnterAlternateScreen)?;
    } else {
        stdout.queue(terminal::LeaveAlternateScreen)?;
    }
    stdout.flush()
}
