//! What a chapter shows of its exercise's crate is what the crate has.
//!
//! A chapter rewrites parts of its crate as small self-contained examples,
//! and names its items in prose. Nothing compiles those examples against
//! the crate, so a renamed variant or a changed field type would go
//! unnoticed. This test reads the reference solution of each chapter's
//! exercise (`solutions/NAME`, the chapter named by the exercise's
//! manifest) and every Rust block of the chapter, hidden lines included,
//! and requires:
//!
//! * an enum a block declares under a name the crate uses for an enum has
//!   only variants the crate's has;
//! * a struct a block declares under a crate struct's name has public
//!   fields only as the crate's, with the same types;
//! * a trait a block declares under a crate trait's name is `unsafe`
//!   exactly when the crate's is, and in a block that must compile, an
//!   impl of it is `unsafe` exactly when the crate's trait is;
//! * an inline `Type::Name` in prose, where `Type` is one of the crate's
//!   types or traits, names one of its variants, associated items or
//!   methods (in the crate, or in a block of the chapter that defines it);
//! * an inline signature in prose, `fn name(...) -> ...`, has the
//!   parameter and return types of a function of that name in the crate or
//!   in one of the chapter's blocks.

#[path = "../src/blocks.rs"]
#[allow(dead_code)]
mod blocks;

use blocks::{blocks, Check};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What the test knows of a set of Rust files.
#[derive(Default, Debug)]
struct Items {
    enums: BTreeMap<String, BTreeSet<String>>,
    /// Public fields of each struct, with their types.
    structs: BTreeMap<String, BTreeMap<String, String>>,
    /// Whether each trait is `unsafe`.
    traits: BTreeMap<String, bool>,
    /// Associated items and methods by type or trait name.
    assoc: BTreeMap<String, BTreeSet<String>>,
    /// Signatures by function name: parameter types and return type.
    fns: BTreeMap<String, BTreeSet<String>>,
    /// `unsafe impl` or not, by trait name, as `(trait, unsafe, line)`.
    impls: Vec<(String, bool)>,
}

fn text(tokens: impl ToTokens) -> String {
    tokens.to_token_stream().to_string().replace(' ', "")
}

fn signature(sig: &syn::Signature) -> String {
    let inputs: Vec<String> = sig
        .inputs
        .iter()
        .map(|input| match input {
            syn::FnArg::Receiver(receiver) => text(receiver),
            syn::FnArg::Typed(typed) => text(&typed.ty),
        })
        .collect();
    format!("({}){}", inputs.join(","), text(&sig.output))
}

fn last_name(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|segment| segment.ident.to_string())
        .unwrap_or_default()
}

fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => Some(last_name(&path.path)),
        _ => None,
    }
}

impl Items {
    fn add(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Enum(item) => {
                    let variants = item.variants.iter().map(|v| v.ident.to_string());
                    let name = item.ident.to_string();
                    self.assoc
                        .entry(name.clone())
                        .or_default()
                        .extend(variants.clone());
                    self.enums.entry(name).or_default().extend(variants);
                }
                syn::Item::Struct(item) => {
                    let fields = self.structs.entry(item.ident.to_string()).or_default();
                    for field in &item.fields {
                        if let (Some(name), syn::Visibility::Public(_)) = (&field.ident, &field.vis)
                        {
                            fields.insert(name.to_string(), text(&field.ty));
                        }
                    }
                }
                syn::Item::Trait(item) => {
                    let name = item.ident.to_string();
                    self.traits.insert(name.clone(), item.unsafety.is_some());
                    for inner in &item.items {
                        let assoc = match inner {
                            syn::TraitItem::Fn(f) => {
                                self.fns
                                    .entry(f.sig.ident.to_string())
                                    .or_default()
                                    .insert(signature(&f.sig));
                                f.sig.ident.to_string()
                            }
                            syn::TraitItem::Const(c) => c.ident.to_string(),
                            syn::TraitItem::Type(t) => t.ident.to_string(),
                            _ => continue,
                        };
                        self.assoc.entry(name.clone()).or_default().insert(assoc);
                    }
                }
                syn::Item::Impl(item) => {
                    let Some(self_name) = type_name(&item.self_ty) else {
                        continue;
                    };
                    if let Some((_, path, _)) = &item.trait_ {
                        self.impls.push((last_name(path), item.unsafety.is_some()));
                    }
                    for inner in &item.items {
                        let assoc = match inner {
                            syn::ImplItem::Fn(f) => {
                                self.fns
                                    .entry(f.sig.ident.to_string())
                                    .or_default()
                                    .insert(signature(&f.sig));
                                f.sig.ident.to_string()
                            }
                            syn::ImplItem::Const(c) => c.ident.to_string(),
                            syn::ImplItem::Type(t) => t.ident.to_string(),
                            _ => continue,
                        };
                        self.assoc
                            .entry(self_name.clone())
                            .or_default()
                            .insert(assoc);
                    }
                }
                syn::Item::Fn(item) => {
                    self.fns
                        .entry(item.sig.ident.to_string())
                        .or_default()
                        .insert(signature(&item.sig));
                }
                syn::Item::Mod(item) => {
                    if let Some((_, inner)) = &item.content {
                        self.add(inner);
                    }
                }
                syn::Item::Const(item) => {
                    // `const _: () = { impl ... };`, as derives write.
                    if let syn::Expr::Block(block) = &*item.expr {
                        let inner: Vec<syn::Item> = block
                            .block
                            .stmts
                            .iter()
                            .filter_map(|stmt| match stmt {
                                syn::Stmt::Item(item) => Some(item.clone()),
                                _ => None,
                            })
                            .collect();
                        self.add(&inner);
                    }
                }
                _ => {}
            }
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Each chapter with an exercise, and the exercise's name.
fn chapters() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root().join("exercises"))
        .expect("exercises")
        .flatten()
    {
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("grading/manifest.toml"))
        else {
            continue;
        };
        let chapter = manifest.lines().find_map(|line| {
            line.trim()
                .strip_prefix("chapter = \"")
                .map(|rest| rest.trim_end_matches('"').to_owned())
        });
        if let Some(chapter) = chapter {
            found.push((chapter, entry.file_name().to_string_lossy().into_owned()));
        }
    }
    found.sort();
    found
}

