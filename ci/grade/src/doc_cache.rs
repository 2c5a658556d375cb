//! The learner's tool runs rustdoc only when the crate's items may have
//! changed.
//!
//! Invariant: two crates with the same [`items_key`] have the same rustdoc
//! JSON in every field the surface reads (items, signatures, impls, docs;
//! the surface reads no source positions). The key hashes every file of
//! the crate's folder byte for byte, except the library's sources
//! (`src/**.rs`), where the statements of each function body are left
//! out; a body's own items (an `impl` or a `struct` inside a `fn`) and
//! every macro call in it (which could expand to items) stay in the key,
//! except a call of one of the standard library's expression macros
//! (`todo!`, `assert!`, `format!`, ...; [`EXPRESSION_MACROS`]) whose
//! arguments hold no item keyword, attribute or macro call, in a crate
//! that cannot have another macro of that name: it defines no
//! `macro_rules!`, has no `#[macro_use]` and no `extern crate`, imports no
//! name of that list and no glob from outside the crate and the standard
//! library. Such a call expands to an expression or a statement, which
//! rustdoc does not document.
//! Where that could miss a change, nothing is left out: a source file syn
//! cannot read as a file of items counts byte for byte (and then every
//! macro call of every file stays in the key), and a folder with a
//! procedural macro (whose bodies write items), a link or a file that
//! cannot be read gives no key, so rustdoc runs.
//!
//! Only [`crate::Freshness::Kept`] grades use it: the learner grades their
//! own code, and a re-grade after an edit inside a body (most edits while
//! doing an exercise) skips rustdoc, about 0.4 s of CPU on two cores. The
//! instructor's grader runs rustdoc on every submission.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// The key of the crate in `crate_dir` in `context` (the toolchain's
/// version and the files of the workspace that builds it, byte for byte),
/// or `None` when a file cannot be read, a link is found, or the folder
/// holds a procedural macro.
pub fn items_key(crate_dir: &Path, context: &[u8]) -> Option<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in walkdir::WalkDir::new(crate_dir).follow_links(false) {
        let entry = entry.ok()?;
        if entry.path_is_symlink() {
            return None;
        }
        if entry.file_type().is_file() {
            files.push(entry.path().to_path_buf());
        }
    }
    files.sort();
    // Each file read once, and each of the library's sources parsed once:
    // whether its expression macros can be another crate's depends on
    // every source, and each is reduced with that answer.
    let mut read: Vec<(PathBuf, Vec<u8>, Option<Option<syn::File>>)> = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file).ok()?;
        let name = file
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        if name == "Cargo.toml" && String::from_utf8_lossy(&bytes).contains("proc-macro") {
            return None;
        }
        let relative = file.strip_prefix(crate_dir).unwrap_or(&file).to_path_buf();
        // Only the library's sources are read as Rust: any other file
        // (the course's cases, a script) counts byte for byte, which costs
        // no parsing and can only make the key change more often.
        let parsed = (relative.starts_with("src") && name.ends_with(".rs"))
            .then(|| syn::parse_file(&String::from_utf8_lossy(&bytes)).ok());
        read.push((relative, bytes, parsed));
    }
    let expression_macros_are_std = read.iter().all(|(_, _, parsed)| match parsed {
        Some(parsed) => parsed
            .as_ref()
            .is_some_and(|file| !can_name_another_macro(file)),
        None => true,
    });
    let mut hasher = Sha256::new();
    hasher.update(context);
    hasher.update([0]);
    for (relative, bytes, parsed) in read {
        hasher.update(relative.to_string_lossy().as_bytes());
        hasher.update([0]);
        match parsed.flatten() {
            Some(file) => {
                hasher.update(b"reduced\0");
                hasher.update(without_body_statements(file, expression_macros_are_std).as_bytes());
            }
            None => {
                hasher.update(b"bytes\0");
                hasher.update(&bytes);
            }
        }
        hasher.update([0]);
    }
    Some(format!("{:x}", hasher.finalize()))
}

/// The standard library's macros whose call is an expression or a
/// statement: one adds an item only through its own arguments.
const EXPRESSION_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "print",
    "println",
    "eprint",
    "eprintln",
    "format",
    "format_args",
    "write",
    "writeln",
    "vec",
    "matches",
    "dbg",
];

