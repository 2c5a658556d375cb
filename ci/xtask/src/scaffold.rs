//! `cargo xtask new-chapter NAME`: a new chapter, complete and registered.
//!
//! The chapter it writes is a small but working example (an `Even` number
//! whose evenness only its constructor decides), so that the course stays
//! whole from the first minute: `cargo xtask check` passes, the starter
//! fails exactly the cases that need work, the solution scores full marks,
//! and every variant scores as it declares. The author then replaces the
//! example with the chapter's own invariant, file by file.
//!
//! **Invariant**: [`new_chapter`] writes nothing until every refusal has
//! been decided (name, existing files), so a refused chapter leaves the
//! course untouched.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};
use xsafe_course::git_blob_id;

/// Why a chapter was not made.
#[derive(Debug)]
pub enum Refusal {
    /// The name cannot be a chapter's (not a valid crate name, or taken).
    Name(String),
    /// Something went wrong while writing; the course may be half changed.
    Failed(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Name(message) | Refusal::Failed(message) => f.write_str(message),
        }
    }
}

/// The fixture of the grader's tests that grades one wrong solution of
/// every chapter.
pub const PER_CHAPTER_FIXTURE: &str = "one-wrong-solution-per-chapter";
/// The wrong variant the per-chapter fixture uses for a new chapter.
const FIXTURE_VARIANT: &str = "accepts-odd";

/// Names the compiler or cargo reserve, which no crate may take.
const RESERVED: &[&str] = &[
    "abstract",
    "alloc",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "core",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "proc_macro",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "std",
    "struct",
    "super",
    "test",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
];

