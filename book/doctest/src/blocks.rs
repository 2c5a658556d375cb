//! Finding the code blocks of a chapter and what their info strings ask for.
//! Shared by the build script and the tests (`#[path]`-included by both).

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
use std::ops::Range;

/// What a fenced block's info string asks the tests to do with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// Self-contained, as on the playground: compiled and run by skeptic
    /// (`rust`, `rust,should_panic`, `rust,no_run`, `rust,editable`).
    Standalone,
    /// Uses the course's crates, so it has no playground button: compiled
    /// and run by rustdoc, which links them (`rust,noplayground`).
    WithCourseCrates,
    /// Self-contained for the playground, which has the crates it uses from
    /// crates.io (`syn`, `quote`, `proc_macro2`: see `DEPENDENCIES`), so it
    /// keeps its Run button; compiled and run by rustdoc, which links the
    /// builds cargo resolved for the book's tests. (skeptic looks for them
    /// in the target folder itself, and picked mismatched builds of `syn`
    /// and `quote` once the workspace held several.)
    WithDependencies,
    /// Must fail to compile with these error codes; checked by rustdoc
    /// (`rust,compile_fail,E0451,E0616`).
    CompileFail(Vec<String>),
    /// Not Rust (`text`, `toml`, `console`, `sh`, ...): not compiled.
    NotRust,
    /// A `rust,noplayground` block whose only lines are mdBook includes,
    /// `{{#include PATH}}` or `{{#include PATH:ANCHOR}}`: it shows a file of
    /// a crate of the workspace, which cargo compiles and tests; the book's
    /// tests check that the file (and the anchor) exist. Holds the
    /// `PATH[:ANCHOR]` of each line, relative to the chapter.
    Included(Vec<String>),
    /// A Rust block the book must not have: `ignore`, `compile_fail`
    /// without an error code, or an unknown attribute. The text says why.
    Refused(String),
}

/// One fenced code block.
#[derive(Debug, Clone)]
pub struct Block {
    /// The info string after the opening fence.
    pub info: String,
    /// The block's code.
    pub code: String,
    /// The 1-based line of the opening fence.
    pub line: usize,
    /// Byte range of the opening fence's line in the chapter.
    pub fence: Range<usize>,
    /// What to do with it.
    pub check: Check,
}

const NOT_RUST: [&str; 8] = [
    "text", "console", "toml", "sh", "bash", "shell", "yaml", "json",
];
const RUSTDOC_ATTRS: [&str; 3] = ["should_panic", "no_run", "editable"];

/// Classifies an info string.
pub fn check_of(info: &str) -> Check {
    let tokens: Vec<&str> = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
        .collect();
    match tokens.first() {
        None => {
            return Check::Refused("a code block needs a language (`rust`, `text`, ...)".into())
        }
        Some(language) if NOT_RUST.contains(language) => return Check::NotRust,
        Some(&"rust") => {}
        Some(other) => return Check::Refused(format!("unknown language `{other}`")),
    }
    let mut codes = Vec::new();
    let mut compile_fail = false;
    let mut noplayground = false;
    for token in &tokens[1..] {
        match *token {
            "compile_fail" => compile_fail = true,
            "noplayground" => noplayground = true,
            "ignore" => {
                return Check::Refused(
                    "`ignore` blocks are never checked; the book has none".into(),
                )
            }
            code if code.len() == 5
                && code.starts_with('E')
                && code[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                codes.push(code.to_owned())
            }
            attr if RUSTDOC_ATTRS.contains(&attr) => {}
            other => return Check::Refused(format!("unknown attribute `{other}`")),
        }
    }
    match (compile_fail, codes.is_empty()) {
        (true, false) => Check::CompileFail(codes),
        (true, true) => Check::Refused(
            "`compile_fail` needs the error code(s) it expects, like `rust,compile_fail,E0451`"
                .into(),
        ),
        (false, false) => {
            Check::Refused("error codes only make sense on `compile_fail` blocks".into())
        }
        (false, true) if noplayground => Check::WithCourseCrates,
        (false, true) => Check::Standalone,
    }
}

/// Every fenced code block of a chapter, in order.
pub fn blocks(chapter: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut current: Option<Block> = None;
    for (event, range) in Parser::new(chapter).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let fence_end = chapter[range.start..]
                    .find('\n')
                    .map_or(chapter.len(), |end| range.start + end);
                current = Some(Block {
                    check: check_of(&info),
                    info: info.into_string(),
                    code: String::new(),
                    line: chapter[..range.start].matches('\n').count() + 1,
                    fence: range.start..fence_end,
                });
            }
            Event::Text(text) => {
                if let Some(block) = current.as_mut() {
                    block.code.push_str(&text);
                }
            }
            Event::End(_) => {
                if let Some(mut block) = current.take() {
                    if block.check == Check::Standalone && uses_dependencies(&block.code) {
                        block.check = Check::WithDependencies;
                    }
                    if let Some(includes) = includes(&block.code) {
                        block.check = match block.check {
                            Check::WithCourseCrates => Check::Included(includes),
                            _ => Check::Refused(
                                "a block of mdBook includes shows a workspace file: mark it `rust,noplayground`".into(),
                            ),
                        };
                    }
                    found.push(block);
                }
            }
            _ => {}
        }
    }
    found
}

/// The `PATH[:ANCHOR]` of each line of a block made only of mdBook
/// includes (`{{#include ...}}`), or `None` for any other block.
pub fn includes(code: &str) -> Option<Vec<String>> {
    let lines: Vec<&str> = code
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    lines
        .iter()
        .map(|line| {
            let spec = line
                .trim()
                .strip_prefix("{{#include ")?
                .strip_suffix("}}")?;
            Some(spec.trim().to_owned())
        })
        .collect()
}

/// The crates.io crates that the book's runnable blocks may use: the book's
/// tests depend on them, and the playground has them.
pub const DEPENDENCIES: [&str; 3] = ["syn", "quote", "proc_macro2"];

/// Whether a block's code names one of [`DEPENDENCIES`] in a path.
pub fn uses_dependencies(code: &str) -> bool {
    DEPENDENCIES.iter().any(|name| {
        code.match_indices(&format!("{name}::")).any(|(at, _)| {
            !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}
