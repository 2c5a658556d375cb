//! Checks on the grading cases themselves, which need no compiling.

use xsafe_grade::{Expect, Manifest};
use xsafe_grading_proofs::{exercises, starter_snapshot};

/// Every case says what it proves, every compile-fail case is a program
/// (its `//~ ERROR` annotations are checked when the manifest loads), every
/// behaviour case has its two halves, no `.stderr` snapshot is left over
/// (nothing reads them), and every case file in `cases/` is listed in the
/// manifest (an unlisted one would silently never run).
#[test]
fn every_case_is_documented_snapshotted_and_listed() {
    for exercise in exercises() {
        let manifest =
            Manifest::load(&exercise.starter.join("grading")).unwrap_or_else(|err| panic!("{err}"));
        for case in &manifest.cases {
            let proves = case.proves(&manifest);
            assert!(
                proves.starts_with("Proves "),
                "{}: case {} must start with a `//! Proves ...` comment",
                exercise.name,
                case.name()
            );
            let source = std::fs::read_to_string(manifest.case_path(case)).expect("readable");
            match case.expect {
                Expect::CompileFail => {
                    assert!(
                        source.contains("fn main()"),
                        "{}: compile-fail case {} must be a program (it is built as one)",
                        exercise.name,
                        case.name()
                    );
                    // An annotation that points at a blank or comment-only
                    // line (rustfmt moves trailing comments) expects an
                    // error no code can have.
                    let lines: Vec<&str> = source.lines().collect();
                    let expectations = case.expectations(&manifest).expect("annotations");
                    for expected in &expectations.errors {
                        if let xsafe_grade::Place::Line(line) = expected.place {
                            let text = lines.get(line as usize - 1).copied().unwrap_or("");
                            let code = text.split("//").next().unwrap_or("").trim();
                            assert!(
                                !code.is_empty(),
                                "{}: case {}: the annotation on line {} points at line {line}, which holds no code",
                                exercise.name,
                                case.name(),
                                expected.written_on
                            );
                        }
                    }
                }
                Expect::Pass => {
                    assert!(
                        source.contains("pub fn observe(")
                            && source.contains("pub fn judge(")
                            && source.contains("#[cfg(not(xsafe_judge))]")
                            && !source.contains("fn main()"),
                        "{}: behaviour case {} must have `pub fn observe` (under `#[cfg(not(xsafe_judge))]`) and `pub fn judge`, and no `main`",
                        exercise.name,
                        case.name()
                    );
                    // What holds for the whole observing program is the
                    // program's: a program built without this case (the
                    // learner's quick grade leaves the long ones out, a case
                    // that does not compile is left out) must have it too.
                    assert!(
                        !source.contains("global_allocator"),
                        "{}: behaviour case {} declares the observing program's global allocator: declare it in `grading/cases/support.rs`, which every observing program holds",
                        exercise.name,
                        case.name()
                    );
                }
                Expect::Surface => {
                    assert!(
                        !source
                            .lines()
                            .any(|line| !line.trim().is_empty()
                                && !line.trim_start().starts_with("//")),
                        "{}: the surface case {} is a comment only: the engine reads the surface",
                        exercise.name,
                        case.name()
                    )
                }
                // A probe crate: functions the engine compiles and reads,
                // each `#[inline(never)]` so that it stays a function of
                // its own; nothing in it runs.
                Expect::NoPanic => assert!(
                    source.contains("#[inline(never)]")
                        && source.contains("pub fn ")
                        && !source.contains("fn main()")
                        && !source.contains("no_mangle"),
                    "{}: the no-panic case {} must be a library of `#[inline(never)] pub fn` probes, with no `main` and no `no_mangle`",
                    exercise.name,
                    case.name()
                ),
            }
        }
        let cases_dir = manifest.dir.join("cases");
        for step in std::fs::read_dir(&cases_dir)
            .expect("cases/ exists")
            .flatten()
        {
            if !step.path().is_dir() {
                continue;
            }
            for file in std::fs::read_dir(step.path()).expect("readable").flatten() {
                let path = file.path();
                assert!(
                    path.extension().is_none_or(|ext| ext != "stderr"),
                    "{}: {} is a snapshot, which nothing reads any more",
                    exercise.name,
                    path.display()
                );
                if path.extension().is_some_and(|ext| ext == "rs") {
                    assert!(
                        manifest
                            .cases
                            .iter()
                            .any(|case| manifest.case_path(case) == path),
                        "{}: {} is not listed in the manifest",
                        exercise.name,
                        path.display()
                    );
                }
            }
        }
    }
}

