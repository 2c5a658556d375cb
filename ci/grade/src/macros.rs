//! A learner's procedural macros: recorded where they may run, replayed
//! where they may not.
//!
//! **Invariant**: no code of a learner's macro crate runs in a compilation
//! whose diagnostics decide a case. A procedural macro runs inside the
//! compiler: it could print a forged diagnostic, end the compiler, or write
//! into the grader's pipes. So the learner's macros run only in a confined
//! build of a *recording* copy of the crate, where each macro entry point is
//! wrapped to write down, as text, what it was given and what it returned.
//! The build whose diagnostics decide the cases compiles a *replaying* copy,
//! whose macro crate is generated here: each of its macros looks its input
//! up among the recordings and returns the recorded tokens, re-spanned onto
//! the input's tokens where their text matches, so that errors still point
//! at the case's code. What the learner's macro produced is then only
//! tokens, compiled like any other code.
//!
//! The entry points of the learner's crate are found with `syn`; only their
//! names and helper-attribute names (identifiers) reach the generated
//! source, never text copied from the learner's files.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use syn::spanned::Spanned;
use xsafe_sandbox::mirror;

/// How much the recordings of one grade may hold, in all.
const RECORDINGS_CAP: u64 = 16 << 20;

/// The two copies of a crate whose exercise has macro crates.
#[derive(Debug, Clone)]
pub struct LearnerMacros {
    /// The copy whose macro entry points record what they produce.
    pub recording: PathBuf,
    /// The copy whose macro crates replay the recordings.
    pub replaying: PathBuf,
    /// Where the recording build writes the recordings (a fresh folder of
    /// the recording job).
    pub recordings: PathBuf,
    /// The macro crates, relative to the crate.
    pub crates: Vec<PathBuf>,
    /// Each macro crate's entry points.
    pub entry_points: BTreeMap<PathBuf, Vec<EntryPoint>>,
}

/// One procedural macro of a learner's crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// `derive`, `bang` or `attribute`.
    pub kind: MacroKind,
    /// The macro's name (the derive's name, or the function's).
    pub name: String,
    /// The derive's helper attributes.
    pub helpers: Vec<String>,
    /// The function's name.
    pub function: String,
}

/// The kind of a procedural macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacroKind {
    /// `#[proc_macro_derive]`
    Derive,
    /// `#[proc_macro]`
    Bang,
    /// `#[proc_macro_attribute]`
    Attribute,
}

impl EntryPoint {
    /// The macro as the public surface lists it: `derive Sendable`,
    /// `derive Sendable attributes(skip)`, `attribute NAME`, `bang NAME`.
    pub fn surface_line(&self) -> String {
        match self.kind {
            MacroKind::Derive if self.helpers.is_empty() => format!("derive {}", self.name),
            MacroKind::Derive => {
                let mut helpers = self.helpers.clone();
                helpers.sort();
                format!("derive {} attributes({})", self.name, helpers.join(", "))
            }
            MacroKind::Bang => format!("bang {}", self.name),
            MacroKind::Attribute => format!("attribute {}", self.name),
        }
    }
}

impl MacroKind {
    fn as_str(self) -> &'static str {
        match self {
            MacroKind::Derive => "derive",
            MacroKind::Bang => "bang",
            MacroKind::Attribute => "attribute",
        }
    }
}

