//! The per-exercise grading manifest: which cases exist, which step each one
//! belongs to, what it is worth, the hints for each step, which files are the
//! learner's and what the exercise's public API is. It is data, kept in
//! `grading/manifest.toml`, so that tools and the book can read it too.

use crate::expectation::Expectations;
use serde::Deserialize;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The three steps of the method, in the order a learner meets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepName {
    /// The property is attached to a type or trait and documented.
    Definition,
    /// One module upholds the property; privacy or `unsafe` keeps others out.
    Enforcement,
    /// The rest of the code relies on the property.
    Consumption,
}

impl StepName {
    /// All steps, in order.
    pub const ALL: [StepName; 3] = [
        StepName::Definition,
        StepName::Enforcement,
        StepName::Consumption,
    ];

    /// The step's name as written in manifests and test names.
    pub fn as_str(self) -> &'static str {
        match self {
            StepName::Definition => "definition",
            StepName::Enforcement => "enforcement",
            StepName::Consumption => "consumption",
        }
    }

    /// Parses a step name as written in manifests.
    pub fn parse(name: &str) -> Option<StepName> {
        StepName::ALL.into_iter().find(|step| step.as_str() == name)
    }
}

impl fmt::Display for StepName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a case expects of the code under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    /// A behaviour case: its `observe` function runs the learner's code and
    /// records what happened, and its `judge` function, built without the
    /// learner's code, decides whether that is right.
    Pass,
    /// The compiler must reject the case with the errors its `//~`
    /// annotations name (see [`Expectations`](crate::Expectations)).
    CompileFail,
    /// The crate's public surface holds nothing beyond the exercise's API
    /// and the manifest's `[surface] allow` list.
    Surface,
    /// A cost case: the case file is a probe crate whose functions each
    /// call an operation of the crate; built in release mode, no code they
    /// reach may keep a way to panic (a bounds check the reference does not
    /// make). See the grading engine's `no_panic` module.
    NoPanic,
}

impl Expect {
    /// The word used in manifests and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Pass => "pass",
            Expect::CompileFail => "compile-fail",
            Expect::Surface => "surface",
            Expect::NoPanic => "no-panic",
        }
    }
}

/// One step of an exercise, with the hints a learner can ask for.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Which step this is.
    pub name: StepName,
    /// One sentence: what the learner does in this step.
    pub goal: String,
    /// Hints, from gentle to explicit.
    #[serde(default)]
    pub hints: Vec<String>,
}

/// One grading case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case's source, relative to the `cases/` folder.
    pub file: PathBuf,
    /// The step the case belongs to.
    pub step: StepName,
    /// Whether it must pass or fail to compile.
    pub expect: Expect,
    /// Points it is worth.
    #[serde(default = "one")]
    pub points: u32,
    /// `true` when the starter already passes this case: it checks that the
    /// learner keeps what the starter gives (the definition), not new work.
    #[serde(default)]
    pub given: bool,
    /// For a behaviour case: also run its observation under Miri, where
    /// the machine has it, so that undefined behaviour the observation
    /// cannot see (two `&mut` to one item, a read of uninitialised memory)
    /// fails the case.
    #[serde(default)]
    pub miri: bool,
    /// For a behaviour case: a long sweep (many stops, large sizes) that
    /// the learner's re-grade on each save leaves out, to answer within a
    /// second; it runs once every other case passes, in `cargo xsafe check
    /// --full` and in the instructor's grader. Its verdict is the same
    /// wherever it runs.
    #[serde(default)]
    pub sweep: bool,
}

fn one() -> u32 {
    1
}

/// The public surface an exercise allows (see the grading engine's
/// `surface` module for how a crate's surface is read).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surface {
    /// The public items of the reference solution, such as
    /// `fn OrderedSet::insert` or `impl Clone for OrderedSet`: the
    /// exercise's API. Written by `cargo run -p xsafe-grading-proofs --bin
    /// api`, checked by a test. An item of the API that `allow` also lists
    /// is optional: the reference has it, the starter does not ask for it
    /// (send-marker's `impl Sendable for AtomicI16`); every other item is
    /// required.
    #[serde(default)]
    pub api: Vec<String>,
    /// Further items a solution may add, each an exact line of the
    /// canonical form, with why it is harmless or which case probes it.
    #[serde(default)]
    pub allow: Vec<AllowedItem>,
}