/// The keywords that begin an item.
const ITEM_KEYWORDS: &[&str] = &[
    "impl",
    "struct",
    "enum",
    "union",
    "trait",
    "fn",
    "mod",
    "static",
    "const",
    "macro_rules",
    "macro",
    "extern",
    "use",
    "type",
];

/// Whether the crate's file `file` could give one of
/// [`EXPRESSION_MACROS`]' names to a macro of its own: it defines a
/// `macro_rules!`, uses `#[macro_use]` or `extern crate`, or imports such
/// a name, or a glob from outside the crate and the standard library.
fn can_name_another_macro(file: &syn::File) -> bool {
    #[derive(Default)]
    struct Finds(bool);
    impl<'ast> Visit<'ast> for Finds {
        fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
            self.0 |= item.mac.path.is_ident("macro_rules");
            syn::visit::visit_item_macro(self, item);
        }
        fn visit_item_extern_crate(&mut self, _: &'ast syn::ItemExternCrate) {
            self.0 = true;
        }
        fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
            self.0 |= attr.path().is_ident("macro_use");
        }
        fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
            self.0 |= imports_a_macro_name(&item.tree, true);
        }
        fn visit_item(&mut self, item: &'ast syn::Item) {
            // An item syn keeps as tokens (a `macro` of the 2.0 kind).
            self.0 |= matches!(item, syn::Item::Verbatim(_));
            syn::visit::visit_item(self, item);
        }
    }
    let mut finds = Finds::default();
    finds.visit_file(file);
    finds.0
}

/// Whether `tree` imports a name of [`EXPRESSION_MACROS`], or a glob from
/// outside the crate and the standard library (`first`: the tree starts
/// the path).
fn imports_a_macro_name(tree: &syn::UseTree, first: bool) -> bool {
    let ours = |ident: &syn::Ident| {
        ["crate", "self", "super", "std", "core", "alloc"].contains(&ident.to_string().as_str())
    };
    match tree {
        syn::UseTree::Path(path) => {
            if first && !ours(&path.ident) {
                // `dep::...`: a glob of it could hold any name.
                return contains_glob(&path.tree) || imports_a_macro_name(&path.tree, false);
            }
            imports_a_macro_name(&path.tree, false)
        }
        syn::UseTree::Name(name) => EXPRESSION_MACROS.contains(&name.ident.to_string().as_str()),
        syn::UseTree::Rename(rename) => {
            EXPRESSION_MACROS.contains(&rename.rename.to_string().as_str())
        }
        syn::UseTree::Glob(_) => first,
        syn::UseTree::Group(group) => group
            .items
            .iter()
            .any(|tree| imports_a_macro_name(tree, first)),
    }
}

fn contains_glob(tree: &syn::UseTree) -> bool {
    match tree {
        syn::UseTree::Path(path) => contains_glob(&path.tree),
        syn::UseTree::Glob(_) => true,
        syn::UseTree::Group(group) => group.items.iter().any(contains_glob),
        syn::UseTree::Name(_) | syn::UseTree::Rename(_) => false,
    }
}

/// Whether `mac` is a call of one of [`EXPRESSION_MACROS`] whose
/// arguments hold no item keyword, attribute or macro call: it expands to
/// an expression or a statement, and adds no item.
fn adds_no_item(mac: &syn::Macro) -> bool {
    let Some(name) = mac.path.get_ident() else {
        return false;
    };
    EXPRESSION_MACROS.contains(&name.to_string().as_str()) && !could_add_items(mac.tokens.clone())
}

/// Whether `tokens` hold an item keyword, an attribute (`#`) or a macro
/// call (a name, `!`, then a group), at any depth.
fn could_add_items(tokens: proc_macro2::TokenStream) -> bool {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    trees.iter().enumerate().any(|(at, tree)| match tree {
        TokenTree::Ident(ident) => ITEM_KEYWORDS.contains(&ident.to_string().as_str()),
        TokenTree::Punct(punct) if punct.as_char() == '#' => true,
        TokenTree::Punct(punct) if punct.as_char() == '!' => {
            at > 0
                && matches!(trees[at - 1], TokenTree::Ident(_))
                && matches!(trees.get(at + 1), Some(TokenTree::Group(_)))
        }
        TokenTree::Group(group) => could_add_items(group.stream()),
        _ => false,
    })
}