/// Why the copies could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MacroError {
    /// A file could not be copied, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The copy failed.
    #[error(transparent)]
    Mirror(#[from] xsafe_sandbox::SandboxError),
    /// A macro crate's source cannot be read for its entry points (see
    /// `bounded`): the grade of this exercise says why.
    #[error("{file} cannot be read for its macros: {why}")]
    Unreadable {
        /// The file, relative to the crate.
        file: String,
        /// Why.
        why: String,
    },
    /// A macro returned what would run code no case called (see
    /// `before_main`): each item, with the macro that wrote it.
    #[error("your macros wrote what would run without a case calling it: {}", .0.join(", "))]
    Refused(Vec<String>),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MacroError + '_ {
    move |source| MacroError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl LearnerMacros {
    /// Makes the recording copy of `crate_dir` under `work_dir`, and the
    /// replaying copy's files except the recordings; `None` when the crate
    /// holds no procedural macro crate.
    pub fn prepare(crate_dir: &Path, work_dir: &Path) -> Result<Option<LearnerMacros>, MacroError> {
        let macro_crates = macro_crates_in(crate_dir);
        if macro_crates.is_empty() {
            return Ok(None);
        }
        let recording = work_dir.join("recording-crate");
        let replaying = work_dir.join("replaying-crate");
        let recordings = work_dir.join("recordings");
        // The macro crates' files that are rewritten below are left to the
        // rewriting, which writes them only when they change: cargo then
        // rebuilds only what changed.
        let rewritten_lib = |relative: &Path| {
            macro_crates
                .iter()
                .any(|krate| relative == krate.join("src/lib.rs"))
        };
        let generated_src = |relative: &Path| {
            macro_crates
                .iter()
                .any(|krate| relative.starts_with(krate.join("src")))
        };
        mirror(crate_dir, &recording, &rewritten_lib)?;
        mirror(crate_dir, &replaying, &generated_src)?;
        let mut entry_points = BTreeMap::new();
        for krate in &macro_crates {
            let original = crate_dir.join(krate).join("src/lib.rs");
            let text = std::fs::read_to_string(&original).unwrap_or_default();
            // A file nested beyond what the grader reads is refused here;
            // one that does not parse does not compile either: the
            // recording build reports why, on the learner's own text.
            if let Ok(tokens) = text.parse::<proc_macro2::TokenStream>()
                && crate::bounded::depth(&tokens) > crate::bounded::MAX_DEPTH
            {
                return Err(MacroError::Unreadable {
                    file: krate.join("src/lib.rs").display().to_string(),
                    why: format!(
                        "its brackets nest deeper than the {} the grader reads",
                        crate::bounded::MAX_DEPTH
                    ),
                });
            }
            let (shared_text, shared_recordings) = (text.clone(), recordings.clone());
            let (found, wrapped) = crate::bounded::with_file(&text, move |file| {
                let found = entry_points_of(file);
                let wrapped = with_recorders(&shared_text, file, &found, &shared_recordings);
                (found, wrapped)
            })
            .unwrap_or_else(|_| (Vec::new(), text));
            write_if_changed(&recording.join(krate).join("src/lib.rs"), &wrapped)?;
            // The replaying crate's sources are the grader's: the table
            // and its reader are written once the recordings are in.
            let replay_src = replaying.join(krate).join("src");
            if let Ok(files) = std::fs::read_dir(&replay_src) {
                for file in files.flatten() {
                    let path = file.path();
                    let name = file.file_name();
                    let ours =
                        name == "lib.rs" || name.to_string_lossy().starts_with("recordings-");
                    if !ours || path.is_dir() {
                        let _ = if path.is_dir() {
                            std::fs::remove_dir_all(&path)
                        } else {
                            std::fs::remove_file(&path)
                        };
                    }
                }
            }
            entry_points.insert(krate.clone(), found);
        }
        Ok(Some(LearnerMacros {
            recording,
            replaying,
            recordings,
            crates: macro_crates,
            entry_points,
        }))
    }

    /// Gathers what the recording build wrote (the files it collected from
    /// [`LearnerMacros::recordings`], read as data: only well-formed
    /// records, at most [`RECORDINGS_CAP`] bytes in all) into one table,
    /// named by its digest, in each replaying macro crate, where no
    /// learner process can write. Returns the digest, which
    /// [`LearnerMacros::check_recordings`] checks before the table is
    /// replayed. A macro whose output is missing is then reported as such
    /// by the replayer.
    pub fn install_recordings<'a>(
        &self,
        files: impl Iterator<Item = (&'a PathBuf, &'a Vec<u8>)>,
    ) -> Result<String, MacroError> {
        let mut entries: BTreeMap<String, String> = BTreeMap::new();
        let mut total = 0u64;
        for (path, bytes) in files {
            if path.parent() != Some(self.recordings.as_path())
                || path.extension().is_none_or(|extension| extension != "rec")
            {
                continue;
            }
            total = total.saturating_add(bytes.len() as u64);
            if total > RECORDINGS_CAP {
                break;
            }
            if let Ok(text) = std::str::from_utf8(bytes)
                && let Some((key, output)) = parse_recording(text)
            {
                entries.insert(key, output);
            }
        }
        // What the macros returned is compiled into the cases' programs
        // (the observing program among them), whose expansion is not the
        // crate's: it is held to `before_main`'s rules here, before it is
        // installed anywhere.
        let mut refused = Vec::new();
        for (key, output) in &entries {
            let name = key.split(':').take(2).collect::<Vec<_>>().join(" ");
            match output.parse::<proc_macro2::TokenStream>() {
                Ok(tokens) => refused.extend(
                    crate::before_main::refused_in_tokens(tokens)
                        .into_iter()
                        .map(|what| format!("{what} from the {name} macro")),
                ),
                Err(_) => refused.push(format!("unreadable tokens from the {name} macro")),
            }
        }
        if !refused.is_empty() {
            refused.sort();
            refused.dedup();
            return Err(MacroError::Refused(refused));
        }
        let mut table = String::new();
        for (key, output) in &entries {
            write_field(&mut table, key);
            write_field(&mut table, output);
        }
        let digest = digest_of(&table);
        for krate in &self.crates {
            let src = self.replaying.join(krate).join("src");
            write_if_changed(
                &src.join("lib.rs"),
                &replayer_source(&self.entry_points[krate], &digest),
            )?;
            write_if_changed(&src.join(table_name(&digest)), &table)?;
            // Older tables go.
            if let Ok(files) = std::fs::read_dir(&src) {
                for file in files.flatten() {
                    let name = file.file_name();
                    if name != "lib.rs" && name != table_name(&digest).as_str() {
                        let _ = std::fs::remove_file(file.path());
                    }
                }
            }
        }
        Ok(digest)
    }

    /// Whether every replaying crate's table is the one installed with
    /// `digest`, byte for byte: checked right before the build that
    /// replays it.
    pub fn check_recordings(&self, digest: &str) -> Result<(), MacroError> {
        for krate in &self.crates {
            let path = self
                .replaying
                .join(krate)
                .join("src")
                .join(table_name(digest));
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            if digest_of(&text) != digest {
                return Err(MacroError::Io {
                    path,
                    source: std::io::Error::other(
                        "the recordings changed after they were installed",
                    ),
                });
            }
        }
        Ok(())
    }
}