fn crate_items(exercise: &str) -> Items {
    let mut items = Items::default();
    let mut stack = vec![root().join("solutions").join(exercise).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let source = std::fs::read_to_string(&path).expect("a source file");
                let file = syn::parse_file(&source)
                    .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
                items.add(&file.items);
            }
        }
    }
    items
}

/// A block's code as rustdoc compiles it: hidden lines shown.
fn unhidden(code: &str) -> String {
    code.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed == "#" {
                ""
            } else if let Some(rest) = trimmed.strip_prefix("# ") {
                rest
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The inline code spans of a chapter's prose (not of its blocks).
fn inline_code(chapter: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser};
    Parser::new(chapter)
        .filter_map(|event| match event {
            Event::Code(code) => Some(code.into_string()),
            _ => None,
        })
        .collect()
}

/// Everything a chapter shows that its crate contradicts.
fn contradictions(chapter: &str, krate: &Items) -> Vec<String> {
    let mut problems = Vec::new();
    let mut shown = Items::default();
    for block in blocks(chapter) {
        let must_compile = match &block.check {
            Check::Standalone | Check::WithCourseCrates | Check::WithDependencies => true,
            Check::CompileFail(_) => false,
            _ => continue,
        };
        let Ok(file) = syn::parse_file(&unhidden(&block.code)) else {
            continue;
        };
        let mut items = Items::default();
        items.add(&file.items);
        let at = format!("the block at line {}", block.line);
        for (name, variants) in &items.enums {
            if let Some(real) = krate.enums.get(name) {
                for variant in variants.difference(real) {
                    problems.push(format!(
                        "{at}: `{name}::{variant}`, but the crate's `{name}` has {real:?}"
                    ));
                }
            }
        }
        for (name, fields) in &items.structs {
            if let Some(real) = krate.structs.get(name) {
                // A block may show a "before" version with public fields
                // where the crate keeps them private; where the crate's
                // fields are public, the block's must be the same.
                for (field, ty) in fields {
                    if !real.is_empty() && real.get(field) != Some(ty) {
                        problems.push(format!(
                            "{at}: `{name}` has `pub {field}: {ty}`, but the crate's public fields are {real:?}"
                        ));
                    }
                }
            }
        }
        for (name, is_unsafe) in &items.traits {
            if krate.traits.get(name).is_some_and(|real| real != is_unsafe) {
                let real = &krate.traits[name];
                problems.push(format!(
                    "{at}: `{name}` is declared {}, but the crate's is {}",
                    if *is_unsafe { "`unsafe`" } else { "safe" },
                    if *real { "`unsafe`" } else { "safe" }
                ));
            }
        }
        if must_compile {
            for (name, is_unsafe) in &items.impls {
                let local = items.traits.get(name);
                if let Some(real) = local
                    .or(krate.traits.get(name))
                    .filter(|real| *real != is_unsafe)
                {
                    problems.push(format!(
                        "{at}: an {}impl of `{name}`, whose trait is {}",
                        if *is_unsafe { "`unsafe` " } else { "" },
                        if *real { "`unsafe`" } else { "safe" }
                    ));
                }
            }
        }
        for (name, assoc) in items.assoc {
            shown.assoc.entry(name).or_default().extend(assoc);
        }
        for (name, sigs) in items.fns {
            shown.fns.entry(name).or_default().extend(sigs);
        }
    }
    // The API rule lists what a learner may add, which the reference
    // solution need not have.
    let prose: String = chapter
        .split("\n\n")
        .filter(|paragraph| !paragraph.starts_with("**API rule:**"))
        .collect::<Vec<_>>()
        .join("\n\n");
    for code in inline_code(&prose) {
        // `fn name(...) -> ...`, as a signature.
        if let (Some(rest), Ok(sig)) = (
            code.strip_prefix("fn "),
            syn::parse_str::<syn::Signature>(&code),
        ) {
            let name = sig.ident.to_string();
            let wanted = signature(&sig);
            let known: Vec<&String> = krate
                .fns
                .get(&name)
                .into_iter()
                .chain(shown.fns.get(&name))
                .flatten()
                .collect();
            // A signature of a function nothing defines is a hypothetical
            // one, which the prose introduces as such.
            if !known.is_empty() && !known.contains(&&wanted) {
                problems.push(format!(
                    "the signature `{code}` matches no `{}` of the crate or of the chapter's blocks ({known:?})",
                    rest.split('(').next().unwrap_or(rest)
                ));
            }
            continue;
        }
        // `Type::name`, `Type::name(...)`.
        let path = code.split(['(', '<', ' ', '{']).next().unwrap_or("");
        let mut parts = path.split("::");
        let (Some(owner), Some(member), None) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let owner_known = krate.enums.contains_key(owner)
            || krate.structs.contains_key(owner)
            || krate.traits.contains_key(owner);
        if !owner_known || member.is_empty() {
            continue;
        }
        let has = |items: &Items| {
            items
                .assoc
                .get(owner)
                .is_some_and(|set| set.contains(member))
        };
        // A variant must be the crate's (a block's enum is checked above);
        // a method may be one a block of the chapter defines.
        let shown_counts = !krate.enums.contains_key(owner);
        let known = has(krate) || (shown_counts && has(&shown));
        if !known {
            problems.push(format!(
                "`{code}`: the crate's `{owner}` has no `{member}` (it has {:?})",
                krate.assoc.get(owner).cloned().unwrap_or_default()
            ));
        }
    }
    problems
}

#[test]
fn chapters_agree_with_their_crates() {
    let mut problems = Vec::new();
    let chapters = chapters();
    assert!(chapters.len() >= 6, "{chapters:?}");
    for (chapter, exercise) in chapters {
        let path = root().join("book/src").join(&chapter);
        let text = std::fs::read_to_string(&path).expect("a chapter");
        let krate = crate_items(&exercise);
        for problem in contradictions(&text, &krate) {
            problems.push(format!("book/src/{chapter}: {problem}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each rule catches the kind of fault it is for: issue 31's errors 2
/// and 3, written back into small chapters.
#[test]
fn each_kind_of_contradiction_is_caught() {
    let mut krate = Items::default();
    krate.add(
        &syn::parse_file(
            "pub enum PortError { Empty, InvalidDigit }
             pub struct Endpoint { pub addr: UnicastAddr, pub port: Port }
             pub trait LockBefore<B> {}
             impl Port { pub fn get(self) -> u16 { 0 } }
             pub struct Port;
             pub fn send_to(&mut self, to: Endpoint, payload: &[u8]) -> usize { 0 }",
        )
        .unwrap()
        .items,
    );
    let wrong = "```rust\nenum PortError { Empty, NotANumber }\nstruct Endpoint { pub addr: UnicastAddr, pub port: NonZeroU16 }\n# pub unsafe trait LockBefore<B> {}\nfn main() {}\n```\n\n```rust\n# unsafe impl<A> LockBefore<A> for A {}\nfn main() {}\n```\n\nSee `PortError::NotANumber`, `Port::number` and `fn send_to(&mut self, to: Endpoint) -> usize`.\n";
    let found = contradictions(wrong, &krate);
    for part in [
        "`PortError::NotANumber`, but",
        "`pub port: NonZeroU16`",
        "`LockBefore` is declared `unsafe`",
        "an `unsafe` impl of `LockBefore`",
        "`PortError::NotANumber`: the crate's",
        "`Port::number`",
        "the signature `fn send_to(&mut self, to: Endpoint) -> usize`",
    ] {
        assert!(
            found.iter().any(|problem| problem.contains(part)),
            "{part} not caught in {found:#?}"
        );
    }
    let right = "```rust\nenum PortError { Empty, InvalidDigit }\nfn main() {}\n```\n\n`PortError::InvalidDigit`, `Port::get`, `fn send_to(&mut self, to: Endpoint, payload: &[u8]) -> usize`\n";
    assert_eq!(contradictions(right, &krate), Vec::<String>::new());
}