/// The file's tokens with every function body replaced by the items and
/// macro calls it holds (but the calls that add no item, when
/// `expression_macros_are_std`).
fn without_body_statements(mut file: syn::File, expression_macros_are_std: bool) -> String {
    BodiesToItems {
        expression_macros_are_std,
    }
    .visit_file_mut(&mut file);
    quote::quote!(#file).to_string()
}

/// Replaces each function body by what in it could still add an item.
struct BodiesToItems {
    /// The crate's expression macros are the standard library's (see
    /// [`can_name_another_macro`]).
    expression_macros_are_std: bool,
}

impl BodiesToItems {
    fn reduce(&mut self, block: &mut syn::Block) {
        let mut kept = ItemsAndMacros::default();
        kept.visit_block(block);
        let mut statements: Vec<syn::Stmt> = kept.items.into_iter().map(syn::Stmt::Item).collect();
        let std_macros = self.expression_macros_are_std;
        kept.macros.retain(|mac| !(std_macros && adds_no_item(mac)));
        statements.extend(kept.macros.into_iter().map(|mac| {
            syn::Stmt::Macro(syn::StmtMacro {
                attrs: Vec::new(),
                mac,
                semi_token: Some(Default::default()),
            })
        }));
        for statement in &mut statements {
            if let syn::Stmt::Item(item) = statement {
                self.visit_item_mut(item);
            }
        }
        block.stmts = statements;
    }
}

impl VisitMut for BodiesToItems {
    fn visit_item_fn_mut(&mut self, item: &mut syn::ItemFn) {
        for attr in &mut item.attrs {
            self.visit_attribute_mut(attr);
        }
        self.visit_signature_mut(&mut item.sig);
        self.reduce(&mut item.block);
    }

    fn visit_impl_item_fn_mut(&mut self, item: &mut syn::ImplItemFn) {
        self.visit_signature_mut(&mut item.sig);
        self.reduce(&mut item.block);
    }

    fn visit_trait_item_fn_mut(&mut self, item: &mut syn::TraitItemFn) {
        self.visit_signature_mut(&mut item.sig);
        if let Some(block) = &mut item.default {
            self.reduce(block);
        }
    }
}

/// Every item and macro call inside a body, however deep (in blocks,
/// closures, nested expressions); an item's own insides are its own.
#[derive(Default)]
struct ItemsAndMacros {
    items: Vec<syn::Item>,
    macros: Vec<syn::Macro>,
}

impl<'ast> Visit<'ast> for ItemsAndMacros {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        self.items.push(item.clone());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.macros.push(mac.clone());
    }
}

/// Where the last rustdoc JSON is kept, named by its key, in `work`.
fn cached(work: &Path, key: &str) -> PathBuf {
    work.join("doc-cache").join(format!("{key}.json"))
}

/// The rustdoc JSON last written for `key`, if it is still kept.
pub fn load(work: &Path, key: &str) -> Option<Vec<u8>> {
    std::fs::read(cached(work, key)).ok()
}