/// The digest (SHA-256, hex) of a table of recordings.
fn digest_of(table: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(table.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The file name of the table with `digest`.
fn table_name(digest: &str) -> String {
    format!("recordings-{digest}.txt")
}

/// Writes `text` to `path` unless it holds exactly that already.
fn write_if_changed(path: &Path, text: &str) -> Result<(), MacroError> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, text).map_err(io(path))
}

/// The procedural macro crates in a crate's folder (the crate itself
/// included), relative to it: every `Cargo.toml` under it, outside
/// `target/`, `grading/` and hidden folders, whose `[lib]` says
/// `proc-macro = true`. Read from the manifests, so no list can forget
/// one.
pub fn macro_crates_in(crate_dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let walk = walkdir::WalkDir::new(crate_dir)
        .follow_links(false)
        .max_depth(4)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0
                || !(entry.file_name() == "target"
                    || entry.file_name() == "grading"
                    || entry.file_name().to_string_lossy().starts_with('.'))
        });
    for entry in walk.flatten() {
        if entry.file_name() != "Cargo.toml" || !entry.file_type().is_file() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        let Ok(manifest) = text.parse::<toml::Table>() else {
            continue;
        };
        let proc_macro = manifest
            .get("lib")
            .and_then(|lib| lib.get("proc-macro").or_else(|| lib.get("proc_macro")))
            .and_then(toml::Value::as_bool)
            .unwrap_or(false);
        if proc_macro {
            let dir = entry.path().parent().unwrap_or(crate_dir);
            found.push(dir.strip_prefix(crate_dir).unwrap_or(dir).to_path_buf());
        }
    }
    found.sort();
    found
}

/// `LEN:TEXT` records: a recording is `key` then `output`.
fn write_field(out: &mut String, text: &str) {
    let _ = write!(out, "{}:{text}", text.len());
}

fn read_field(text: &str) -> Option<(&str, &str)> {
    let (len, rest) = text.split_once(':')?;
    let len: usize = len.parse().ok()?;
    Some((rest.get(..len)?, rest.get(len..)?))
}