/// The manifest's `[starter]` table lists every learner file of the starter
/// with its current git blob id, so that `cargo xsafe reset` restores exactly
/// this starter. `--bin starter` rewrites the table.
#[test]
fn starter_snapshot_is_current() {
    for exercise in exercises() {
        let manifest =
            Manifest::load(&exercise.starter.join("grading")).unwrap_or_else(|err| panic!("{err}"));
        let current = starter_snapshot(&exercise.starter, &manifest.learner_files);
        assert!(
            !current.is_empty(),
            "{}: the starter has no learner files",
            exercise.name
        );
        assert_eq!(
            manifest.starter, current,
            "{}: the manifest's [starter] table is stale; run `cargo run -p xsafe-grading-proofs --bin starter`",
            exercise.name
        );
    }
}

/// The starter and the manifest agree on what is required: every name a
/// required item of the API mentions (a type, a trait, a function, a
/// field) appears in the starter's own text, either as code it declares or
/// in the comments that say what to write. An item whose names the
/// starter never mentions is one a learner cannot know to write: it must
/// be optional (listed in `[surface] allow` too). Primitive types, tuples
/// and arrays count as mentioned when the starter speaks of them at all
/// ("every integer and float type", "tuples", "arrays").
#[test]
fn required_items_are_what_the_starter_asks_for() {
    let keywords = [
        "impl",
        "for",
        "where",
        "fn",
        "struct",
        "enum",
        "trait",
        "unsafe",
        "field",
        "variant",
        "mod",
        "macro",
        "reachable",
        "self",
        "mut",
        "const",
        "type",
        "Self",
        "provided",
        "static",
        "dyn",
        "as",
        "ty",
        "private",
        "use",
    ];
    // What std's prelude and the compiler give every crate: a learner
    // writes these without being told.
    let given = [
        "Send",
        "Sync",
        "Sized",
        "Option",
        "Result",
        "Vec",
        "Box",
        "String",
        "Clone",
        "Copy",
        "Debug",
        "PartialEq",
        "Eq",
        "Default",
        "Ord",
        "PartialOrd",
        "Hash",
        "Iterator",
        "IntoIterator",
        "Drop",
        "Deref",
        "DerefMut",
        "From",
        "Into",
        "FnOnce",
        "Fn",
        "FnMut",
        "Display",
        "Error",
        "Item",
        "IntoIter",
        "Target",
        "Output",
    ];
    let primitives = [
        "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
        "i64", "i128", "isize", "f32", "f64",
    ];
    let mut problems = Vec::new();
    for exercise in exercises() {
        let manifest =
            Manifest::load(&exercise.starter.join("grading")).unwrap_or_else(|err| panic!("{err}"));
        let mut text = String::new();
        for entry in walkdir::WalkDir::new(&exercise.starter)
            .into_iter()
            .flatten()
            .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "rs"))
            .filter(|entry| {
                !entry
                    .path()
                    .components()
                    .any(|part| part.as_os_str() == "grading")
            })
        {
            text.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
        }
        let mentions = |word: &str| {
            text.match_indices(word).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + word.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        };
        for line in manifest.surface.required() {
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|word| !word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()))
                .filter(|word| {
                    !keywords.contains(word) && !given.contains(word) && !is_generic_param(word)
                })
                .filter(|word| {
                    !(word.starts_with('l') && word[1..].chars().all(|c| c.is_ascii_digit()))
                })
                .collect();
            let mut unmentioned: Vec<&str> = words
                .into_iter()
                .filter(|word| {
                    if primitives.contains(word) {
                        !(mentions(word) || mentions("integer") || mentions("primitives"))
                    } else {
                        !mentions(word)
                    }
                })
                .collect();
            if line.contains(" for (") && !mentions("tuples") {
                unmentioned.push("tuples");
            }
            if !unmentioned.is_empty() {
                unmentioned.dedup();
                problems.push(format!(
                    "{}: `{line}` is required, but the starter never mentions {}: list it in [surface] allow (optional), or say in the starter that it is expected",
                    exercise.name,
                    unmentioned.join(", ")
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every "probed by CASE" in an allow list is true of the case's text: the
/// case exists, and its program (with the cases' shared `support.rs`) names
/// the item's type and uses the item: a method by its name, a trait by
/// what calls it (`{:?}` for `Debug`, `default()` for `Default`, `from` or
/// `into` for `From`, `extend` for `Extend`, `parse` for `FromStr`,
/// `try_from` or `try_into` for `TryFrom`). An allowed item is optional,
/// so a wrong version of it is caught only by the case that probes it: a
/// probe named in the list but never made would let it through.
#[test]
fn every_named_probe_uses_its_item() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for exercise in exercises() {
        let grading = exercise.starter.join("grading");
        let manifest = Manifest::load(&grading).unwrap_or_else(|err| panic!("{err}"));
        for allowed in &manifest.surface.allow {
            let Some(cases) = probe_cases(&allowed.why) else {
                continue;
            };
            if cases.is_empty() {
                problems.push(format!(
                    "{}: `{}` names no case after \"probed by\"",
                    exercise.name, allowed.item
                ));
            }
            for name in cases {
                let Some(case) = manifest.cases.iter().find(|case| case.name() == name) else {
                    problems.push(format!(
                        "{}: `{}` is probed by {name}, which is no case",
                        exercise.name, allowed.item
                    ));
                    continue;
                };
                // The case's own file: a helper in `support.rs` that
                // names the type does not make this case use it.
                let source = std::fs::read_to_string(manifest.case_path(case)).unwrap_or_default();
                checked += 1;
                if let Some(missing) = unused_item(&allowed.item, &source) {
                    problems.push(format!(
                        "{}: `{}` is said to be probed by {name}, whose program never {missing}",
                        exercise.name, allowed.item
                    ));
                }
            }
        }
    }
    assert!(
        checked >= 40,
        "only {checked} probes checked: are the allow lists still read?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The cases an allow-list reason says probe its item (`step/name` words
/// after "probed by"), or `None` when it names no probe.
fn probe_cases(why: &str) -> Option<Vec<&str>> {
    let (_, probes) = why.split_once("probed by ")?;
    Some(
        probes
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '/'))
            .filter(|word| word.contains('/'))
            .collect(),
    )
}

/// Whether `word` is one of the API's canonical generic parameters: `T0`,
/// `T1`, ... for types and `C0`, ... for constants.
fn is_generic_param(word: &str) -> bool {
    let rest = word.trim_start_matches(['T', 'C']);
    word.len() > 1 && !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit())
}

/// What of `item` (an API line) `source` does not use, in words; `None`
/// when it names the item's type and uses it.
fn unused_item(item: &str, source: &str) -> Option<String> {
    let name_of = |text: &str| -> String {
        text.trim_start_matches(['&', '(', '['])
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    if let Some(rest) = item.strip_prefix("fn ") {
        let path = rest.split('(').next().unwrap_or_default();
        let method = path.rsplit("::").next().unwrap_or_default();
        let method = method.split('<').next().unwrap_or_default();
        let called = [format!(".{method}("), format!("::{method}(")];
        return (!called.iter().any(|call| source.contains(call.as_str())))
            .then(|| format!("calls `{method}`"));
    }
    let rest = item
        .strip_prefix("unsafe ")
        .unwrap_or(item)
        .strip_prefix("impl ")?;
    let (tr, ty) = rest.split_once(" for ")?;
    let trait_name = name_of(tr);
    let type_name = name_of(ty);
    // A lock order's edges are probed with the case's own levels, written by
    // the same macro: the macro's use is the evidence, not the level's name.
    if trait_name == "LockAfter" {
        return (!source.contains("impl_lock_after!"))
            .then(|| "calls `impl_lock_after!`".to_owned());
    }
    if !type_name.is_empty()
        && !is_generic_param(&type_name)
        && !source.contains(type_name.as_str())
    {
        return Some(format!("names `{type_name}`"));
    }
    let uses: &[&str] = match trait_name.as_str() {
        "Debug" => &["{:?}", "{:#?}", "Debug"],
        "Default" => &["default()", "Default"],
        "From" => &["::from(", ".into()", "From<"],
        "Extend" => &[".extend("],
        "FromStr" => &[".parse", "from_str"],
        "TryFrom" => &["try_from", "try_into", "TryFrom"],
        _ => return None,
    };
    (!uses.iter().any(|used| source.contains(used)))
        .then(|| format!("uses `{trait_name}` (none of {uses:?})"))
}

/// Allow-list entries said to be probed by a case, for which no wrong
/// variant yet shows the probe catching a wrong impl. Each is owed one: a
/// variant that adds a wrong version of the impl and fails the probe.
/// `every_probe_is_proved_by_a_wrong_variant` fails when an entry not on
/// this list lacks such a variant, and when one on it has gained one (take
/// it off), so the list only shrinks.
const PROBES_OWED_A_VARIANT: &[(&str, &str)] = &[];

/// The trait and the type an allow-list impl line is about, without
/// paths or generics: `("Debug", "OrderedMutex")` for `impl Debug for
/// OrderedMutex<T0, T1> where ...`.
fn impl_of(item: &str) -> Option<(String, String)> {
    let rest = item.strip_prefix("unsafe ").unwrap_or(item);
    let rest = rest.strip_prefix("impl ")?;
    let (trait_part, type_part) = rest.split_once(" for ")?;
    let last_name = |text: &str| -> String {
        let text = text.split('<').next().unwrap_or_default();
        text.rsplit("::")
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned()
    };
    let type_name = type_part
        .trim_start_matches(['&', '('])
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .next()
        .unwrap_or_default();
    Some((last_name(trait_part), last_name(type_name)))
}

/// Whether `text` (a variant's replacement) writes an impl of `trait_name`
/// for `type_name`, with or without paths and generics.
fn writes_impl(text: &str, trait_name: &str, type_name: &str) -> bool {
    text.lines().any(|line| {
        let Some(at) = line.find("impl") else {
            return false;
        };
        let line = &line[at..];
        let Some((head, tail)) = line.split_once(" for ") else {
            return false;
        };
        let names_trait = head
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word == trait_name);
        let names_type = tail
            .trim_start_matches(['&', '('])
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .next()
            .is_some_and(|path| path.rsplit("::").next() == Some(type_name));
        names_trait && names_type
    })
}

/// Whether a case that probes, type by type, which types are `Sendable`
/// (`sendable_probes!`) lists an instance of `type_name` that must not be:
/// one holding an `Rc<u8>`, and, when the allowed impl also bounds its
/// parameter by `Sync`, one holding a `Cell<u8>`. Such a case refuses any
/// impl of the type that drops those bounds, by the same probe that the
/// send-marker variant `container-without-bound` (a loose impl) shows
/// failing.
fn probes_an_unsendable_instance(case: &str, type_name: &str, needs_sync: bool) -> bool {
    if !case.contains("sendable_probes!") {
        return false;
    }
    let instances: Vec<&str> = case
        .match_indices(&format!("{type_name}<"))
        .filter(|(at, _)| {
            case[..*at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        })
        .map(|(at, _)| {
            let rest = &case[at..];
            let end = rest
                .find(", ")
                .or_else(|| rest.find('\n'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect();
    instances.iter().any(|instance| instance.contains("Rc<u8>"))
        && (!needs_sync
            || instances
                .iter()
                .any(|instance| instance.contains("Cell<u8>")))
}

/// Every allow-list impl said to be "probed by" a case is shown to be: a
/// wrong variant of the reference adds (or replaces) that impl, and lists
/// the probe among the cases it fails, which `honest_grading` then proves
/// on every toolchain; or, for a `Sendable` impl, the probe is a
/// `sendable_probes!` list that names an instance the impl must refuse
/// (see [`probes_an_unsendable_instance`]). Entries still owed a variant are listed in
/// [`PROBES_OWED_A_VARIANT`]; the list may only shrink.
#[test]
fn every_probe_is_proved_by_a_wrong_variant() {
    let mut problems = Vec::new();
    let mut proved = 0;
    let mut owed_seen = Vec::new();
    for exercise in exercises() {
        let grading = exercise.starter.join("grading");
        let manifest = Manifest::load(&grading).unwrap_or_else(|err| panic!("{err}"));
        let variants = exercise.variants();
        for allowed in &manifest.surface.allow {
            let Some(cases) = probe_cases(&allowed.why) else {
                continue;
            };
            let Some((trait_name, type_name)) = impl_of(&allowed.item) else {
                continue;
            };
            let shown = variants.iter().any(|variant| {
                variant
                    .edits
                    .iter()
                    .any(|edit| writes_impl(&edit.replace, &trait_name, &type_name))
                    && variant
                        .fails
                        .iter()
                        .chain(&variant.may_fail)
                        .any(|failed| cases.contains(&failed.as_str()))
            });
            let probed_by_list = trait_name == "Sendable"
                && cases.iter().any(|name| {
                    manifest.cases.iter().any(|case| {
                        case.name() == *name
                            && probes_an_unsendable_instance(
                                &std::fs::read_to_string(manifest.case_path(case))
                                    .unwrap_or_default(),
                                &type_name,
                                allowed.item.contains(": Sync"),
                            )
                    })
                });
            let shown = shown || probed_by_list;
            let key = format!("{trait_name} for {type_name}");
            let owed = PROBES_OWED_A_VARIANT
                .iter()
                .any(|(name, entry)| *name == exercise.name && *entry == key);
            if owed {
                owed_seen.push((exercise.name.clone(), key.clone()));
            }
            match (shown, owed) {
                (true, true) => problems.push(format!(
                    "{}: `{key}` is now shown to be probed (by a wrong variant, or by a probe list naming an instance that must not be Sendable): take it off PROBES_OWED_A_VARIANT",
                    exercise.name
                )),
                (false, false) => problems.push(format!(
                    "{}: `{}` is said to be probed by {cases:?}, but no wrong variant adds a `{key}` and fails that case: write one in solutions/{}/variants.toml",
                    exercise.name, allowed.item, exercise.name
                )),
                (true, false) => proved += 1,
                (false, true) => {}
            }
        }
    }
    // A listed entry that is no longer on any allow list is stale too
    // (when every exercise is read).
    if std::env::var_os("XSAFE_EXERCISES").is_none() {
        for (name, entry) in PROBES_OWED_A_VARIANT {
            if !owed_seen
                .iter()
                .any(|(seen, key)| seen == name && key == entry)
            {
                problems.push(format!(
                    "{name}: `{entry}` is on PROBES_OWED_A_VARIANT but no allow-list entry of it names a probe"
                ));
            }
        }
        assert!(
            proved >= 6,
            "only {proved} probes shown by a variant: are the variants still read?"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