/// An item a solution may add to the public surface.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowedItem {
    /// The item, exactly as the surface lists it.
    pub item: String,
    /// The items of the API it stands for, when it is another way to write
    /// them that the syntax cannot show to be the same (`L: LockBefore<A>`
    /// for `A: LockAfter<L>`; one generic method for one per state): a
    /// crate with this item need not have those.
    #[serde(default)]
    pub replaces: Vec<String>,
    /// Why it is allowed: why it cannot break the invariant, or the case
    /// that checks what it does.
    pub why: String,
}

impl Surface {
    /// The required items of the API (those `allow` does not list) that
    /// `items` lacks, but for those an allowed item it has stands for.
    pub fn missing<'a>(&'a self, items: &std::collections::BTreeSet<String>) -> Vec<&'a String> {
        self.api
            .iter()
            .filter(|line| !items.contains(*line))
            .filter(|line| self.is_required(line))
            .filter(|line| {
                !self
                    .allow
                    .iter()
                    .any(|allowed| items.contains(&allowed.item) && allowed.replaces.contains(line))
            })
            .collect()
    }

    /// Whether a line of the API is required: the allow-list does not
    /// list it.
    pub fn is_required(&self, line: &str) -> bool {
        !self.allow.iter().any(|allowed| allowed.item == line)
    }

    /// The API's required lines.
    pub fn required(&self) -> impl Iterator<Item = &String> {
        self.api.iter().filter(|line| self.is_required(line))
    }

    /// Whether `item` is part of the API or allowed: an exact line of
    /// either, nothing by wildcard; or an allowed impl with narrower bounds
    /// (see [`narrows`]): outside code can use it for fewer types, never
    /// for more, so whatever made the allowed impl harmless holds of it.
    pub fn permits(&self, item: &str) -> bool {
        self.api.iter().any(|api| api == item)
            || self
                .allow
                .iter()
                .any(|allowed| allowed.item == item || narrows(item, &allowed.item))
    }
}

/// Whether the impl line `item` is the impl line `allowed` with narrower
/// bounds: the same header (trait, type and parameters) and the same
/// associated items, and every bound `allowed` puts on a parameter implied
/// by one `item` puts on it (itself, or a subtrait of it among std's
/// comparison and copy traits: `T: Ord` implies `T: PartialOrd`), while
/// `item` lifts no bound (`?Sized`) that `allowed` keeps. Extra bounds only
/// narrow. Lines that are not impls never narrow one another.
pub fn narrows(item: &str, allowed: &str) -> bool {
    fn parts(line: &str) -> Option<(&str, Vec<&str>, &str)> {
        let line = line.strip_prefix("unsafe ").unwrap_or(line);
        line.strip_prefix("impl ")?;
        let (head, items) = match line.find(" { ") {
            Some(at) => line.split_at(at),
            None => (line, ""),
        };
        let (header, bounds) = match head.split_once(" where ") {
            Some((header, bounds)) => (header, bounds.split(", ").collect()),
            None => (head, Vec::new()),
        };
        Some((header, bounds, items))
    }
    /// What a bound also gives: std's supertraits of the comparison and
    /// copy traits.
    fn implied(bound: &str) -> Vec<String> {
        let Some((param, tr)) = bound.split_once(": ") else {
            return vec![bound.to_owned()];
        };
        let supertraits: &[&str] = match tr {
            "Ord" => &["PartialOrd", "Eq", "PartialEq"],
            "Eq" | "PartialOrd" => &["PartialEq"],
            "Copy" => &["Clone"],
            _ => &[],
        };
        std::iter::once(bound.to_owned())
            .chain(supertraits.iter().map(|sup| format!("{param}: {sup}")))
            .collect()
    }
    let (Some((header, bounds, items)), Some((allowed_header, allowed_bounds, allowed_items))) =
        (parts(item), parts(allowed))
    else {
        return false;
    };
    if header != allowed_header || items != allowed_items {
        return false;
    }
    let given: Vec<String> = bounds.iter().flat_map(|bound| implied(bound)).collect();
    let keeps_every_bound = allowed_bounds
        .iter()
        .filter(|bound| !bound.ends_with(": ?Sized"))
        .all(|bound| given.iter().any(|have| have == bound));
    let lifts_nothing_more = bounds
        .iter()
        .filter(|bound| bound.ends_with(": ?Sized"))
        .all(|bound| allowed_bounds.contains(bound));
    keeps_every_bound && lifts_nothing_more
}