fn parse_recording(text: &str) -> Option<(String, String)> {
    let (key, rest) = read_field(text)?;
    let (output, rest) = read_field(rest)?;
    rest.is_empty().then(|| (key.to_owned(), output.to_owned()))
}

/// The root functions of a macro crate that carry a procedural macro
/// attribute, with names checked to be identifiers.
fn entry_points_of(file: &syn::File) -> Vec<EntryPoint> {
    let mut found = Vec::new();
    for item in &file.items {
        let syn::Item::Fn(function) = item else {
            continue;
        };
        for attr in &function.attrs {
            let path = attr.path();
            let function_name = function.sig.ident.to_string();
            if path.is_ident("proc_macro_derive") {
                let Ok(args) = attr.parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                ) else {
                    continue;
                };
                let mut args = args.into_iter();
                let Some(syn::Meta::Path(name)) = args.next() else {
                    continue;
                };
                let Some(name) = name.get_ident() else {
                    continue;
                };
                let mut helpers = Vec::new();
                for arg in args {
                    if let syn::Meta::List(list) = arg
                        && list.path.is_ident("attributes")
                            && let Ok(names) = list.parse_args_with(
                                syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated,
                            ) {
                                helpers.extend(names.iter().map(ToString::to_string));
                            }
                }
                found.push(EntryPoint {
                    kind: MacroKind::Derive,
                    name: name.to_string(),
                    helpers,
                    function: function_name,
                });
            } else if path.is_ident("proc_macro") {
                found.push(EntryPoint {
                    kind: MacroKind::Bang,
                    name: function_name.clone(),
                    helpers: Vec::new(),
                    function: function_name,
                });
            } else if path.is_ident("proc_macro_attribute") {
                found.push(EntryPoint {
                    kind: MacroKind::Attribute,
                    name: function_name.clone(),
                    helpers: Vec::new(),
                    function: function_name,
                });
            }
        }
    }
    found
}

/// The byte offset of a line and column (as `proc-macro2` reports them:
/// 1-based lines, 0-based columns in characters) in `text`.
fn offset(text: &str, at: proc_macro2::LineColumn) -> usize {
    let mut line_start = 0;
    for _ in 1..at.line {
        match text[line_start..].find('\n') {
            Some(end) => line_start += end + 1,
            None => return text.len(),
        }
    }
    text[line_start..]
        .char_indices()
        .nth(at.column)
        .map_or(text.len(), |(index, _)| line_start + index)
}