/// Keeps `json` as the rustdoc JSON for `key`, in place of any other. A
/// failure to keep it only costs the next grade a rustdoc run.
pub fn store(work: &Path, key: &str, json: &[u8]) {
    let dir = work.join("doc-cache");
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(cached(work, key), json);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(files: &[(&str, &str)]) -> Option<String> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "xsafe-doc-cache-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().expect("a file has a folder"))
                .expect("the test's folder can be made");
            std::fs::write(&path, text).expect("the test's file can be written");
        }
        let key = items_key(&dir, b"rustc test");
        let _ = std::fs::remove_dir_all(&dir);
        key
    }

    const TOML: &str = "[package]\nname = \"x\"\n";

    #[test]
    fn an_edit_inside_a_body_keeps_the_key() {
        let before = key_of(&[
            ("Cargo.toml", TOML),
            ("src/lib.rs", "pub fn f() -> u8 { let a = 1; a + 1 }\n"),
        ]);
        let after = key_of(&[
            ("Cargo.toml", TOML),
            ("src/lib.rs", "pub fn f() -> u8 {\n    // done\n    2\n}\n"),
        ]);
        assert!(before.is_some());
        assert_eq!(before, after);
    }

    #[test]
    fn what_can_change_the_items_changes_the_key() {
        let base = key_of(&[
            ("Cargo.toml", TOML),
            (
                "src/lib.rs",
                "pub struct S;\nimpl S { pub fn f(&self) -> u8 { 1 } }\n",
            ),
        ]);
        assert!(base.is_some());
        for other in [
            // another signature
            "pub struct S;\nimpl S { pub fn f(&self) -> u16 { 1 } }\n",
            // an impl inside a body is an impl of the crate
            "pub struct S;\nimpl S { pub fn f(&self) -> u8 { impl Clone for S { fn clone(&self) -> S { S } } 1 } }\n",
            // so is one deep in a closure
            "pub struct S;\nimpl S { pub fn f(&self) -> u8 { let g = || { struct T; }; g(); 1 } }\n",
            // a macro call in a body may expand to items
            "pub struct S;\nimpl S { pub fn f(&self) -> u8 { m!(); 1 } }\n",
            // a doc comment
            "pub struct S;\nimpl S { /// One.\n pub fn f(&self) -> u8 { 1 } }\n",
        ] {
            let changed = key_of(&[("Cargo.toml", TOML), ("src/lib.rs", other)]);
            assert_ne!(base, changed, "{other}");
        }
    }

    #[test]
    fn a_standard_expression_macro_in_a_body_is_left_out() {
        let lib = |body: &str| {
            key_of(&[
                ("Cargo.toml", TOML),
                (
                    "src/lib.rs",
                    &format!("pub fn f(x: u8) -> u8 {{ {body} }}\n"),
                ),
            ])
        };
        let todo = lib("todo!(\"f\")");
        assert!(todo.is_some());
        // The learner's usual edits: a message, a condition, the macro
        // written out or gone.
        for other in [
            "todo!(\"f, soon\")",
            "assert!(x < 3, \"small\"); x",
            "assert_ne!(x, 1); println!(\"{x}\"); vec![x].len() as u8",
            "if x != 0 { x } else { unreachable!() }",
            "x + 1",
        ] {
            assert_eq!(todo, lib(other), "{other}");
        }
    }

    #[test]
    fn an_expression_macro_that_could_add_an_item_stays_in_the_key() {
        let lib = |top: &str, body: &str| {
            key_of(&[
                ("Cargo.toml", TOML),
                (
                    "src/lib.rs",
                    &format!("{top}\npub fn f(x: u8) -> u8 {{ {body} }}\n"),
                ),
            ])
        };
        // Arguments that hold an item, an attribute or another macro call.
        for (before, after) in [
            (
                "assert!({ true }); x",
                "assert!({ impl Clone for S { fn clone(&self) -> S { S } } true }); x",
            ),
            ("assert!(m!()); x", "assert!(m!(1)); x"),
            ("assert!(true); x", "assert!(#[cfg(all())] true); x"),
        ] {
            assert_ne!(lib("", before), lib("", after), "{after}");
        }
        // A crate that can have a macro of its own by that name.
        for top in [
            "macro_rules! todo { () => { pub struct T; } }",
            "use dep::*;",
            "use dep::todo;",
            "use dep::{thing as todo};",
            "#[macro_use] extern crate dep;",
        ] {
            assert_ne!(
                lib(top, "todo!(\"f\")"),
                lib(top, "todo!(\"f, soon\")"),
                "{top}"
            );
        }
        // Imports from the standard library or the crate itself are fine.
        for top in ["use std::collections::*;", "use crate::inner::*;"] {
            assert_eq!(
                lib(top, "todo!(\"f\")"),
                lib(top, "todo!(\"f, soon\")"),
                "{top}"
            );
        }
    }

    #[test]
    fn a_procedural_macro_or_a_build_script_is_never_reduced() {
        let proc_macro = key_of(&[
            ("Cargo.toml", TOML),
            ("derive/Cargo.toml", "[lib]\nproc-macro = true\n"),
            ("src/lib.rs", "pub fn f() {}\n"),
        ]);
        assert_eq!(proc_macro, None);
        let script = |body: &str| {
            key_of(&[
                ("Cargo.toml", TOML),
                ("build.rs", &format!("fn main() {{ {body} }}\n")),
                ("src/lib.rs", "pub fn f() {}\n"),
            ])
        };
        assert_ne!(script("let a = 1;"), script("let a = 2;"));
    }

    #[test]
    fn a_file_syn_cannot_read_counts_byte_for_byte() {
        let a = key_of(&[("Cargo.toml", TOML), ("src/lib.rs", "pub fn f( { 1 }\n")]);
        let b = key_of(&[("Cargo.toml", TOML), ("src/lib.rs", "pub fn f( { 2 }\n")]);
        assert!(a.is_some());
        assert_ne!(a, b);
    }
}