/// How an exercise's judge is built (`[judge]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeSettings {
    /// Whether the judge links the exercise's reference solution (from
    /// `solutions/NAME`), as the crate `xsafe_reference`, so that a case's
    /// judge can replay what was observed on the reference and compare.
    /// A case that uses it writes its `judge` half (and what it uses of
    /// the reference) under `#[cfg(xsafe_judge)]`: the observing program
    /// does not link the reference.
    #[serde(default)]
    pub reference: bool,
}

/// An exercise's `grading/manifest.toml`, with the folder it was read from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The exercise's folder name under `exercises/`.
    pub exercise: String,
    /// The exercise's title, as in the book.
    pub title: String,
    /// The book chapter that teaches it, relative to `book/src`.
    pub chapter: String,
    /// Files and folders of the crate that the learner writes; everything
    /// else in the crate belongs to the course.
    pub learner_files: Vec<PathBuf>,
    /// The exercise's public API, and what else a solution may make public.
    #[serde(default)]
    pub surface: Surface,
    /// How the judge is built.
    #[serde(default)]
    pub judge: JudgeSettings,
    /// The steps, in order.
    #[serde(rename = "step")]
    pub steps: Vec<Step>,
    /// The cases.
    #[serde(rename = "case")]
    pub cases: Vec<Case>,
    /// The starter's learner files, each with its git blob id, so that the
    /// starter can be restored from the repository's objects whatever the
    /// learner committed since (`cargo xsafe reset`). Written by
    /// `cargo run -p xsafe-grading-proofs --bin starter`.
    #[serde(default)]
    pub starter: std::collections::BTreeMap<PathBuf, String>,
    /// The `grading/` folder this manifest was read from.
    #[serde(skip)]
    pub dir: PathBuf,
}

/// Why a manifest could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The manifest's path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a valid manifest.
    #[error("{path} is not a valid grading manifest: {source}")]
    Parse {
        /// The manifest's path.
        path: PathBuf,
        /// What is wrong with it.
        source: Box<toml::de::Error>,
    },
    /// The manifest parsed but says something that cannot be right.
    #[error("{path}: {problem}")]
    Invalid {
        /// The manifest's path.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl Manifest {
    /// The manifest's file name inside a `grading/` folder.
    pub const FILE: &'static str = "manifest.toml";

    /// Reads and checks `dir/manifest.toml`.
    pub fn load(dir: &Path) -> Result<Manifest, ManifestError> {
        let path = dir.join(Manifest::FILE);
        let text = std::fs::read_to_string(&path).map_err(|source| ManifestError::Read {
            path: path.clone(),
            source,
        })?;
        let mut manifest: Manifest =
            toml::from_str(&text).map_err(|source| ManifestError::Parse {
                path: path.clone(),
                source: Box::new(source),
            })?;
        manifest.dir = dir.to_path_buf();
        manifest
            .validate()
            .map_err(|problem| ManifestError::Invalid {
                path: path.clone(),
                problem,
            })?;
        Ok(manifest)
    }

    fn validate(&self) -> Result<(), String> {
        for (index, step) in self.steps.iter().enumerate() {
            if StepName::ALL.get(index) != Some(&step.name) {
                return Err(format!(
                    "steps must be definition, enforcement, consumption in that order; found `{}` in place {}",
                    step.name,
                    index + 1
                ));
            }
        }
        if self.steps.len() != StepName::ALL.len() {
            return Err("the manifest must describe all three steps".to_owned());
        }
        for case in &self.cases {
            let path = self.case_path(case);
            if !path.is_file() {
                return Err(format!("case file {} does not exist", path.display()));
            }
        }
        for case in &self.cases {
            if case.miri && case.expect != Expect::Pass {
                return Err(format!(
                    "case {} has `miri = true`, but only behaviour cases run: Miri has nothing to run in a {} case",
                    case.name(),
                    case.expect.as_str()
                ));
            }
            if case.sweep && case.expect != Expect::Pass {
                return Err(format!(
                    "case {} has `sweep = true`, but only behaviour cases run: a {} case has no run to leave out of a quick grade",
                    case.name(),
                    case.expect.as_str()
                ));
            }
            if case.expect == Expect::CompileFail {
                let expectations = case
                    .expectations(self)
                    .map_err(|err| format!("case {}: {err}", case.name()))?;
                if expectations.required().next().is_none() {
                    return Err(format!(
                        "compile-fail case {} has no `//~ ERROR` annotation: it would pass whatever the compiler says",
                        case.name()
                    ));
                }
            }
        }
        for (index, case) in self.cases.iter().enumerate() {
            if self.cases[..index]
                .iter()
                .any(|seen| seen.file == case.file)
            {
                return Err(format!("case {} is listed twice", case.file.display()));
            }
        }
        Ok(())
    }

    /// The absolute path of a case's source file.
    pub fn case_path(&self, case: &Case) -> PathBuf {
        self.dir.join("cases").join(&case.file)
    }

    /// The cases of one step, in manifest order.
    pub fn cases_of(&self, step: StepName) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(move |case| case.step == step)
    }

    /// The step's description.
    pub fn step(&self, name: StepName) -> Option<&Step> {
        self.steps.iter().find(|step| step.name == name)
    }

    /// The points all cases are worth together.
    pub fn total_points(&self) -> u32 {
        self.cases.iter().map(|case| case.points).sum()
    }

    /// The points of the `given` cases: what the starter earns.
    pub fn given_points(&self) -> u32 {
        self.cases
            .iter()
            .filter(|case| case.given)
            .map(|case| case.points)
            .sum()
    }

    /// The names of the cases that need the learner's work (not `given`),
    /// in manifest order.
    pub fn cases_needing_work(&self) -> Vec<String> {
        self.cases
            .iter()
            .filter(|case| !case.given)
            .map(Case::name)
            .collect()
    }
}