/// The learner's macro crate with each entry point turned into a private
/// function (its attribute and visibility blanked out, its name prefixed,
/// every line where it was), and a recording entry point of the same name
/// appended.
fn with_recorders(text: &str, file: &syn::File, found: &[EntryPoint], recordings: &Path) -> String {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for item in &file.items {
        let syn::Item::Fn(function) = item else {
            continue;
        };
        let name = function.sig.ident.to_string();
        if !found.iter().any(|entry| entry.function == name) {
            continue;
        }
        for attr in &function.attrs {
            let path = attr.path();
            if path.is_ident("proc_macro_derive")
                || path.is_ident("proc_macro")
                || path.is_ident("proc_macro_attribute")
            {
                let span = attr.span();
                let (start, end) = (offset(text, span.start()), offset(text, span.end()));
                edits.push((start, end, blank(&text[start..end])));
            }
        }
        if !matches!(function.vis, syn::Visibility::Inherited) {
            let span = function.vis.span();
            let (start, end) = (offset(text, span.start()), offset(text, span.end()));
            edits.push((start, end, blank(&text[start..end])));
        }
        let span = function.sig.ident.span();
        let (start, end) = (offset(text, span.start()), offset(text, span.end()));
        edits.push((start, end, format!("__xsafe_learner_{name}")));
    }
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.0));
    let mut out = text.to_owned();
    for (start, end, replacement) in edits {
        if start <= end && end <= out.len() {
            out.replace_range(start..end, &replacement);
        }
    }
    out.push_str("\n\n// Added by the X-safe Rust grading engine: recording entry points.\n");
    for entry in found {
        let _ = writeln!(out, "{}", entry_attribute(entry));
        match entry.kind {
            MacroKind::Derive | MacroKind::Bang => {
                let _ = writeln!(
                    out,
                    "pub fn {f}(input: ::proc_macro::TokenStream) -> ::proc_macro::TokenStream {{\n    let key = format!(\"{kind}:{name}:{{}}\", input);\n    let output = __xsafe_learner_{f}(input);\n    __xsafe_record(&key, &output.to_string());\n    output\n}}",
                    f = entry.function,
                    kind = entry.kind.as_str(),
                    name = entry.name,
                );
            }
            MacroKind::Attribute => {
                let _ = writeln!(
                    out,
                    "pub fn {f}(attr: ::proc_macro::TokenStream, item: ::proc_macro::TokenStream) -> ::proc_macro::TokenStream {{\n    let key = format!(\"attribute:{name}:{{}}\\u{{0}}{{}}\", attr, item);\n    let output = __xsafe_learner_{f}(attr, item);\n    __xsafe_record(&key, &output.to_string());\n    output\n}}",
                    f = entry.function,
                    name = entry.name,
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "fn __xsafe_record(key: &str, output: &str) {{\n    use ::std::hash::{{Hash, Hasher}};\n    let mut hasher = ::std::collections::hash_map::DefaultHasher::new();\n    key.hash(&mut hasher);\n    let path = ::std::path::Path::new({dir:?}).join(format!(\"{{:016x}}.rec\", hasher.finish()));\n    let record = format!(\"{{}}:{{}}{{}}:{{}}\", key.len(), key, output.len(), output);\n    let _ = ::std::fs::write(path, record);\n}}",
        dir = recordings.to_string_lossy()
    );
    out
}

fn blank(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

fn entry_attribute(entry: &EntryPoint) -> String {
    match entry.kind {
        MacroKind::Derive if entry.helpers.is_empty() => {
            format!("#[proc_macro_derive({})]", entry.name)
        }
        MacroKind::Derive => format!(
            "#[proc_macro_derive({}, attributes({}))]",
            entry.name,
            entry.helpers.join(", ")
        ),
        MacroKind::Bang => "#[proc_macro]".to_owned(),
        MacroKind::Attribute => "#[proc_macro_attribute]".to_owned(),
    }
}

/// The replaying macro crate: the same entry points, each returning what
/// the recording build recorded for its input, from the table named by
/// `digest`.
fn replayer_source(found: &[EntryPoint], digest: &str) -> String {
    let mut out = REPLAYER.replace("recordings.txt", &table_name(digest));
    for entry in found {
        let _ = writeln!(out, "{}", entry_attribute(entry));
        match entry.kind {
            MacroKind::Derive | MacroKind::Bang => {
                let _ = writeln!(
                    out,
                    "pub fn {f}(input: TokenStream) -> TokenStream {{\n    let key = format!(\"{kind}:{name}:{{}}\", input);\n    replay(&key, &input)\n}}",
                    f = entry.function,
                    kind = entry.kind.as_str(),
                    name = entry.name,
                );
            }
            MacroKind::Attribute => {
                let _ = writeln!(
                    out,
                    "pub fn {f}(attr: TokenStream, item: TokenStream) -> TokenStream {{\n    let key = format!(\"attribute:{name}:{{}}\\u{{0}}{{}}\", attr, item);\n    replay(&key, &item)\n}}",
                    f = entry.function,
                    name = entry.name,
                );
            }
        }
    }
    out
}

/// The fixed part of the replaying crate.
const REPLAYER: &str = r#"//! Generated by the X-safe Rust grading engine: replays what the learner's
//! macros produced in the recording build, so that no learner code runs in
//! the build whose errors decide the cases.
use proc_macro::{Group, Span, TokenStream, TokenTree};
use std::collections::BTreeMap;

const RECORDINGS: &str = include_str!("recordings.txt");

fn field(text: &str) -> Option<(&str, &str)> {
    let (len, rest) = text.split_once(':')?;
    let len: usize = len.parse().ok()?;
    Some((rest.get(..len)?, rest.get(len..)?))
}

fn recorded(key: &str) -> Option<&'static str> {
    let mut rest = RECORDINGS;
    while !rest.is_empty() {
        let (found, after) = field(rest)?;
        let (output, after) = field(after)?;
        if found == key {
            return Some(output);
        }
        rest = after;
    }
    None
}

fn replay(key: &str, input: &TokenStream) -> TokenStream {
    let Some(output) = recorded(key) else {
        return "compile_error!(\"the macro produced nothing in the recording build (it panicked, or it never ran there)\");"
            .parse()
            .unwrap_or_default();
    };
    let Ok(tokens) = output.parse::<TokenStream>() else {
        return "compile_error!(\"the macro's recorded output is not valid Rust tokens\");"
            .parse()
            .unwrap_or_default();
    };
    let mut spans: BTreeMap<String, (Vec<Span>, usize)> = BTreeMap::new();
    collect_spans(input.clone(), &mut spans);
    respan(tokens, &mut spans)
}

fn collect_spans(tokens: TokenStream, spans: &mut BTreeMap<String, (Vec<Span>, usize)>) {
    for tree in tokens {
        match tree {
            TokenTree::Group(group) => collect_spans(group.stream(), spans),
            other => spans.entry(other.to_string()).or_default().0.push(other.span()),
        }
    }
}

/// Gives each recorded token the span of the input token with the same
/// text, taking the input's occurrences in turn.
fn respan(tokens: TokenStream, spans: &mut BTreeMap<String, (Vec<Span>, usize)>) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(group) => {
                let mut copy = Group::new(group.delimiter(), respan(group.stream(), spans));
                copy.set_span(group.span());
                TokenTree::Group(copy)
            }
            mut other => {
                if let Some((found, next)) = spans.get_mut(&other.to_string()) {
                    if !found.is_empty() {
                        other.set_span(found[*next % found.len()]);
                        *next += 1;
                    }
                }
                other
            }
        })
        .collect()
}

