//! The editor option: open a learner file in the learner's editor, as
//! rustlings' `--edit-cmd` does. The command is `--editor` (or
//! `$XSAFE_EDITOR`), else `code` in a VS Code terminal, else `$VISUAL` or
//! `$EDITOR`. It gets the terminal while it runs (a terminal editor such
//! as vim works), and the screen is drawn again when it returns.

use std::path::Path;
use std::process::Command;

/// A command that opens a file: a program and its first arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    program: String,
    args: Vec<String>,
}

impl Editor {
    /// The editor to use, if any: `chosen` (from `--editor`), else VS
    /// Code's `code` in its terminal, else `$VISUAL`, else `$EDITOR`.
    pub fn find(chosen: Option<&str>) -> Result<Option<Editor>, String> {
        if let Some(chosen) = chosen.filter(|chosen| !chosen.trim().is_empty()) {
            return Editor::parse(chosen).map(Some);
        }
        if std::env::var("TERM_PROGRAM").is_ok_and(|program| program == "vscode") {
            return Ok(Some(Editor {
                program: "code".to_owned(),
                args: Vec::new(),
            }));
        }
        for variable in ["VISUAL", "EDITOR"] {
            if let Ok(command) = std::env::var(variable)
                && !command.trim().is_empty()
            {
                return Editor::parse(&command).map(Some);
            }
        }
        Ok(None)
    }

    /// A command line as a shell would split it (`code --wait`).
    fn parse(command: &str) -> Result<Editor, String> {
        let words = shlex::split(command)
            .ok_or_else(|| format!("cannot read the editor command `{command}`"))?;
        let mut words = words.into_iter();
        let program = words
            .next()
            .ok_or_else(|| "the editor command is empty".to_owned())?;
        Ok(Editor {
            program,
            args: words.collect(),
        })
    }

    /// The program's name, for the screen.
    pub fn name(&self) -> &str {
        Path::new(&self.program)
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or(&self.program)
    }

    /// Opens `file` and waits for the command to return.
    pub fn open(&self, file: &Path) -> Result<(), String> {
        let status = Command::new(&self.program)
            .args(&self.args)
            .arg(file)
            .status()
            .map_err(|err| format!("cannot run `{}`: {err}", self.program))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` ended with {status}", self.program))
        }
    }
}