impl Case {
    /// The case's name: its file path without extension, such as
    /// `enforcement/no_node_literal`.
    pub fn name(&self) -> String {
        self.file
            .with_extension("")
            .to_string_lossy()
            .replace('\\', "/")
    }

    /// The errors a compile-fail case expects, from its `//~` annotations.
    pub fn expectations(&self, manifest: &Manifest) -> Result<Expectations, ManifestError> {
        let path = manifest.case_path(self);
        let text = std::fs::read_to_string(&path).map_err(|source| ManifestError::Read {
            path: path.clone(),
            source,
        })?;
        Expectations::parse(&text).map_err(|err| ManifestError::Invalid {
            path,
            problem: format!("annotation on {err}"),
        })
    }

    /// What the case proves: the comment lines it starts with, joined.
    /// Empty if the file cannot be read or does not start with a comment.
    pub fn proves(&self, manifest: &Manifest) -> String {
        let text = std::fs::read_to_string(manifest.case_path(self)).unwrap_or_default();
        leading_comment(&text)
    }
}

/// The `//` or `//!` comment lines a source text starts with, without their
/// markers, joined by spaces.
pub(crate) fn leading_comment(text: &str) -> String {
    let mut words = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(comment) = line.strip_prefix("//") else {
            break;
        };
        let comment = comment.strip_prefix('!').unwrap_or(comment).trim();
        if !comment.is_empty() {
            words.push(comment);
        }
    }
    words.join(" ")
}

/// The git blob id of a file's content: what `git hash-object` prints.
pub fn git_blob_id(content: &[u8]) -> String {
    let mut hasher = sha1_smol::Sha1::new();
    let mut header = Vec::new();
    let _ = write!(header, "blob {}\0", content.len());
    hasher.update(&header);
    hasher.update(content);
    hasher.digest().to_string()
}

#[cfg(test)]
mod tests {