/// Why `name` cannot be a chapter's crate name, if it cannot: ASCII
/// lowercase letters, digits, `-` and `_`, starting with a letter, at most
/// 64 characters, not a keyword or a name cargo reserves.
pub fn invalid_name(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > 64 {
        return Some(format!(
            "`{name}` is not a valid crate name: it must have 1 to 64 characters"
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(format!(
            "`{name}` is not a valid crate name: it must start with a lowercase ASCII letter"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|&c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'))
    {
        return Some(format!(
            "`{name}` is not a valid crate name: `{bad}` is not a lowercase ASCII letter, a digit, `-` or `_`"
        ));
    }
    if name.ends_with(['-', '_']) {
        return Some(format!(
            "`{name}` is not a valid crate name: it must not end with `-` or `_`"
        ));
    }
    if RESERVED.contains(&lib_name(name).as_str()) {
        return Some(format!(
            "`{name}` is not a valid crate name: it is a Rust keyword or a name cargo reserves"
        ));
    }
    None
}

/// The library name of a chapter's crates: `my-chapter` gives `my_chapter`.
pub fn lib_name(name: &str) -> String {
    name.replace('-', "_")
}

/// A title made from the name: `my-chapter` gives `My chapter`.
pub fn default_title(name: &str) -> String {
    let words = name.replace(['-', '_'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What [`new_chapter`] did, for its report.
pub struct Made {
    /// Files written, relative to the course.
    pub written: Vec<PathBuf>,
    /// Files changed to register the chapter, relative to the course.
    pub registered: Vec<PathBuf>,
}

/// Scaffolds chapter `name` in the course at `root` and registers it. The
/// caller then regenerates the templates.
pub fn new_chapter(root: &Path, name: &str, title: Option<&str>) -> Result<Made, Refusal> {
    if let Some(why) = invalid_name(name) {
        return Err(Refusal::Name(why));
    }
    let title = title.map_or_else(|| default_title(name), str::to_owned);
    if title.trim().is_empty() || title.contains(['\n', '\r']) {
        return Err(Refusal::Name(
            "the title must be one line of text".to_owned(),
        ));
    }
    let taken: Vec<PathBuf> = [
        format!("exercises/{name}"),
        format!("solutions/{name}"),
        format!("book/src/{name}.md"),
    ]
    .into_iter()
    .map(PathBuf::from)
    .filter(|path| std::fs::symlink_metadata(root.join(path)).is_ok())
    .collect();
    if let Some(path) = taken.first() {
        return Err(Refusal::Name(format!(
            "chapter `{name}` exists: {} is already there",
            path.display()
        )));
    }
    let lib = lib_name(name);
    for folder in ["exercises", "solutions"] {
        for entry in std::fs::read_dir(root.join(folder))
            .into_iter()
            .flatten()
            .flatten()
        {
            let existing = entry.file_name().to_string_lossy().into_owned();
            if lib_name(&existing) == lib {
                return Err(Refusal::Name(format!(
                    "chapter `{name}` would have the crate name `{lib}`, which {folder}/{existing} has"
                )));
            }
        }
    }
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    for package in [name.to_owned(), format!("{name}-solution")] {
        if lock.contains(&format!("\nname = \"{package}\"\n")) {
            return Err(Refusal::Name(format!(
                "the workspace already has a package called `{package}`"
            )));
        }
    }
    let summary_path = root.join("book/src/SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path)
        .map_err(|err| Refusal::Failed(format!("cannot read {}: {err}", summary_path.display())))?;
    let number = std::fs::read_dir(root.join("exercises"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|entry| entry.path().join("grading/manifest.toml").is_file())
                .count()
        })
        .unwrap_or(0)
        + 1;

    let chapter = Chapter {
        name,
        lib: lib_name(name),
        title: &title,
        number,
    };
    let mut made = Made {
        written: Vec::new(),
        registered: Vec::new(),
    };
    for (path, text) in chapter.files() {
        write_new(root, &path, &text)?;
        made.written.push(path);
    }

    let exercise_chapters = exercise_chapters(root);
    let summary = register_in_summary(&summary, &title, &format!("{name}.md"), &exercise_chapters);
    write(root, Path::new("book/src/SUMMARY.md"), &summary)?;
    made.registered.push("book/src/SUMMARY.md".into());

    if register_members(root, name)? {
        made.registered.push("Cargo.toml".into());
    }
    if register_doctest_dependency(root, name)? {
        made.registered.push("book/doctest/Cargo.toml".into());
    }
    if register_fixture(root, name)? {
        made.registered
            .push("ci/grader/fixtures/submissions.toml".into());
    }
    update_lockfile(root)?;
    made.registered.push("Cargo.lock".into());
    Ok(made)
}

fn write_new(root: &Path, relative: &Path, text: &str) -> Result<(), Refusal> {
    let path = root.join(relative);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|err| Refusal::Failed(format!("cannot create {}: {err}", parent.display())))?;
    }
    write(root, relative, text)
}

fn write(root: &Path, relative: &Path, text: &str) -> Result<(), Refusal> {
    let path = root.join(relative);
    std::fs::write(&path, text)
        .map_err(|err| Refusal::Failed(format!("cannot write {}: {err}", path.display())))
}

fn read(root: &Path, relative: &str) -> Result<String, Refusal> {
    let path = root.join(relative);
    std::fs::read_to_string(&path)
        .map_err(|err| Refusal::Failed(format!("cannot read {}: {err}", path.display())))
}

fn parse(relative: &str, text: &str) -> Result<DocumentMut, Refusal> {
    text.parse()
        .map_err(|err| Refusal::Failed(format!("{relative} is not valid TOML: {err}")))
}

/// The chapter file (`chapter = "..."`) of every exercise's manifest.
fn exercise_chapters(root: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root.join("exercises")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let text = std::fs::read_to_string(entry.path().join("grading/manifest.toml")).ok()?;
            let doc: DocumentMut = text.parse().ok()?;
            Some(doc.get("chapter")?.as_str()?.to_owned())
        })
        .collect()
}

/// The summary with a link to `file` after the last chapter that has an
/// exercise (one of `exercise_chapters`), so before a closing chapter
/// without one and before the appendices; after the last numbered chapter
/// when no chapter has an exercise yet.
pub fn register_in_summary(
    summary: &str,
    title: &str,
    file: &str,
    exercise_chapters: &[String],
) -> String {
    let title = title.replace('[', "\\[").replace(']', "\\]");
    let entry = format!("- [{title}]({file})");
    let mut lines: Vec<&str> = summary.lines().collect();
    let is_chapter = |line: &&str| line.trim_start().starts_with("- [");
    let last_chapter = lines
        .iter()
        .rposition(|line| {
            is_chapter(line)
                && exercise_chapters
                    .iter()
                    .any(|chapter| line.contains(&format!("]({chapter})")))
        })
        .or_else(|| lines.iter().rposition(is_chapter));
    let at = match last_chapter {
        Some(index) => index + 1,
        None => lines
            .iter()
            .position(|line| line.starts_with("[Appendix"))
            .unwrap_or(lines.len()),
    };
    lines.insert(at, &entry);
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Whether a workspace member pattern (a path, or a path ending in `/*`)
/// covers the folder `path`.
pub fn pattern_covers(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix("/*") {
        Some(parent) => path
            .strip_prefix(parent)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/')),
        None => pattern == path,
    }
}

/// The patterns of `workspace.KEY` in the root `Cargo.toml`.
pub fn workspace_list(doc: &DocumentMut, key: &str) -> Vec<String> {
    doc.get("workspace")
        .and_then(|workspace| workspace.get(key))
        .and_then(Item::as_array)
        .map(|array| {
            array
                .iter()
                .filter_map(|value| value.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Adds the exercise and the solution to the workspace's members, and the
/// solution to its default members, where no pattern covers them yet.
fn register_members(root: &Path, name: &str) -> Result<bool, Refusal> {
    let text = read(root, "Cargo.toml")?;
    let mut doc = parse("Cargo.toml", &text)?;
    let exercise = format!("exercises/{name}");
    let solution = format!("solutions/{name}");
    let mut changed = false;
    for (key, paths) in [
        ("members", vec![&exercise, &solution]),
        ("default-members", vec![&solution]),
    ] {
        let patterns = workspace_list(&doc, key);
        for path in paths {
            if patterns.iter().any(|pattern| pattern_covers(pattern, path)) {
                continue;
            }
            let Some(array) = doc
                .get_mut("workspace")
                .and_then(|workspace| workspace.get_mut(key))
                .and_then(Item::as_array_mut)
            else {
                continue;
            };
            array.push_formatted(Value::from(path.as_str()).decorated("\n    ", ""));
            array.set_trailing("\n");
            array.set_trailing_comma(true);
            changed = true;
        }
    }
    if changed {
        write(root, Path::new("Cargo.toml"), &doc.to_string())?;
    }
    Ok(changed)
}

/// Lets the book's `rust,noplayground` blocks use the chapter's solution,
/// as the other chapters' blocks use theirs.
fn register_doctest_dependency(root: &Path, name: &str) -> Result<bool, Refusal> {
    let relative = "book/doctest/Cargo.toml";
    if !root.join(relative).is_file() {
        return Ok(false);
    }
    let mut doc = parse(relative, &read(root, relative)?)?;
    let Some(dependencies) = doc
        .get_mut("dependencies")
        .and_then(Item::as_table_like_mut)
    else {
        return Ok(false);
    };
    let package = format!("{name}-solution");
    if dependencies.contains_key(&package) {
        return Ok(false);
    }
    let mut dependency = InlineTable::new();
    dependency.insert("path", Value::from(format!("../../solutions/{name}")));
    dependencies.insert(&package, Item::Value(Value::InlineTable(dependency)));
    write(root, Path::new(relative), &doc.to_string())?;
    Ok(true)
}

/// Adds the chapter to the grader's fixture that grades one wrong solution
/// per chapter.
fn register_fixture(root: &Path, name: &str) -> Result<bool, Refusal> {
    let relative = "ci/grader/fixtures/submissions.toml";
    if !root.join(relative).is_file() {
        return Ok(false);
    }
    let text = read(root, relative)?;
    let mut doc = parse(relative, &text)?;
    if !add_to_fixture(&mut doc, name) {
        return Ok(false);
    }
    write(root, Path::new(relative), &doc.to_string())?;
    Ok(true)
}

/// Adds `name` to the per-chapter fixture of `doc`: its `grade` list, its
/// `variant` table and an `expect`. `false` if `doc` has no such fixture.
fn add_to_fixture(doc: &mut DocumentMut, name: &str) -> bool {
    let Some(fixtures) = doc
        .get_mut("fixture")
        .and_then(Item::as_array_of_tables_mut)
    else {
        return false;
    };
    let Some(fixture) = fixtures
        .iter_mut()
        .find(|fixture| fixture.get("name").and_then(Item::as_str) == Some(PER_CHAPTER_FIXTURE))
    else {
        return false;
    };
    if let Some(grade) = fixture.get_mut("grade").and_then(Item::as_array_mut) {
        grade.push(name);
    }
    if let Some(variants) = fixture
        .get_mut("variant")
        .and_then(Item::as_inline_table_mut)
    {
        // Written as the others are: `a = "x", b = "y" }`.
        if let Some((_, last)) = variants.iter_mut().last() {
            last.decor_mut().set_suffix("");
        }
        variants.insert(name, Value::from(FIXTURE_VARIANT).decorated(" ", " "));
    }
    if let Some(expects) = fixture
        .get_mut("expect")
        .and_then(Item::as_array_of_tables_mut)
    {
        let mut expect = Table::new();
        expect.insert("exercise", toml_edit::value(name));
        expects.push(expect);
    }
    true
}

/// Brings `Cargo.lock` up to date with the new packages, changing no
/// dependency's version (`cargo metadata` only adds what is missing).
fn update_lockfile(root: &Path) -> Result<(), Refusal> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let run = |offline: bool| {
        let mut command = std::process::Command::new(&cargo);
        command
            .current_dir(root)
            .args(["metadata", "--format-version", "1"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        if offline {
            command.arg("--offline");
        }
        command.output()
    };
    let output = match run(true) {
        Ok(output) if output.status.success() => return Ok(()),
        _ => run(false),
    };
    match output {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(Refusal::Failed(format!(
            "cannot update Cargo.lock (`cargo metadata`): {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))),
        Err(err) => Err(Refusal::Failed(format!("cannot run cargo: {err}"))),
    }
}

/// A TOML basic string holding `text`.
fn toml_string(text: &str) -> String {
    Value::from(text).to_string().trim().to_owned()
}

/// The chapter to write.
struct Chapter<'a> {
    name: &'a str,
    lib: String,
    title: &'a str,
    number: usize,
}

impl Chapter<'_> {
    /// Every file of the chapter, relative to the course.
    fn files(&self) -> Vec<(PathBuf, String)> {
        let name = self.name;
        let starter = self.starter_lib();
        let mut files = vec![
            (format!("book/src/{name}.md"), self.book_page()),
            (format!("exercises/{name}/Cargo.toml"), self.exercise_toml()),
            (format!("exercises/{name}/src/lib.rs"), starter.clone()),
            (
                format!("exercises/{name}/grading/manifest.toml"),
                self.manifest(&[("src/lib.rs", &starter)]),
            ),
            (format!("exercises/{name}/grading/ROUTES.md"), self.routes()),
            (
                format!("exercises/{name}/grading/cases/definition/new_may_refuse.rs"),
                self.definition_case(),
            ),
            (
                format!("exercises/{name}/grading/cases/enforcement/no_field_access.rs"),
                self.enforcement_case(),
            ),
            (
                format!("exercises/{name}/grading/cases/consumption/half_is_exact.rs"),
                self.consumption_case(),
            ),
            (format!("solutions/{name}/Cargo.toml"), self.solution_toml()),
            (format!("solutions/{name}/src/lib.rs"), self.solution_lib()),
            (format!("solutions/{name}/variants.toml"), self.variants()),
        ];
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files
            .into_iter()
            .map(|(path, text)| (PathBuf::from(path), text))
            .collect()
    }

    fn book_page(&self) -> String {
        let Chapter {
            name, lib, title, ..
        } = self;
        format!(
            r#"# {title}

<!-- TODO: one paragraph on the rule this chapter teaches the compiler, and
what goes wrong in code that only hopes the rule holds. The example below is
the scaffold's placeholder (`cargo xtask new-chapter`): replace it, and the
exercise's `Even`, with the chapter's own invariant. -->

A number that must be even is an `u32` with a comment. Nothing stops a
caller from writing an odd one, and every function that relies on evenness
has to check it again, or hope.

## Definition

Attach the rule to a type, and write it where readers and the compiler's
users will see it:

```rust
/// A number that is always even.
///
/// Invariant: the number is a multiple of 2. Only `Even::new` decides
/// that, and it refuses odd numbers.
pub struct Even {{
    value: u32,
}}

impl Even {{
    /// `Some` when `value` is even, `None` otherwise.
    pub fn new(value: u32) -> Option<Even> {{
        value.is_multiple_of(2).then_some(Even {{ value }})
    }}
}}

fn main() {{
    assert!(Even::new(4).is_some());
    assert!(Even::new(5).is_none());
}}
```

## Enforcement

<!-- TODO: which module upholds the rule, and what keeps every other module
out (private fields, a sealed or `unsafe` trait). -->

The field is private, so outside the module `Even::new` is the only way to
make an `Even`, and it checks. Code that tries to write the field does not
compile.

## Consumption

<!-- TODO: the code that relies on the rule, and what it no longer needs to
check. -->

`half` can divide by two without a remainder to lose or a check to make:
the type says there is none.

## The exercise

The starter, in `exercises/{name}/src/lib.rs`, has the type with a public
field and a constructor that checks nothing. Every place to work on is
marked `TODO(enforcement)` or `TODO(consumption)`.

1. **Definition.** Nothing to write: keep `new` returning `Option<Even>`.
2. **Enforcement.** Make the field private and let `new` refuse odd numbers.
3. **Consumption.** Write `half`, relying on the invariant.

Grade with:

```text
cargo xsafe                                # grades on every save
cargo xsafe check {name}
```

The hints come from `cargo xsafe hint {name}`; they are also listed in
`exercises/{name}/grading/manifest.toml`. The crate is called `{lib}`.

## Further reading

<!-- TODO: sources, each with one line on why it is worth reading. -->

* The Rust Reference, "Visibility and privacy".
  <https://doc.rust-lang.org/reference/visibility-and-privacy.html>
"#
        )
    }

    fn exercise_toml(&self) -> String {
        let Chapter {
            name,
            lib,
            title,
            number,
        } = self;
        let description = toml_string(&format!("X-safe Rust, exercise {number}: {title}."));
        format!(
            r#"[package]
name = "{name}"
version = "0.1.0"
description = {description}
# No workspace inheritance: graders copy this crate out of the workspace.
edition = "2024"
rust-version = "1.95"
license = "MIT OR Apache-2.0"
publish = false

[lib]
name = "{lib}"

[dev-dependencies]
# What the grading cases (grading/cases) use; the grading engine builds them
# with these dependencies (see ci/grade).
serde = {{ version = "1", features = ["derive"] }}
xsafe-case = {{ path = "../../ci/case" }}
"#
        )
    }

    fn solution_toml(&self) -> String {
        let Chapter { name, lib, .. } = self;
        format!(
            r#"[package]
name = "{name}-solution"
version = "0.1.0"
description = "Reference solution of the X-safe Rust exercise `{name}`."
# No workspace inheritance: graders copy this crate out of the workspace.
edition = "2024"
rust-version = "1.95"
license = "MIT OR Apache-2.0"
publish = false

[lib]
# Same crate name as the starter, so that the book and the grading cases name it alike.
name = "{lib}"

# The solution is graded the way a learner's work is: ci/proofs copies its
# `src/` into a fresh copy of `exercises/{name}` and runs the cases there.
"#
        )
    }

    fn starter_lib(&self) -> String {
        let Chapter { title, number, .. } = self;
        format!(
            r#"//! # Exercise {number}: {title}
//!
//! TODO: replace this example (an even number) with the chapter's own
//! invariant; `cargo xtask new-chapter` wrote it as a placeholder.
//!
//! The starter is the *before* version: the invariant is written on
//! [`Even`], but its field is public and its constructor checks nothing.
//! Your work, step by step (the grading cases follow the same steps; grade
//! with `cargo xsafe`):
//!
//! 1. **Definition** is done: keep every public signature as it is, since
//!    the grading cases call them.
//! 2. **Enforcement**: make the field private and let [`Even::new`] refuse
//!    odd numbers.
//! 3. **Consumption**: write [`Even::half`], relying on the invariant.
//!
//! Every place to work on is marked `TODO(enforcement)` or
//! `TODO(consumption)`.

/// A number that is always even.
///
/// Invariant: the number is a multiple of 2. Only [`Even::new`] decides
/// that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Even {{
    /// The number. TODO(enforcement): no code outside this module may set it.
    pub value: u32,
}}

impl Even {{
    /// `Some` when `value` is even, `None` otherwise.
    pub fn new(value: u32) -> Option<Even> {{
        // TODO(enforcement): refuse odd numbers.
        Some(Even {{ value }})
    }}

    /// The number.
    pub fn get(self) -> u32 {{
        self.value
    }}

    /// Half of the number, exactly.
    pub fn half(self) -> u32 {{
        todo!("TODO(consumption): rely on the invariant")
    }}
}}
"#
        )
    }

    fn solution_lib(&self) -> String {
        let Chapter { name, .. } = self;
        format!(
            r#"//! Reference solution of the X-safe Rust exercise `{name}`.
//!
//! TODO: replace this example (an even number) with the chapter's own
//! invariant; `cargo xtask new-chapter` wrote it as a placeholder.
//!
//! * **Definition.** [`Even`] documents its invariant: the number is even.
//! * **Enforcement.** Its field is private, so [`Even::new`], which refuses
//!   odd numbers, is the only way to make one.
//! * **Consumption.** [`Even::half`] divides without a check.

/// A number that is always even.
///
/// Invariant: the number is a multiple of 2. Only [`Even::new`] decides
/// that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Even {{
    value: u32,
}}

impl Even {{
    /// `Some` when `value` is even, `None` otherwise.
    pub fn new(value: u32) -> Option<Even> {{
        if value.is_multiple_of(2) {{
            Some(Even {{ value }})
        }} else {{
            None
        }}
    }}

    /// The number.
    pub fn get(self) -> u32 {{
        self.value
    }}

    /// Half of the number, exactly: an even number leaves no remainder.
    pub fn half(self) -> u32 {{
        self.value / 2
    }}
}}
"#
        )
    }

    fn definition_case(&self) -> String {
        let Chapter { lib, .. } = self;
        format!(
            r#"//! Proves the definition: an `Even` is made only by a check that may
//! refuse. `Even::new` returns `Option<Even>`, so a caller cannot take an
//! `Even` out of an odd number without handling the refusal.
use {lib}::Even;

fn main() {{
    let even: Even = Even::new(3); //~ ERROR E0308
    println!("{{even:?}}");
}}
"#
        )
    }

    fn enforcement_case(&self) -> String {
        let Chapter { lib, .. } = self;
        format!(
            r#"//! Proves enforcement: code outside the crate cannot write the number of
//! an `Even`, so nothing but `Even::new` decides that it is even. The write
//! must be refused: a private field (E0616), no such field (E0609), or
//! only a method of that name (E0615).
use {lib}::Even;

fn make_odd(even: &mut Even) {{
    even.value = 3; //~ ERROR E0616|E0609|E0615
}}

fn main() {{
    let _ = make_odd;
}}
"#
        )
    }

    fn consumption_case(&self) -> String {
        let Chapter { lib, .. } = self;
        format!(
            r#"//! Proves consumption: `Even::new` accepts exactly the even numbers, and
//! `half` of what it accepts is exact.
use serde::{{Deserialize, Serialize}};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {{
    /// For each number drawn: what `new` kept (`get`) and `half` of it.
    made: Vec<Option<(u32, u32)>>,
}}

/// Numbers from the seed: even ones and odd ones, alternately.
fn numbers(seed: Seed) -> Vec<u32> {{
    let mut rng = seed.rng();
    (0..16u32)
        .map(|index| rng.u32(0..1 << 20) * 2 + index % 2)
        .collect()
}}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {{
    use {lib}::Even;

    let made = numbers(seed)
        .into_iter()
        .map(|number| Even::new(number).map(|even| (even.get(), even.half())))
        .collect();
    Seen {{ made }}
}}

pub fn judge(seed: Seed, seen: Seen) {{
    let numbers = numbers(seed);
    assert_eq!(seen.made.len(), numbers.len(), "one answer per number");
    for (number, made) in numbers.into_iter().zip(seen.made) {{
        if number % 2 == 0 {{
            assert_eq!(
                made,
                Some((number, number / 2)),
                "Even::new({{number}}) must keep {{number}}, and half of it is {{}}",
                number / 2
            );
        }} else {{
            assert_eq!(made, None, "Even::new({{number}}) must refuse an odd number");
        }}
    }}
}}
"#
        )
    }

    fn manifest(&self, starter: &[(&str, &str)]) -> String {
        let Chapter { name, title, .. } = self;
        let mut text = format!(
            r#"# Grading manifest of the `{name}` exercise: data, read by the grading
# harness (ci/grade), the learner's tool and the instructor's grader.
# Each case's own first comment says what it proves; grading/ROUTES.md lists
# every route to the invariant and the case that grades it.
# TODO: written by `cargo xtask new-chapter` around a placeholder (an even
# number); replace the goals, hints and cases with the chapter's own.

exercise = "{name}"
title = {title}
chapter = "{name}.md"
# What the learner writes. Everything else in the crate belongs to the course.
learner_files = ["src"]

[[step]]
name = "definition"
goal = "Keep the type as the starter defines it: the invariant is written on Even, and Even::new may refuse."
hints = [
    "The starter already passes this step. Its case fails only if you change a signature: `new` must keep returning `Option<Even>`.",
]

[[step]]
name = "enforcement"
goal = "Make Even::new the only way to make an Even: a private field, and a constructor that refuses odd numbers."
hints = [
    "Remove `pub` from the field; `get` already reads it.",
    "`new`: `value.is_multiple_of(2)` decides.",
]

[[step]]
name = "consumption"
goal = "Rely on the invariant: half of an Even, with no check and no remainder."
hints = [
    "An even number divided by two leaves nothing behind.",
]

[[case]]
file = "definition/new_may_refuse.rs"
step = "definition"
expect = "compile-fail"
given = true

[[case]]
file = "enforcement/no_field_access.rs"
step = "enforcement"
expect = "compile-fail"

[[case]]
file = "consumption/half_is_exact.rs"
step = "consumption"
expect = "pass"
points = 2

# Written by `cargo run -p xsafe-grading-proofs --bin starter`: the git
# blob id of each learner file of the starter, from which `cargo xsafe reset`
# restores it.
[starter]
"#,
            title = toml_string(title)
        );
        for (file, content) in starter {
            let _ = writeln!(text, "{:?} = {:?}", file, git_blob_id(content.as_bytes()));
        }
        text
    }

    fn routes(&self) -> String {
        r#"# Routes to an `Even`: how outside code could break the invariant, and what grades each

TODO: written by `cargo xtask new-chapter` around a placeholder (an even
number); list the chapter's own routes.

The invariant: the number inside an `Even` is even. Only `Even::new`
decides that.

| Route | What could go wrong | Graded by |
| --- | --- | --- |
| field access `even.value = ..` | an odd number inside an `Even` | `enforcement/no_field_access` |
| `Even::new` | an odd number accepted | `consumption/half_is_exact` |
| `Even::new` returning `Even` | a caller never told that a number may be refused | `definition/new_may_refuse` |
| `get`, `half` | read-only: they cannot break the invariant, but `half` must rely on it | `consumption/half_is_exact` |
"#
        .to_owned()
    }

    fn variants(&self) -> String {
        r#"# Overlays on the reference solution, graded by ci/proofs. An overlay with no
# `fails` is an alternative correct solution and must score full marks; one
# with `fails` is a wrong solution and must fail exactly those cases.
# Each edit is a literal find-and-replace that must match `count` times
# (default 1), so an overlay that no longer fits the solution fails loudly.
# The proofs want at least one alternative and three wrong solutions.
# TODO: written by `cargo xtask new-chapter` around a placeholder (an even
# number); replace with the chapter's own.

[[variant]]
name = "written-differently"
about = "A correct solution in another style: the check on the low bit, as one expression. It must score full marks."

[[variant.edit]]
file = "src/lib.rs"
find = """
        if value.is_multiple_of(2) {
            Some(Even { value })
        } else {
            None
        }"""
replace = """
        (value & 1 == 0).then_some(Even { value })"""

[[variant]]
name = "public-field"
about = "The field is public: outside code can write an odd number into an Even."
fails = ["enforcement/no_field_access"]

[[variant.edit]]
file = "src/lib.rs"
find = "pub struct Even {\n    value: u32,"
replace = "pub struct Even {\n    pub value: u32,"

[[variant]]
name = "accepts-odd"
about = "new keeps every number, odd ones too: an Even that is not even, and a half that loses the remainder."
fails = ["consumption/half_is_exact"]

[[variant.edit]]
file = "src/lib.rs"
find = "if value.is_multiple_of(2) {"
replace = "if value.is_multiple_of(1) {"

[[variant]]
name = "new-never-refuses"
about = "new returns an Even and panics on an odd number: the caller is never told, by the type, that a number may be refused."
fails = ["definition/new_may_refuse", "consumption/half_is_exact"]

[[variant.edit]]
file = "src/lib.rs"
find = """
    pub fn new(value: u32) -> Option<Even> {
        if value.is_multiple_of(2) {
            Some(Even { value })
        } else {
            None
        }
    }"""
replace = """
    pub fn new(value: u32) -> Even {
        assert!(value.is_multiple_of(2), "{value} is odd");
        Even { value }
    }"""
"#
        .to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names cargo would refuse, or that the course cannot use, are refused
    /// with the reason; ordinary names pass.
    #[test]
    fn names() {
        for good in ["ordered-tree", "a", "lock2", "snake_case"] {
            assert_eq!(invalid_name(good), None, "{good}");
        }
        for bad in [
            "", "Tree", "2d", "-x", "x-", "a b", "a/b", "fn", "self", "test", "std", "é",
        ] {
            assert!(invalid_name(bad).is_some(), "`{bad}` must be refused");
        }
    }

    /// The new chapter goes after the last chapter with an exercise, before
    /// a closing chapter and the appendix.
    #[test]
    fn summary_entry_goes_before_the_appendix() {
        let summary = "# Summary\n\n[Introduction](introduction.md)\n\n- [One](one.md)\n- [Two](two.md)\n\n[Appendix: for instructors](instructors.md)\n";
        assert_eq!(
            register_in_summary(summary, "Three [3]", "three.md", &[]),
            "# Summary\n\n[Introduction](introduction.md)\n\n- [One](one.md)\n- [Two](two.md)\n- [Three \\[3\\]](three.md)\n\n[Appendix: for instructors](instructors.md)\n"
        );
        let empty = "# Summary\n\n[Appendix](a.md)\n";
        assert_eq!(
            register_in_summary(empty, "One", "one.md", &[]),
            "# Summary\n\n- [One](one.md)\n[Appendix](a.md)\n"
        );
        let closing = "- [One](one.md)\n- [Primer](primer.md)\n- [Two](two.md)\n- [Closing](closing.md)\n\n[Appendix](a.md)\n";
        let chapters = ["one.md".to_owned(), "two.md".to_owned()];
        assert_eq!(
            register_in_summary(closing, "Three", "three.md", &chapters),
            "- [One](one.md)\n- [Primer](primer.md)\n- [Two](two.md)\n- [Three](three.md)\n- [Closing](closing.md)\n\n[Appendix](a.md)\n"
        );
    }

    /// `dir/*` covers the folders directly under `dir`, and only those.
    #[test]
    fn member_patterns() {
        assert!(pattern_covers("exercises/*", "exercises/tree"));
        assert!(!pattern_covers("exercises/*", "exercises/tree/derive"));
        assert!(!pattern_covers("exercises/*", "solutions/tree"));
        assert!(!pattern_covers("exercises/*", "exercisesx/tree"));
        assert!(pattern_covers("ci/case", "ci/case"));
        assert!(!pattern_covers("ci/case", "ci/cases"));
    }

    /// The chapter joins the per-chapter fixture in all three places, its
    /// `expect` right after the others (not at the end of the file), written
    /// as the existing entries are.
    #[test]
    fn fixture_registration() {
        let text = "[[fixture]]\nname = \"one-wrong-solution-per-chapter\"\ngrade = [\"a\"]\nvariant = { a = \"wrong\" }\n\n[[fixture.expect]]\nexercise = \"a\"\n\n[[fixture]]\nname = \"other\"\n";
        let mut doc: DocumentMut = text.parse().expect("valid");
        assert!(add_to_fixture(&mut doc, "b"));
        assert_eq!(
            doc.to_string(),
            "[[fixture]]\nname = \"one-wrong-solution-per-chapter\"\ngrade = [\"a\", \"b\"]\nvariant = { a = \"wrong\", b = \"accepts-odd\" }\n\n[[fixture.expect]]\nexercise = \"a\"\n\n[[fixture.expect]]\nexercise = \"b\"\n\n[[fixture]]\nname = \"other\"\n"
        );
    }

    #[test]
    fn titles() {
        assert_eq!(default_title("my-new_chapter"), "My new chapter");
    }
}
