//! Output the way cargo prints it: a right-aligned, coloured verb, colours
//! only on a terminal (anstream strips them otherwise).

use anstream::eprintln;
use anstyle::{AnsiColor, Style};

/// The few styles the tool uses.
#[derive(Debug, Clone, Copy)]
pub enum Paint {
    /// Success.
    Good,
    /// Failure.
    Bad,
    /// Emphasis.
    Bold,
    /// Quoted output.
    Dim,
}

impl Paint {
    fn style(self) -> Style {
        match self {
            Paint::Good => Style::new().bold().fg_color(Some(AnsiColor::Green.into())),
            Paint::Bad => Style::new().bold().fg_color(Some(AnsiColor::Red.into())),
            Paint::Bold => Style::new().bold(),
            Paint::Dim => Style::new().dimmed(),
        }
    }

    /// `text` in this style.
    pub fn paint(self, text: &str) -> String {
        let style = self.style();
        format!("{style}{text}{style:#}")
    }
}

/// A cargo-like status line on stderr.
pub fn status(verb: &str, message: &str) {
    let style = Paint::Good.style();
    eprintln!("{style}{verb:>12}{style:#} {message}");
}

/// An error line on stderr.
pub fn error(message: &str) {
    let style = Paint::Bad.style();
    eprintln!("{style}error{style:#}: {message}");
}