    /// An allowed impl with narrower bounds is allowed; with wider bounds,
    /// another header or other associated items, it is not.
    #[test]
    fn narrower_bounds_are_allowed() {
        let allowed = "impl PartialOrd for OrderedSet<T0> where T0: PartialOrd";
        assert!(narrows(
            "impl PartialOrd for OrderedSet<T0> where T0: Ord",
            allowed
        ));
        assert!(narrows(
            "impl PartialOrd for OrderedSet<T0> where T0: PartialOrd, T0: Debug",
            allowed
        ));
        assert!(!narrows("impl PartialOrd for OrderedSet<T0>", allowed));
        assert!(!narrows(
            "impl PartialOrd for OrderedSet<T0> where T0: PartialEq",
            allowed
        ));
        assert!(!narrows(
            "impl PartialOrd for NonEmptySet<T0> where T0: Ord",
            allowed
        ));
        let sized = "impl Debug for OrderedMutex<T0, T1> where T1: ?Sized, T1: Debug";
        assert!(narrows(
            "impl Debug for OrderedMutex<T0, T1> where T1: Debug",
            sized
        ));
        assert!(!narrows(
            "impl Debug for OrderedMutex<T0, T1> where T1: ?Sized, T1: Debug",
            "impl Debug for OrderedMutex<T0, T1> where T1: Debug"
        ));
        assert!(!narrows(
            "impl FromStr for Port where T0: Ord { type Err = String }",
            "impl FromStr for Port where T0: Ord { type Err = PortError }"
        ));
        assert!(!narrows(
            "fn f(T0) where T0: Ord",
            "fn f(T0) where T0: PartialOrd"
        ));
    }

    use super::*;

    /// The comment is read up to the first line of code, markers stripped.
    #[test]
    fn leading_comment_stops_at_code() {
        let text =
            "//! Proves that outside code\n//! cannot build a node.\n\nuse x;\n// not this\n";
        assert_eq!(
            leading_comment(text),
            "Proves that outside code cannot build a node."
        );
    }

    /// The blob id is git's: `printf 'hello\n' | git hash-object --stdin`.
    #[test]
    fn blob_id_matches_git() {
        assert_eq!(
            git_blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    /// The surface permits exact lines of its API and allow-list, and no
    /// line by pattern: a `*` is a character like any other.
    #[test]
    fn permits_exact_lines_only() {
        let surface = Surface {
            api: vec!["fn Set<T0>::len(&'l0 self) -> usize".to_owned()],
            allow: vec![AllowedItem {
                item: "impl Debug for Set<T0> where T0: Debug".to_owned(),
                why: "formats".to_owned(),
                replaces: Vec::new(),
            }],
        };
        assert!(surface.permits("fn Set<T0>::len(&'l0 self) -> usize"));
        assert!(surface.permits("impl Debug for Set<T0> where T0: Debug"));
        assert!(!surface.permits("impl Debug for Set<T0>"));
        assert!(!surface.permits("fn Set<T0>::len(&'l0 self) -> u32"));
        let wild = Surface {
            api: Vec::new(),
            allow: vec![AllowedItem {
                item: "impl * for Set<T0>".to_owned(),
                why: "no".to_owned(),
                replaces: Vec::new(),
            }],
        };
        assert!(!wild.permits("impl Clone for Set<T0>"));
    }

    /// An item of the API that the allow-list also names is optional: a
    /// surface without it misses nothing; every other item is required.
    #[test]
    fn allowed_items_of_the_api_are_optional() {
        let surface = Surface {
            api: vec![
                "impl Sendable for AtomicBool".to_owned(),
                "impl Sendable for AtomicI16".to_owned(),
            ],
            allow: vec![AllowedItem {
                item: "impl Sendable for AtomicI16".to_owned(),
                why: "the starter asks for AtomicBool and AtomicUsize only".to_owned(),
                replaces: Vec::new(),
            }],
        };
        let only_required: std::collections::BTreeSet<String> =
            ["impl Sendable for AtomicBool".to_owned()].into();
        assert!(surface.missing(&only_required).is_empty());
        let only_optional: std::collections::BTreeSet<String> =
            ["impl Sendable for AtomicI16".to_owned()].into();
        assert_eq!(
            surface.missing(&only_optional),
            [&"impl Sendable for AtomicBool".to_owned()]
        );
        assert_eq!(
            surface.required().collect::<Vec<_>>(),
            [&"impl Sendable for AtomicBool".to_owned()]
        );
    }

    /// A file that starts with code has no "proves" comment.
    #[test]
    fn no_leading_comment() {
        assert_eq!(leading_comment("fn main() {}\n// late"), "");
    }
}