"#;

#[cfg(test)]
mod tests {
    use super::*;

    const LEARNER: &str = "use proc_macro::TokenStream;\n\n/// Docs.\n#[proc_macro_derive(Sendable, attributes(skip))]\npub fn derive_sendable(input: TokenStream) -> TokenStream {\n    input\n}\n\nfn helper() {}\n";

    /// Entry points are found with their names and helpers, and the
    /// wrapped crate keeps every line where it was.
    #[test]
    fn wraps_entry_points_in_place() {
        let file = syn::parse_file(LEARNER).expect("parses");
        let found = entry_points_of(&file);
        assert_eq!(
            found,
            [EntryPoint {
                kind: MacroKind::Derive,
                name: "Sendable".into(),
                helpers: vec!["skip".into()],
                function: "derive_sendable".into(),
            }]
        );
        let wrapped = with_recorders(LEARNER, &file, &found, Path::new("/r"));
        let lines: Vec<&str> = wrapped.lines().collect();
        assert_eq!(lines[3].trim(), "", "the attribute is blanked");
        assert_eq!(
            lines[4],
            "    fn __xsafe_learner_derive_sendable(input: TokenStream) -> TokenStream {"
        );
        assert_eq!(lines[8], "fn helper() {}");
        assert!(
            wrapped.contains(
                "#[proc_macro_derive(Sendable, attributes(skip))]\npub fn derive_sendable("
            )
        );
        syn::parse_file(&wrapped).expect("the wrapped crate still parses");
    }

    /// Records round-trip, and a record with trailing bytes is refused.
    #[test]
    fn recordings_round_trip() {
        let mut text = String::new();
        write_field(&mut text, "derive:S:struct A;");
        write_field(&mut text, "impl X for A {} // é");
        assert_eq!(
            parse_recording(&text),
            Some(("derive:S:struct A;".into(), "impl X for A {} // é".into()))
        );
        assert_eq!(parse_recording(&format!("{text}x")), None);
        assert_eq!(parse_recording("99:short"), None);
    }

    /// Line and column become the right byte offset, with multi-byte text.
    #[test]
    fn offsets() {
        let text = "é\nab\ncd";
        assert_eq!(
            offset(text, proc_macro2::LineColumn { line: 2, column: 1 }),
            4
        );
        assert_eq!(
            offset(text, proc_macro2::LineColumn { line: 3, column: 0 }),
            6
        );
    }
}
