//! Equivalent rewrites: correct solutions written mechanically from a
//! reference solution, each the same crate to outside code as the
//! reference, spelled differently; the dual of [`crate::api_mutants`].
//!
//! **Invariant**: every generated rewrite is a correct solution and must
//! score full marks. A rewrite changes only what outside code cannot
//! observe (private names, where a bound is written, whether a lifetime
//! is elided, how impls and modules are cut), or what the exercise's
//! manifest says a solution may omit, add or write another way. The
//! public surface is supposed to be equal for two crates exactly when
//! outside code can use them the same way: a rewrite that compiles and
//! loses marks is a false failure of the grading, never of the rewrite.
//!
//! Each operator rewrites one place (or one name, or one file) of the
//! solution:
//!
//! * `rename-private`: a crate-private type, trait, type alias, function,
//!   method, field or macro gets a new name, everywhere in the crate;
//! * `self-to-name` and `name-to-self`: inside an impl, `Self` in a
//!   signature becomes the impl's type, or the impl's type becomes `Self`;
//! * `explicit-lifetimes` and `elide-lifetimes`: elided lifetimes in a
//!   signature, an impl header or a closure bound are named (by the
//!   elision rules), or named ones are elided where elision means the
//!   same (`for<'a> FnOnce(&Token<'a>)` is `FnOnce(&Token<'_>)`);
//! * `bounds-to-where` and `where-to-bounds`: `<T: Ord>` is
//!   `<T> ... where T: Ord`, and the other way round;
//! * `implied-bounds`: the outlives bounds a signature or an impl's type
//!   already implies (`T: 'a` beside `&'a T`) are written out;
//! * `split-impl` and `merge-impls`: an inherent impl is cut in two, or
//!   two inherent impls of the same header are one;
//! * `move-module`: a private module's items move into a new private
//!   submodule and are used back, or a private module is written inline;
//! * `private-field-shape`: a private field's type is wrapped in a private
//!   newtype (`#[repr(transparent)]`, with a transparent `Debug`), or a
//!   struct with private fields changes between tuple and named fields;
//! * `drop-optional`: an item the manifest lets a solution omit (one of
//!   the reference's that is also allowed, or marked optional) is removed;
//! * `add-allowed`: an allowed extra the reference lacks is derived;
//! * `allowed-replacement`: an item is written in the other form an
//!   allowed item `replaces`.
//!
//! A rewrite that does not compile is unviable: the operator is wrong.

use crate::api_mutants::{collect_items, one_line, range};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use syn::spanned::Spanned;
use syn::visit::Visit;

/// One rewrite: files of the solution with their new text.
#[derive(Debug, Clone)]
pub struct Rewrite {
    /// `OPERATOR FILE:LINE WHAT`, unique within the solution.
    pub name: String,
    /// The operator.
    pub operator: &'static str,
    /// The changed files, relative to the solution's crate, each with its
    /// whole new text.
    pub files: Vec<(PathBuf, String)>,
}

/// Every operator, in the order of the ROUTES.md table.
pub const OPERATORS: &[&str] = &[
    "rename-private",
    "self-to-name",
    "name-to-self",
    "explicit-lifetimes",
    "elide-lifetimes",
    "bounds-to-where",
    "where-to-bounds",
    "implied-bounds",
    "split-impl",
    "merge-impls",
    "move-module",
    "private-field-shape",
    "drop-optional",
    "add-allowed",
    "allowed-replacement",
];

// ---------------------------------------------------------------------------
// The manifest's `[surface]`, read as plain TOML so that new keys (such as
// optional items) need no change here.

/// What the exercise's manifest says of the public surface.
#[derive(Debug, Clone, Default)]
pub struct SurfaceSpec {
    /// `[surface] api`.
    pub api: Vec<String>,
    /// `[surface] allow`: each item with the API lines it replaces.
    pub allow: Vec<(String, Vec<String>)>,
    /// Lines a solution may omit: the API's lines that are also allowed,
    /// and any the manifest marks optional (`optional = [...]` in
    /// `[surface]`, or `optional = true` on an allowed item).
    pub optional: Vec<String>,
}

/// The `[surface]` of `exercises/NAME/grading/manifest.toml`.
pub fn surface_of(starter: &Path) -> Result<SurfaceSpec, String> {
    let path = starter.join("grading/manifest.toml");
    let text =
        std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let doc: toml::Table = text
        .parse()
        .map_err(|err| format!("{}: {err}", path.display()))?;
    let mut spec = SurfaceSpec::default();
    let Some(surface) = doc.get("surface").and_then(toml::Value::as_table) else {
        return Ok(spec);
    };
    let strings = |value: Option<&toml::Value>| -> Vec<String> {
        value
            .and_then(toml::Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| match item {
                        toml::Value::String(line) => Some(line.clone()),
                        toml::Value::Table(table) => table
                            .get("item")
                            .and_then(toml::Value::as_str)
                            .map(str::to_owned),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    spec.api = strings(surface.get("api"));
    let mut optional = strings(surface.get("optional"));
    for allowed in surface
        .get("allow")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(item) = allowed.get("item").and_then(toml::Value::as_str) else {
            continue;
        };
        let replaces = strings(allowed.get("replaces"));
        if allowed.get("optional").and_then(toml::Value::as_bool) == Some(true) {
            optional.push(item.to_owned());
        }
        spec.allow.push((item.to_owned(), replaces));
    }
    for line in &spec.api {
        if spec.allow.iter().any(|(item, _)| item == line) {
            optional.push(line.clone());
        }
    }
    optional.retain(|line| spec.api.contains(line));
    optional.sort();
    optional.dedup();
    spec.optional = optional;
    Ok(spec)
}

// ---------------------------------------------------------------------------
// Sources, tokens and edits.

/// One file of the solution.
struct Source {
    /// Relative to the crate (`src/tree.rs`).
    file: PathBuf,
    text: String,
    syntax: syn::File,
    tokens: Vec<Tok>,
    /// The module path of the file (`[]` for the crate root).
    module: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Ident(String),
    Punct(char),
    Open(char),
    Close(char),
    Literal,
}

#[derive(Debug, Clone)]
struct Tok {
    kind: Kind,
    joint: bool,
    at: Range<usize>,
}

impl Tok {
    fn is_ident(&self, name: &str) -> bool {
        matches!(&self.kind, Kind::Ident(ident) if ident == name)
    }
    fn is_punct(&self, c: char) -> bool {
        self.kind == Kind::Punct(c)
    }
    fn ident(&self) -> Option<&str> {
        match &self.kind {
            Kind::Ident(ident) => Some(ident),
            _ => None,
        }
    }
}

fn tokens_of(text: &str) -> Vec<Tok> {
    fn flatten(text: &str, stream: TokenStream, out: &mut Vec<Tok>) {
        for tree in stream {
            match tree {
                TokenTree::Ident(ident) => out.push(Tok {
                    kind: Kind::Ident(ident.to_string()),
                    joint: false,
                    at: range(text, ident.span()),
                }),
                TokenTree::Punct(punct) => out.push(Tok {
                    kind: Kind::Punct(punct.as_char()),
                    joint: punct.spacing() == proc_macro2::Spacing::Joint,
                    at: range(text, punct.span()),
                }),
                TokenTree::Literal(literal) => out.push(Tok {
                    kind: Kind::Literal,
                    joint: false,
                    at: range(text, literal.span()),
                }),
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ('(', ')'),
                        Delimiter::Brace => ('{', '}'),
                        Delimiter::Bracket => ('[', ']'),
                        Delimiter::None => (' ', ' '),
                    };
                    out.push(Tok {
                        kind: Kind::Open(open),
                        joint: false,
                        at: range(text, group.span_open()),
                    });
                    flatten(text, group.stream(), out);
                    out.push(Tok {
                        kind: Kind::Close(close),
                        joint: false,
                        at: range(text, group.span_close()),
                    });
                }
            }
        }
    }
    let mut out = Vec::new();
    if let Ok(stream) = text.parse::<TokenStream>() {
        flatten(text, stream, &mut out);
    }
    out
}

/// One text edit: a byte range and its replacement.
type Edit = (Range<usize>, String);

/// `text` with `edits` applied. Edits at the same place apply in the
/// order given (the first one's text comes first); overlapping ones are
/// dropped.
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&at| (std::cmp::Reverse(edits[at].0.start), std::cmp::Reverse(at)));
    let mut out = text.to_owned();
    let mut limit = text.len();
    for at in order {
        let (range, replacement) = &edits[at];
        if range.start > range.end || range.end > limit {
            continue;
        }
        out.replace_range(range.clone(), replacement);
        limit = range.start;
    }
    out
}

fn span_text(text: &str, span: Span) -> &str {
    let at = range(text, span);
    text.get(at).unwrap_or("")
}

fn tokens_text(node: &impl ToTokens) -> String {
    node.to_token_stream().to_string()
}

/// The index of the first token starting at or after `offset`.
fn token_at(tokens: &[Tok], offset: usize) -> usize {
    tokens.partition_point(|tok| tok.at.start < offset)
}

/// The index of the token closing the group opened at `open`.
fn group_end(tokens: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (at, tok) in tokens.iter().enumerate().skip(open) {
        match tok.kind {
            Kind::Open(_) => depth += 1,
            Kind::Close(_) => {
                depth -= 1;
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
    }
    tokens.len().saturating_sub(1)
}

/// Whether the tokens at `at` are `::`.
fn is_path_sep(tokens: &[Tok], at: usize) -> bool {
    tokens
        .get(at)
        .is_some_and(|tok| tok.is_punct(':') && tok.joint)
        && tokens.get(at + 1).is_some_and(|tok| tok.is_punct(':'))
}

/// Whether the two tokens before `at` are `::`.
fn after_path_sep(tokens: &[Tok], at: usize) -> bool {
    at >= 2 && is_path_sep(tokens, at - 2)
}

/// Whether the two tokens before `at` are `->`.
fn after_arrow(tokens: &[Tok], at: usize) -> bool {
    at >= 2 && tokens[at - 2].is_punct('-') && tokens[at - 2].joint && tokens[at - 1].is_punct('>')
}

/// The entries of the group opened at `open` split at its top-level
/// commas: each entry's token indices, first..end (exclusive).
fn entries(tokens: &[Tok], open: usize) -> Vec<Range<usize>> {
    let close = group_end(tokens, open);
    let mut out = Vec::new();
    let mut start = open + 1;
    let mut at = open + 1;
    let mut angle = 0i32;
    while at < close {
        match &tokens[at].kind {
            Kind::Open(_) => {
                at = group_end(tokens, at) + 1;
                continue;
            }
            Kind::Punct('<') => angle += 1,
            Kind::Punct('>') if !(at > 0 && tokens[at - 1].is_punct('-')) => angle -= 1,
            Kind::Punct(',') if angle <= 0 => {
                out.push(start..at);
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    if start < close {
        out.push(start..close);
    }
    out
}

fn read_sources(solution: &Path) -> Vec<Source> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(solution.join("src"))
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "rs"))
        .map(|entry| entry.path().to_path_buf())
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let syntax = syn::parse_file(&text).ok()?;
            let relative = path.strip_prefix(solution).ok()?.to_path_buf();
            let inside = relative.strip_prefix("src").ok()?;
            let mut module: Vec<String> = inside
                .with_extension("")
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|last| last == "mod") {
                module.pop();
            }
            if module == ["lib"] || module == ["main"] {
                module.clear();
            }
            let tokens = tokens_of(&text);
            Some(Source {
                file: relative,
                text,
                syntax,
                tokens,
                module,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// What the operators need to know of the whole crate.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Type,
    Function,
    Method,
    Field,
    Macro,
}

/// A named thing the crate defines.
#[derive(Debug, Clone)]
struct Defined {
    kind: ItemKind,
    name: String,
    /// The file (index into the sources) and the range of the name.
    source: usize,
    at: Range<usize>,
    line: usize,
    /// Whether outside code can name it (or call it).
    exported: bool,
    /// For a method: whether it is in a trait or a trait impl. For a
    /// field: the struct's name.
    detail: String,
}

/// A struct's lifetime parameters, type parameters, and the outlives
/// pairs its fields imply (lifetime index, type index).
type StructShape = (Vec<String>, Vec<String>, Vec<(usize, usize)>);

#[derive(Debug, Default)]
struct Facts {
    defined: Vec<Defined>,
    /// Every module name of the crate.
    modules: BTreeSet<String>,
    /// Structs: name → (lifetime params, type params, implied outlives
    /// pairs (lifetime index, type index) from the fields).
    structs: BTreeMap<String, StructShape>,
    /// The derives of each struct and enum.
    derives: BTreeMap<String, Vec<String>>,
}

/// The leaf names of a `use` tree (the names it brings in).
fn use_leaves(tree: &syn::UseTree, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(path) => use_leaves(&path.tree, out),
        syn::UseTree::Name(name) => out.push(name.ident.to_string()),
        syn::UseTree::Rename(rename) => out.push(rename.ident.to_string()),
        syn::UseTree::Glob(_) => out.push("*".to_owned()),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_leaves(tree, out);
            }
        }
    }
}

fn derives_of(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for attr in attrs {
        if attr.path().is_ident("derive") {
            let _ = attr.parse_nested_meta(|meta| {
                if let Some(last) = meta.path.segments.last() {
                    out.push(last.ident.to_string());
                }
                Ok(())
            });
        }
    }
    out
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

impl Facts {
    fn of(sources: &[Source]) -> Facts {
        let mut facts = Facts::default();
        // Which modules are public: (parent path, name) → pub.
        let mut public_modules: BTreeMap<Vec<String>, bool> = BTreeMap::new();
        let mut exported_names: BTreeSet<String> = BTreeSet::new();
        fn scan_modules(
            items: &[syn::Item],
            path: &[String],
            public: &mut BTreeMap<Vec<String>, bool>,
            exported: &mut BTreeSet<String>,
            modules: &mut BTreeSet<String>,
        ) {
            for item in items {
                match item {
                    syn::Item::Mod(module) => {
                        let mut inner = path.to_vec();
                        inner.push(module.ident.to_string());
                        modules.insert(module.ident.to_string());
                        public.insert(inner.clone(), is_pub(&module.vis));
                        if let Some((_, items)) = &module.content {
                            scan_modules(items, &inner, public, exported, modules);
                        }
                    }
                    syn::Item::Use(item) if is_pub(&item.vis) => {
                        let mut leaves = Vec::new();
                        use_leaves(&item.tree, &mut leaves);
                        exported.extend(leaves);
                    }
                    _ => {}
                }
            }
        }
        for source in sources {
            scan_modules(
                &source.syntax.items,
                &source.module,
                &mut public_modules,
                &mut exported_names,
                &mut facts.modules,
            );
        }
        let path_public = |path: &[String]| -> bool {
            (1..=path.len()).all(|end| public_modules.get(&path[..end]).copied().unwrap_or(false))
        };
        for (index, source) in sources.iter().enumerate() {
            let mut walker = DefinitionWalker {
                text: &source.text,
                source: index,
                path: source.module.clone(),
                path_public: &path_public,
                exported_names: &exported_names,
                facts: &mut facts,
                in_trait: 0,
            };
            walker.visit_file(&source.syntax);
        }
        facts
    }

    fn count(&self, name: &str, kinds: &[ItemKind]) -> usize {
        self.defined
            .iter()
            .filter(|defined| defined.name == name && kinds.contains(&defined.kind))
            .count()
    }

    fn type_names(&self) -> BTreeSet<&str> {
        self.defined
            .iter()
            .filter(|defined| defined.kind == ItemKind::Type)
            .map(|defined| defined.name.as_str())
            .collect()
    }
}

struct DefinitionWalker<'a, F: Fn(&[String]) -> bool> {
    text: &'a str,
    source: usize,
    path: Vec<String>,
    path_public: &'a F,
    exported_names: &'a BTreeSet<String>,
    facts: &'a mut Facts,
    /// Inside a trait or a trait impl.
    in_trait: usize,
}

impl<F: Fn(&[String]) -> bool> DefinitionWalker<'_, F> {
    fn define(&mut self, kind: ItemKind, ident: &syn::Ident, exported: bool, detail: String) {
        self.facts.defined.push(Defined {
            kind,
            name: ident.to_string(),
            source: self.source,
            at: range(self.text, ident.span()),
            line: ident.span().start().line,
            exported,
            detail,
        });
    }

    fn item_exported(&self, vis: &syn::Visibility, ident: &syn::Ident) -> bool {
        is_pub(vis)
            && ((self.path_public)(&self.path)
                || self.exported_names.contains(&ident.to_string())
                || self.exported_names.contains("*"))
    }

    fn type_item(&mut self, vis: &syn::Visibility, ident: &syn::Ident) {
        let exported = self.item_exported(vis, ident);
        self.define(ItemKind::Type, ident, exported, String::new());
    }
}

impl<'ast, F: Fn(&[String]) -> bool> Visit<'ast> for DefinitionWalker<'_, F> {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        self.path.push(module.ident.to_string());
        syn::visit::visit_item_mod(self, module);
        self.path.pop();
    }

    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        self.type_item(&item.vis, &item.ident);
        self.facts
            .derives
            .insert(item.ident.to_string(), derives_of(&item.attrs));
        let lifetimes: Vec<String> = item
            .generics
            .lifetimes()
            .map(|param| param.lifetime.ident.to_string())
            .collect();
        let types: Vec<String> = item
            .generics
            .type_params()
            .map(|param| param.ident.to_string())
            .collect();
        let mut implied = Vec::new();
        for field in &item.fields {
            for (lifetime, ty) in outlives_in(&field.ty, &types) {
                if let Some(l) = lifetimes.iter().position(|name| *name == lifetime)
                    && let Some(t) = types.iter().position(|name| *name == ty)
                    && !implied.contains(&(l, t))
                {
                    implied.push((l, t));
                }
            }
            if let Some(ident) = &field.ident {
                self.define(
                    ItemKind::Field,
                    ident,
                    is_pub(&field.vis),
                    item.ident.to_string(),
                );
            }
        }
        self.facts
            .structs
            .insert(item.ident.to_string(), (lifetimes, types, implied));
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        self.type_item(&item.vis, &item.ident);
        self.facts
            .derives
            .insert(item.ident.to_string(), derives_of(&item.attrs));
        for variant in &item.variants {
            for field in &variant.fields {
                if let Some(ident) = &field.ident {
                    self.define(ItemKind::Field, ident, true, variant.ident.to_string());
                }
            }
        }
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.type_item(&item.vis, &item.ident);
        self.in_trait += 1;
        syn::visit::visit_item_trait(self, item);
        self.in_trait -= 1;
    }

    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        self.type_item(&item.vis, &item.ident);
    }

    fn visit_item_union(&mut self, item: &'ast syn::ItemUnion) {
        self.type_item(&item.vis, &item.ident);
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        let exported = self.item_exported(&item.vis, &item.sig.ident);
        self.define(ItemKind::Function, &item.sig.ident, exported, String::new());
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        if let Some(ident) = &item.ident {
            let exported = item
                .attrs
                .iter()
                .any(|attr| attr.path().is_ident("macro_export"));
            self.define(ItemKind::Macro, ident, exported, String::new());
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let in_trait = item.trait_.is_some();
        if in_trait {
            self.in_trait += 1;
        }
        syn::visit::visit_item_impl(self, item);
        if in_trait {
            self.in_trait -= 1;
        }
    }

    fn visit_impl_item_fn(&mut self, function: &'ast syn::ImplItemFn) {
        let detail = if self.in_trait > 0 { "trait" } else { "" };
        self.define(
            ItemKind::Method,
            &function.sig.ident,
            is_pub(&function.vis) || self.in_trait > 0,
            detail.to_owned(),
        );
    }

    fn visit_trait_item_fn(&mut self, function: &'ast syn::TraitItemFn) {
        self.define(
            ItemKind::Method,
            &function.sig.ident,
            true,
            "trait".to_owned(),
        );
    }
}

/// The (lifetime, type parameter) pairs a type implies by holding
/// `&'lifetime X` where `X` mentions the type parameter.
fn outlives_in(ty: &syn::Type, params: &[String]) -> Vec<(String, String)> {
    struct Finder<'p> {
        params: &'p [String],
        found: Vec<(String, String)>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
            if let Some(lifetime) = &reference.lifetime
                && lifetime.ident != "static"
            {
                for param in mentioned_params(&reference.elem, self.params) {
                    self.found.push((lifetime.ident.to_string(), param));
                }
            }
            syn::visit::visit_type_reference(self, reference);
        }
        fn visit_parenthesized_generic_arguments(
            &mut self,
            _: &'ast syn::ParenthesizedGenericArguments,
        ) {
        }
        fn visit_type_bare_fn(&mut self, _: &'ast syn::TypeBareFn) {}
    }
    let mut finder = Finder {
        params,
        found: Vec::new(),
    };
    finder.visit_type(ty);
    finder.found
}

/// The type parameters among `params` that `ty` names (not through a
/// projection, a closure's arguments or a function pointer).
fn mentioned_params(ty: &syn::Type, params: &[String]) -> Vec<String> {
    struct Finder<'p> {
        params: &'p [String],
        found: Vec<String>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_type_path(&mut self, path: &'ast syn::TypePath) {
            if path.qself.is_none()
                && let Some(ident) = path.path.get_ident()
            {
                let name = ident.to_string();
                if self.params.contains(&name) && !self.found.contains(&name) {
                    self.found.push(name);
                }
                return;
            }
            if path.path.segments.len() > 1
                && let Some(first) = path.path.segments.first()
                && self.params.contains(&first.ident.to_string())
            {
                // `T::Assoc`: a projection, not `T`.
                return;
            }
            syn::visit::visit_type_path(self, path);
        }
        fn visit_parenthesized_generic_arguments(
            &mut self,
            _: &'ast syn::ParenthesizedGenericArguments,
        ) {
        }
        fn visit_type_bare_fn(&mut self, _: &'ast syn::TypeBareFn) {}
        fn visit_type_trait_object(&mut self, _: &'ast syn::TypeTraitObject) {}
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {}
    }
    let mut finder = Finder {
        params,
        found: Vec::new(),
    };
    finder.visit_type(ty);
    finder.found
}

// ---------------------------------------------------------------------------
// Generation.

/// Every rewrite of the solution crate at `solution` (its `src/`), given
/// the exercise's `[surface]`.
pub fn generate(solution: &Path, surface: &SurfaceSpec) -> Vec<Rewrite> {
    let sources = read_sources(solution);
    let facts = Facts::of(&sources);
    let mut rewrites = Vec::new();
    rename_private(&sources, &facts, &mut rewrites);
    for source in &sources {
        let mut finder = Finder {
            source,
            facts: &facts,
            rewrites: Vec::new(),
            impl_stack: Vec::new(),
        };
        finder.visit_file(&source.syntax);
        finder.item_lists(&source.syntax.items);
        rewrites.extend(finder.rewrites);
    }
    move_module(&sources, &mut rewrites);
    drop_optional(&sources, &facts, surface, &mut rewrites);
    add_allowed(&sources, &facts, surface, &mut rewrites);
    allowed_replacements(&sources, surface, &mut rewrites);
    let mut seen = BTreeSet::new();
    let mut texts = BTreeSet::new();
    rewrites.retain(|rewrite| {
        // One rewrite per change: two names for the same text are one.
        if !texts.insert(rewrite.files.clone()) {
            return false;
        }
        !rewrite.files.is_empty()
            && rewrite.files.iter().all(|(file, text)| {
                sources
                    .iter()
                    .find(|source| source.file == *file)
                    .is_none_or(|source| source.text != *text)
            })
            && seen.insert(rewrite.name.clone())
    });
    rewrites
}

/// Every rewrite of an exercise: its solution at `solution`, its
/// manifest in `starter`.
pub fn of_exercise(starter: &Path, solution: &Path) -> Result<Vec<Rewrite>, String> {
    let surface = surface_of(starter)?;
    Ok(generate(solution, &surface))
}

fn rewrite(
    operator: &'static str,
    file: &Path,
    line: usize,
    what: &str,
    files: Vec<(PathBuf, String)>,
) -> Rewrite {
    Rewrite {
        name: format!("{operator} {}:{line} {what}", file.display()),
        operator,
        files,
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

// ---------------------------------------------------------------------------
// rename-private

fn rename_private(sources: &[Source], facts: &Facts, out: &mut Vec<Rewrite>) {
    use ItemKind::*;
    let types = facts.type_names();
    let all = [Type, Function, Method, Field, Macro];
    let mut done = BTreeSet::new();
    for defined in &facts.defined {
        if defined.exported || !done.insert(defined.name.clone()) {
            continue;
        }
        let name = defined.name.as_str();
        // The kinds whose uses the rename could not tell from this one's.
        let conflicting: &[ItemKind] = match defined.kind {
            Type | Macro | Function => &all,
            Method => &[Type, Function, Method, Macro],
            Field => &[Field],
        };
        let same: Vec<&Defined> = facts
            .defined
            .iter()
            .filter(|other| other.name == name && conflicting.contains(&other.kind))
            .collect();
        if same
            .iter()
            .any(|other| other.kind != defined.kind || other.exported)
            || (defined.kind == Type && same.len() != 1)
            || (defined.kind == Method && same.iter().any(|other| other.detail == "trait"))
        {
            continue;
        }
        let (new, kind) = match defined.kind {
            Type => (format!("Renamed{name}"), "type"),
            Macro => (format!("renamed_{name}"), "macro"),
            Function => (format!("renamed_{name}"), "fn"),
            Method => (format!("renamed_{name}"), "method"),
            Field => (format!("renamed_{name}"), "field"),
        };
        let mut files = Vec::new();
        for source in sources {
            let tokens = &source.tokens;
            let mut edits: Vec<Edit> = Vec::new();
            if defined.kind == Field {
                let owners: BTreeSet<&str> =
                    same.iter().map(|other| other.detail.as_str()).collect();
                for (number, owner) in owners.iter().enumerate() {
                    edits.extend(field_edits(
                        source,
                        owner,
                        name,
                        number == 0,
                        |entry| match entry {
                            FieldUse::Access(at) => vec![(at, new.clone())],
                            FieldUse::Named(at, _) => vec![(at, new.clone())],
                            FieldUse::Shorthand(at) => {
                                vec![(at.start..at.start, format!("{new}: "))]
                            }
                        },
                    ));
                }
                for other in &same {
                    if sources[other.source].file == source.file {
                        edits.push((other.at.clone(), new.clone()));
                    }
                }
            } else {
                for (at, tok) in tokens.iter().enumerate() {
                    if !tok.is_ident(name) {
                        continue;
                    }
                    let prev = at.checked_sub(1).map(|prev| &tokens[prev]);
                    if prev.is_some_and(|prev| prev.is_punct('\'')) {
                        continue;
                    }
                    let after_dot = prev.is_some_and(|prev| prev.is_punct('.'));
                    let qualified_by = after_path_sep(tokens, at)
                        .then(|| tokens.get(at.wrapping_sub(3)).and_then(Tok::ident))
                        .flatten();
                    let keep = match defined.kind {
                        Type | Macro => !after_dot,
                        Function => {
                            !after_dot
                                && qualified_by.is_none_or(|by| {
                                    ["crate", "self", "super"].contains(&by)
                                        || facts.modules.contains(by)
                                })
                        }
                        Method => {
                            prev.is_some_and(|prev| prev.is_ident("fn"))
                                || (after_dot
                                    && tokens.get(at + 1).is_some_and(|next| {
                                        next.kind == Kind::Open('(') || next.is_punct(':')
                                    }))
                                || qualified_by.is_some_and(|by| by == "Self" || types.contains(by))
                        }
                        Field => false,
                    };
                    if keep {
                        edits.push((tok.at.clone(), new.clone()));
                    }
                }
            }
            if !edits.is_empty() {
                files.push((source.file.clone(), apply(&source.text, &edits)));
            }
        }
        let file = &sources[defined.source].file;
        out.push(rewrite(
            "rename-private",
            file,
            defined.line,
            &format!("{kind} {name} to {new}"),
            files,
        ));
    }
}

/// A use of a field in a file: `.field`, `field: value` in a literal or
/// a pattern of its struct, or the shorthand `field`.
enum FieldUse {
    /// The field's name after a dot.
    Access(Range<usize>),
    /// The name, and the range of the value or pattern after the colon.
    Named(Range<usize>, Range<usize>),
    /// The whole entry (the name, after `ref` or `mut` if any).
    Shorthand(Range<usize>),
}

/// The edits for every use of field `field` of struct `owner` in
/// `source` (its accesses `.field` too when `accesses`: any access of a
/// field of that name, whatever the struct).
fn field_edits(
    source: &Source,
    owner: &str,
    field: &str,
    accesses: bool,
    edit: impl Fn(FieldUse) -> Vec<Edit>,
) -> Vec<Edit> {
    let tokens = &source.tokens;
    let mut edits = Vec::new();
    for (at, tok) in tokens.iter().enumerate() {
        if !accesses {
            break;
        }
        if tok.is_ident(field)
            && at > 0
            && tokens[at - 1].is_punct('.')
            && !tokens
                .get(at + 1)
                .is_some_and(|next| next.kind == Kind::Open('(') || is_path_sep(tokens, at + 1))
        {
            edits.extend(edit(FieldUse::Access(tok.at.clone())));
        }
    }
    for open in literal_opens(source, owner) {
        for entry in entries(tokens, open) {
            let first = &tokens[entry.start];
            let last = &tokens[entry.end - 1];
            if entry.len() >= 2 && first.is_ident(field) && tokens[entry.start + 1].is_punct(':') {
                let value = tokens[entry.start + 2.min(entry.len() - 1)].at.start..last.at.end;
                edits.extend(edit(FieldUse::Named(first.at.clone(), value)));
            } else if last.is_ident(field)
                && tokens[entry.clone()]
                    .iter()
                    .rev()
                    .skip(1)
                    .all(|tok| tok.is_ident("ref") || tok.is_ident("mut"))
            {
                edits.extend(edit(FieldUse::Shorthand(first.at.start..last.at.end)));
            }
        }
    }
    edits
}

/// The token indices of the braces that open a literal or a pattern of
/// struct `name` (`Name { .. }`, or `Self { .. }` inside its impls).
fn literal_opens(source: &Source, name: &str) -> Vec<usize> {
    let tokens = &source.tokens;
    let impls = impl_ranges(source, name);
    let mut out = Vec::new();
    for (at, tok) in tokens.iter().enumerate() {
        if tok.kind != Kind::Open('{') || at == 0 {
            continue;
        }
        let prev = &tokens[at - 1];
        let named = prev.is_ident(name)
            || (prev.is_ident("Self") && impls.iter().any(|range| range.contains(&prev.at.start)));
        if !named {
            continue;
        }
        // Walk back over the path and any `&`, `mut` and lifetimes: a type
        // after `->`, `impl`, `for`, `struct`... opens a body, not a
        // literal.
        let mut back = at - 1;
        while after_path_sep(tokens, back) && back >= 3 && tokens[back - 3].ident().is_some() {
            back -= 3;
        }
        while back > 0
            && (tokens[back - 1].is_punct('&')
                || tokens[back - 1].is_ident("mut")
                || (back >= 2 && tokens[back - 2].is_punct('\'')))
        {
            back -= if tokens[back - 1].ident().is_some()
                && back >= 2
                && tokens[back - 2].is_punct('\'')
            {
                2
            } else {
                1
            };
        }
        let before = back.checked_sub(1).map(|at| &tokens[at]);
        let opens_body = after_arrow(tokens, back)
            || before.is_some_and(|before| {
                [
                    "impl", "for", "struct", "enum", "union", "trait", "mod", "type", "fn", "dyn",
                ]
                .iter()
                .any(|keyword| before.is_ident(keyword))
            });
        if !opens_body {
            out.push(at);
        }
    }
    out
}

/// The byte ranges of the impls of `name` in `source`.
fn impl_ranges(source: &Source, name: &str) -> Vec<Range<usize>> {
    struct Impls<'a> {
        text: &'a str,
        name: &'a str,
        found: Vec<Range<usize>>,
    }
    impl<'ast> Visit<'ast> for Impls<'_> {
        fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
            if let syn::Type::Path(path) = item.self_ty.as_ref()
                && path
                    .path
                    .segments
                    .last()
                    .is_some_and(|last| last.ident == self.name)
            {
                self.found.push(range(self.text, item.span()));
            }
            syn::visit::visit_item_impl(self, item);
        }
    }
    let mut impls = Impls {
        text: &source.text,
        name,
        found: Vec::new(),
    };
    impls.visit_file(&source.syntax);
    impls.found
}

// ---------------------------------------------------------------------------
// Lifetimes in types: where a signature elides one, or names one.

/// A place in a type where a lifetime is elided or named.
#[derive(Debug, Clone)]
enum Spot {
    /// `&T` or `&mut T`: the offset just after the `&`.
    Amp(usize),
    /// `'_`.
    Underscore(Range<usize>),
    /// A named lifetime, its range, and whether it is a reference's
    /// (`&'a T`, so that eliding it removes it rather than writing `'_`).
    Named(String, Range<usize>, bool),
}

/// The spots of the types it visits, outside closure sugar, function
/// pointers and `for<..>` binders (which elide on their own).
struct Spots<'t> {
    text: &'t str,
    spots: Vec<Spot>,
    /// Whether a skipped region held a lifetime or a reference.
    hidden: bool,
}

impl<'t> Spots<'t> {
    fn new(text: &'t str) -> Self {
        Spots {
            text,
            spots: Vec::new(),
            hidden: false,
        }
    }

    fn of_type(text: &'t str, ty: &syn::Type) -> Self {
        let mut spots = Spots::new(text);
        spots.visit_type(ty);
        spots
    }

    fn elided(&self) -> usize {
        self.spots
            .iter()
            .filter(|spot| !matches!(spot, Spot::Named(..)))
            .count()
    }

    fn named(&self, name: &str) -> usize {
        self.spots
            .iter()
            .filter(|spot| matches!(spot, Spot::Named(named, _, _) if named == name))
            .count()
    }

    fn names(&self) -> BTreeSet<String> {
        self.spots
            .iter()
            .filter_map(|spot| match spot {
                Spot::Named(name, _, _) => Some(name.clone()),
                _ => None,
            })
            .collect()
    }
}

fn holds_lifetime(node: &impl ToTokens) -> bool {
    let text = tokens_text(node);
    text.contains('\'') || text.contains('&')
}

impl<'ast> Visit<'ast> for Spots<'_> {
    fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
        match &reference.lifetime {
            None => self
                .spots
                .push(Spot::Amp(range(self.text, reference.and_token.span).end)),
            Some(lifetime) => self.spots.push(Spot::Named(
                lifetime.ident.to_string(),
                range(self.text, lifetime.span()),
                true,
            )),
        }
        self.visit_type(&reference.elem);
    }
    fn visit_lifetime(&mut self, lifetime: &'ast syn::Lifetime) {
        let at = range(self.text, lifetime.span());
        if lifetime.ident == "_" {
            self.spots.push(Spot::Underscore(at));
        } else {
            self.spots
                .push(Spot::Named(lifetime.ident.to_string(), at, false));
        }
    }
    fn visit_parenthesized_generic_arguments(
        &mut self,
        args: &'ast syn::ParenthesizedGenericArguments,
    ) {
        self.hidden |= holds_lifetime(args);
    }
    fn visit_type_bare_fn(&mut self, ty: &'ast syn::TypeBareFn) {
        self.hidden |= holds_lifetime(ty);
    }
    fn visit_bound_lifetimes(&mut self, bound: &'ast syn::BoundLifetimes) {
        self.hidden |= holds_lifetime(bound);
    }
    fn visit_type_trait_object(&mut self, ty: &'ast syn::TypeTraitObject) {
        self.hidden |= holds_lifetime(ty);
    }
    fn visit_type_impl_trait(&mut self, ty: &'ast syn::TypeImplTrait) {
        self.hidden |= holds_lifetime(ty);
    }
}

/// Fresh lifetime names, none of `taken`: `'s` first when `receiver`.
fn fresh_lifetimes(count: usize, taken: &BTreeSet<String>, receiver: bool) -> Vec<String> {
    let mut names = Vec::new();
    if receiver && !taken.contains("s") {
        names.push("s".to_owned());
    }
    for c in 'a'..='z' {
        let name = c.to_string();
        if !taken.contains(&name) && !names.contains(&name) {
            names.push(name);
        }
    }
    let mut n = 0;
    while names.len() < count {
        let name = format!("x{n}");
        if !taken.contains(&name) {
            names.push(name);
        }
        n += 1;
    }
    names.truncate(count);
    names
}

/// Every lifetime name in a node's tokens.
fn lifetime_names(node: &impl ToTokens) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut previous_quote = false;
    fn walk(stream: TokenStream, out: &mut BTreeSet<String>, previous_quote: &mut bool) {
        for tree in stream {
            match tree {
                TokenTree::Punct(punct) if punct.as_char() == '\'' => *previous_quote = true,
                TokenTree::Ident(ident) if *previous_quote => {
                    out.insert(ident.to_string());
                    *previous_quote = false;
                }
                TokenTree::Group(group) => {
                    *previous_quote = false;
                    walk(group.stream(), out, previous_quote);
                }
                _ => *previous_quote = false,
            }
        }
    }
    walk(node.to_token_stream(), &mut out, &mut previous_quote);
    out
}

/// The edit that names an elided spot `'name`.
fn name_spot(spot: &Spot, name: &str) -> Option<Edit> {
    match spot {
        Spot::Amp(at) => Some((*at..*at, format!("'{name} "))),
        Spot::Underscore(at) => Some((at.clone(), format!("'{name}"))),
        Spot::Named(..) => None,
    }
}

/// The edit that elides a named spot.
fn elide_spot(text: &str, spot: &Spot) -> Option<Edit> {
    match spot {
        Spot::Named(_, at, true) => {
            let mut end = at.end;
            while text[end..].starts_with(char::is_whitespace) {
                end += 1;
            }
            Some((at.start..end, String::new()))
        }
        Spot::Named(_, at, false) => Some((at.clone(), "'_".to_owned())),
        _ => None,
    }
}

/// The edits that add `names` as lifetime parameters to `generics`, whose
/// owner's name ends at `after` (where `<...>` goes when it has none).
fn add_lifetime_params(
    text: &str,
    generics: &syn::Generics,
    after: usize,
    names: &[String],
) -> Edit {
    let list: Vec<String> = names.iter().map(|name| format!("'{name}")).collect();
    match (&generics.lt_token, generics.params.is_empty()) {
        (Some(lt), false) => {
            let at = range(text, lt.span).end;
            (at..at, format!("{}, ", list.join(", ")))
        }
        (Some(lt), true) => {
            let at = range(text, lt.span).end;
            (at..at, list.join(", "))
        }
        (None, _) => (after..after, format!("<{}>", list.join(", "))),
    }
}

/// The edit that removes the generic parameters at `remove` from
/// `generics` (the whole `<...>` when none is left).
fn remove_params(text: &str, generics: &syn::Generics, remove: &[usize]) -> Option<Edit> {
    let (lt, gt) = (generics.lt_token?, generics.gt_token?);
    let whole = range(text, lt.span).start..range(text, gt.span).end;
    let kept: Vec<&str> = generics
        .params
        .iter()
        .enumerate()
        .filter(|(at, _)| !remove.contains(at))
        .map(|(_, param)| span_text(text, param.span()))
        .collect();
    if kept.is_empty() {
        Some((whole, String::new()))
    } else {
        Some((whole, format!("<{}>", kept.join(", "))))
    }
}

/// The edits that add `predicates` to the where clause of `generics`
/// (made at `insert_at` when there is none).
fn add_predicates(
    text: &str,
    generics: &syn::Generics,
    insert_at: usize,
    predicates: &[String],
) -> Edit {
    let list = predicates.join(", ");
    match &generics.where_clause {
        Some(clause) => match clause.predicates.last() {
            Some(last) => {
                let end = range(text, last.span()).end;
                (end..end, format!(", {list}"))
            }
            None => {
                let end = range(text, clause.span()).end;
                (end..end, format!(" {list}"))
            }
        },
        None => (insert_at..insert_at, format!(" where {list}")),
    }
}

/// Where a signature's where clause goes: after its result type.
fn signature_end(text: &str, sig: &syn::Signature) -> usize {
    match &sig.output {
        syn::ReturnType::Type(_, ty) => range(text, ty.span()).end,
        syn::ReturnType::Default => range(text, sig.paren_token.span.close()).end,
    }
}

// ---------------------------------------------------------------------------
// The operators that rewrite one place of one file.

struct Finder<'a> {
    source: &'a Source,
    facts: &'a Facts,
    rewrites: Vec<Rewrite>,
    /// The impls around the item being visited.
    impl_stack: Vec<&'a syn::ItemImpl>,
}

/// A function's signature with what surrounds it.
struct FnContext<'a> {
    sig: &'a syn::Signature,
    /// The body's byte range, if it has one.
    body: Option<Range<usize>>,
    /// Whether it is a trait's item or a trait impl's: a where clause
    /// that names its lifetime makes that lifetime early-bound, which the
    /// trait's declaration must then be too (E0195).
    in_trait: bool,
}

impl<'a> Finder<'a> {
    fn text(&self) -> &'a str {
        &self.source.text
    }

    fn push(&mut self, operator: &'static str, line: usize, what: &str, edits: &[Edit]) {
        if edits.is_empty() {
            return;
        }
        let text = apply(self.text(), edits);
        self.rewrites.push(rewrite(
            operator,
            &self.source.file,
            line,
            what,
            vec![(self.source.file.clone(), text)],
        ));
    }

    fn impl_params(&self) -> (Vec<String>, BTreeSet<String>) {
        match self.impl_stack.last() {
            Some(item) => (
                item.generics
                    .type_params()
                    .map(|param| param.ident.to_string())
                    .collect(),
                lifetime_names(&item.generics),
            ),
            None => (Vec::new(), BTreeSet::new()),
        }
    }

    /// `self-to-name` and `name-to-self` in one item of an impl.
    fn self_and_name(
        &mut self,
        item: &'a syn::ItemImpl,
        sig_range: Range<usize>,
        what: &str,
        types: Vec<&syn::Type>,
    ) {
        let text = self.text();
        let self_text = span_text(text, item.self_ty.span());
        if self_text.contains("'_") || matches!(item.self_ty.as_ref(), syn::Type::Reference(_)) {
            return;
        }
        let tokens = &self.source.tokens;
        let line = line_of(text, sig_range.start);
        // Self to the name.
        let mut edits = Vec::new();
        let first = token_at(tokens, sig_range.start);
        for at in first..tokens.len() {
            let tok = &tokens[at];
            if tok.at.start >= sig_range.end {
                break;
            }
            // In a signature, `Self` is a type unless a path goes on
            // (`Self::Value`, a projection the name cannot write).
            if tok.is_ident("Self") && !is_path_sep(tokens, at + 1) {
                edits.push((tok.at.clone(), self_text.to_owned()));
            }
        }
        self.push(
            "self-to-name",
            line,
            &format!("{what}: Self to {}", one_line(self_text)),
            &edits,
        );
        // The name to Self.
        struct Same<'s> {
            text: &'s str,
            wanted: String,
            found: Vec<Range<usize>>,
        }
        impl<'ast> Visit<'ast> for Same<'_> {
            fn visit_type(&mut self, ty: &'ast syn::Type) {
                if let syn::Type::Path(path) = ty
                    && path.qself.is_none()
                    && tokens_text(path) == self.wanted
                {
                    self.found.push(range(self.text, ty.span()));
                    return;
                }
                syn::visit::visit_type(self, ty);
            }
            fn visit_parenthesized_generic_arguments(
                &mut self,
                _: &'ast syn::ParenthesizedGenericArguments,
            ) {
            }
        }
        let mut same = Same {
            text,
            wanted: tokens_text(&item.self_ty),
            found: Vec::new(),
        };
        for ty in types {
            same.visit_type(ty);
        }
        let edits: Vec<Edit> = same
            .found
            .into_iter()
            .map(|at| (at, "Self".to_owned()))
            .collect();
        self.push(
            "name-to-self",
            line,
            &format!("{what}: {} to Self", one_line(self_text)),
            &edits,
        );
    }

    /// The lifetime operators on one function's signature.
    fn fn_lifetimes(&mut self, context: &FnContext<'a>) {
        let text = self.text();
        let sig = context.sig;
        let line = sig.ident.span().start().line;
        let name = sig.ident.to_string();
        let (_, impl_lifetimes) = self.impl_params();
        let mut taken = impl_lifetimes.clone();
        taken.extend(lifetime_names(sig));
        // The inputs' spots, the receiver's first.
        let mut inputs = Spots::new(text);
        let mut receiver_ref = false;
        let mut receiver_spot = None;
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(receiver) if receiver.colon_token.is_none() => {
                    if let Some((and, lifetime)) = &receiver.reference {
                        receiver_ref = true;
                        receiver_spot = Some(inputs.spots.len());
                        match lifetime {
                            None => inputs.spots.push(Spot::Amp(range(text, and.span).end)),
                            Some(lifetime) => inputs.spots.push(Spot::Named(
                                lifetime.ident.to_string(),
                                range(text, lifetime.span()),
                                true,
                            )),
                        }
                    }
                }
                syn::FnArg::Receiver(receiver) => inputs.visit_type(&receiver.ty),
                syn::FnArg::Typed(typed) => inputs.visit_type(&typed.ty),
            }
        }
        let output = match &sig.output {
            syn::ReturnType::Type(_, ty) => Spots::of_type(text, ty),
            syn::ReturnType::Default => Spots::new(text),
        };
        let after_name = range(text, sig.ident.span()).end;
        // explicit-lifetimes: every elided input lifetime named, and the
        // output's by the elision rules.
        let elided_inputs: Vec<usize> = inputs
            .spots
            .iter()
            .enumerate()
            .filter(|(_, spot)| !matches!(spot, Spot::Named(..)))
            .map(|(at, _)| at)
            .collect();
        // Lifetimes under closure sugar or `impl Trait` keep their own
        // elision; they matter only to an output that elides.
        let output_elides = output.elided() > 0 || output.hidden;
        if (!elided_inputs.is_empty() || output.elided() > 0) && !(inputs.hidden && output_elides) {
            let receiver_elided =
                receiver_spot.is_some_and(|at| elided_inputs.first() == Some(&at));
            let names = fresh_lifetimes(elided_inputs.len(), &taken, receiver_elided);
            let mut edits: Vec<Edit> = Vec::new();
            let mut assigned: Vec<Option<String>> = vec![None; inputs.spots.len()];
            for (spot, name) in elided_inputs.iter().zip(&names) {
                assigned[*spot] = Some(name.clone());
                edits.extend(name_spot(&inputs.spots[*spot], name));
            }
            let mut output_name = None;
            if receiver_ref {
                let at = receiver_spot.unwrap_or_default();
                output_name = match &inputs.spots[at] {
                    Spot::Named(name, _, _) => Some(name.clone()),
                    _ => assigned[at].clone(),
                };
            } else {
                let mut all: BTreeSet<String> = inputs.names();
                all.extend(names.iter().cloned());
                if all.len() == 1 {
                    output_name = all.into_iter().next();
                }
            }
            let viable = output.elided() == 0 || output_name.is_some();
            if viable {
                if let Some(output_name) = &output_name {
                    for spot in &output.spots {
                        edits.extend(name_spot(spot, output_name));
                    }
                }
                if !names.is_empty() {
                    edits.push(add_lifetime_params(text, &sig.generics, after_name, &names));
                }
                self.push(
                    "explicit-lifetimes",
                    line,
                    &format!(
                        "fn {name}: {}",
                        names
                            .iter()
                            .map(|n| format!("'{n}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    &edits,
                );
            }
        }
        // elide-lifetimes: a lifetime parameter of the function that
        // elision gives back.
        let body_lifetimes = context
            .body
            .as_ref()
            .map(|body| tokens_of(&text[body.clone()]))
            .unwrap_or_default();
        for (index, param) in sig.generics.params.iter().enumerate() {
            let syn::GenericParam::Lifetime(param) = param else {
                continue;
            };
            let lifetime = param.lifetime.ident.to_string();
            if !param.bounds.is_empty() || impl_lifetimes.contains(&lifetime) {
                continue;
            }
            // Named only in the inputs and output we see, once in the
            // declaration, never in the body.
            let everywhere = count_lifetime(sig, &lifetime);
            let (in_count, out_count) = (inputs.named(&lifetime), output.named(&lifetime));
            let in_body = body_lifetimes
                .windows(2)
                .any(|pair| pair[0].is_punct('\'') && pair[1].is_ident(&lifetime));
            if in_body || everywhere != 1 + in_count + out_count || in_count != 1 {
                continue;
            }
            let others = inputs.spots.len() - in_count;
            let receiver_is_it = receiver_spot.is_some_and(
                |at| matches!(&inputs.spots[at], Spot::Named(name, _, _) if *name == lifetime),
            );
            let gives_back = out_count == 0
                || (receiver_ref && receiver_is_it)
                || (!receiver_ref && others == 0 && output.elided() == 0);
            if !gives_back {
                continue;
            }
            let mut edits: Vec<Edit> = inputs
                .spots
                .iter()
                .chain(&output.spots)
                .filter(|spot| matches!(spot, Spot::Named(name, _, _) if *name == lifetime))
                .filter_map(|spot| elide_spot(text, spot))
                .collect();
            edits.extend(remove_params(text, &sig.generics, &[index]));
            self.push(
                "elide-lifetimes",
                line,
                &format!("fn {name}: '{lifetime}"),
                &edits,
            );
        }
        self.closure_bounds(sig, line, &name);
    }

    /// `FnOnce(&mut Token<'_, X>)` ↔ `for<'a, 'b> FnOnce(&'a mut Token<'b, X>)`
    /// in a signature's bounds.
    fn closure_bounds(&mut self, sig: &syn::Signature, line: usize, name: &str) {
        struct Bounds<'b>(Vec<&'b syn::TraitBound>);
        impl<'ast> Visit<'ast> for Bounds<'ast> {
            fn visit_trait_bound(&mut self, bound: &'ast syn::TraitBound) {
                if bound.path.segments.last().is_some_and(|last| {
                    matches!(last.arguments, syn::PathArguments::Parenthesized(_))
                }) {
                    self.0.push(bound);
                }
                syn::visit::visit_trait_bound(self, bound);
            }
        }
        let mut bounds = Bounds(Vec::new());
        bounds.visit_signature(sig);
        let text = self.text();
        for bound in bounds.0 {
            let Some(last) = bound.path.segments.last() else {
                continue;
            };
            let syn::PathArguments::Parenthesized(args) = &last.arguments else {
                continue;
            };
            let mut inputs = Spots::new(text);
            for input in &args.inputs {
                inputs.visit_type(input);
            }
            let output = match &args.output {
                syn::ReturnType::Type(_, ty) => Spots::of_type(text, ty),
                syn::ReturnType::Default => Spots::new(text),
            };
            if inputs.hidden || output.hidden {
                continue;
            }
            let trait_name = last.ident.to_string();
            match &bound.lifetimes {
                None => {
                    let elided: Vec<&Spot> = inputs
                        .spots
                        .iter()
                        .filter(|spot| !matches!(spot, Spot::Named(..)))
                        .collect();
                    if elided.is_empty() || output.elided() > 0 {
                        continue;
                    }
                    let mut taken = lifetime_names(sig);
                    taken.extend(self.impl_params().1);
                    let names = fresh_lifetimes(elided.len(), &taken, false);
                    let mut edits: Vec<Edit> = elided
                        .iter()
                        .zip(&names)
                        .filter_map(|(spot, name)| name_spot(spot, name))
                        .collect();
                    let at = range(text, bound.path.span()).start;
                    let list: Vec<String> = names.iter().map(|n| format!("'{n}")).collect();
                    edits.push((at..at, format!("for<{}> ", list.join(", "))));
                    self.push(
                        "explicit-lifetimes",
                        line,
                        &format!("fn {name}: {trait_name} bound for<{}>", list.join(", ")),
                        &edits,
                    );
                }
                Some(binder) => {
                    let bound_names: Vec<String> = binder
                        .lifetimes
                        .iter()
                        .filter_map(|param| match param {
                            syn::GenericParam::Lifetime(param) => {
                                Some(param.lifetime.ident.to_string())
                            }
                            _ => None,
                        })
                        .collect();
                    if bound_names.len() != binder.lifetimes.len()
                        || bound_names.iter().any(|lifetime| {
                            inputs.named(lifetime) != 1 || output.named(lifetime) != 0
                        })
                    {
                        continue;
                    }
                    let mut edits: Vec<Edit> = inputs
                        .spots
                        .iter()
                        .filter(|spot| matches!(spot, Spot::Named(name, _, _) if bound_names.contains(name)))
                        .filter_map(|spot| elide_spot(text, spot))
                        .collect();
                    let whole = range(text, binder.span());
                    let mut end = whole.end;
                    while text[end..].starts_with(char::is_whitespace) {
                        end += 1;
                    }
                    edits.push((whole.start..end, String::new()));
                    self.push(
                        "elide-lifetimes",
                        line,
                        &format!("fn {name}: {trait_name} bound without for<>"),
                        &edits,
                    );
                }
            }
        }
    }

    /// The lifetime operators on an impl's header.
    fn impl_lifetimes(&mut self, item: &'a syn::ItemImpl) {
        let text = self.text();
        let line = item.impl_token.span.start().line;
        let header = one_line(span_text(text, item.self_ty.span()));
        let mut spots = Spots::new(text);
        if let Some((_, path, _)) = &item.trait_ {
            spots.visit_path(path);
        }
        spots.visit_type(&item.self_ty);
        if spots.hidden {
            return;
        }
        let elided: Vec<&Spot> = spots
            .spots
            .iter()
            .filter(|spot| !matches!(spot, Spot::Named(..)))
            .collect();
        if !elided.is_empty() {
            let taken = lifetime_names(item);
            let names = fresh_lifetimes(elided.len(), &taken, false);
            let mut edits: Vec<Edit> = elided
                .iter()
                .zip(&names)
                .filter_map(|(spot, name)| name_spot(spot, name))
                .collect();
            edits.push(add_lifetime_params(
                text,
                &item.generics,
                range(text, item.impl_token.span).end,
                &names,
            ));
            self.push(
                "explicit-lifetimes",
                line,
                &format!("impl for {header}"),
                &edits,
            );
        }
        for (index, param) in item.generics.params.iter().enumerate() {
            let syn::GenericParam::Lifetime(param) = param else {
                continue;
            };
            let lifetime = param.lifetime.ident.to_string();
            if !param.bounds.is_empty()
                || spots.named(&lifetime) != 1
                || count_lifetime(item, &lifetime) != 2
            {
                continue;
            }
            let mut edits: Vec<Edit> = spots
                .spots
                .iter()
                .filter(|spot| matches!(spot, Spot::Named(name, _, _) if *name == lifetime))
                .filter_map(|spot| elide_spot(text, spot))
                .collect();
            edits.extend(remove_params(text, &item.generics, &[index]));
            self.push(
                "elide-lifetimes",
                line,
                &format!("impl for {header}: '{lifetime}"),
                &edits,
            );
        }
    }

    /// `bounds-to-where` and `where-to-bounds` on one item's generics.
    fn bounds_and_where(
        &mut self,
        generics: &syn::Generics,
        insert_at: usize,
        line: usize,
        what: &str,
    ) {
        let text = self.text();
        // Inline bounds to the where clause.
        let mut edits = Vec::new();
        let mut predicates = Vec::new();
        for param in generics.type_params() {
            let (Some(colon), Some(first), Some(last)) =
                (param.colon_token, param.bounds.first(), param.bounds.last())
            else {
                continue;
            };
            let bounds = range(text, first.span()).start..range(text, last.span()).end;
            predicates.push(format!("{}: {}", param.ident, &text[bounds.clone()]));
            edits.push((range(text, colon.span).start..bounds.end, String::new()));
        }
        if !predicates.is_empty() {
            edits.push(add_predicates(text, generics, insert_at, &predicates));
            self.push("bounds-to-where", line, what, &edits);
        }
        // The where clause's bounds on the item's own parameters, inline.
        let Some(clause) = &generics.where_clause else {
            return;
        };
        let own: Vec<String> = generics
            .type_params()
            .map(|param| param.ident.to_string())
            .collect();
        let mut moved: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut kept = Vec::new();
        for predicate in &clause.predicates {
            match predicate {
                syn::WherePredicate::Type(typed)
                    if typed.lifetimes.is_none()
                        && matches!(&typed.bounded_ty, syn::Type::Path(path)
                            if path.path.get_ident().is_some_and(|ident| own.contains(&ident.to_string()))) =>
                {
                    let (Some(first), Some(last)) = (typed.bounds.first(), typed.bounds.last())
                    else {
                        kept.push(span_text(text, predicate.span()));
                        continue;
                    };
                    let bounds = range(text, first.span()).start..range(text, last.span()).end;
                    moved
                        .entry(tokens_text(&typed.bounded_ty))
                        .or_default()
                        .push(text[bounds].to_owned());
                }
                _ => kept.push(span_text(text, predicate.span())),
            }
        }
        if moved.is_empty() {
            return;
        }
        let clause_range = range(text, clause.span());
        let mut edits = vec![if kept.is_empty() {
            (clause_range, String::new())
        } else {
            (clause_range, format!("where {}", kept.join(", ")))
        }];
        for param in generics.type_params() {
            let Some(bounds) = moved.get(&param.ident.to_string()) else {
                continue;
            };
            let joined = bounds.join(" + ");
            match param.bounds.last() {
                Some(last) => {
                    let end = range(text, last.span()).end;
                    edits.push((end..end, format!(" + {joined}")));
                }
                None => {
                    let end = range(text, param.ident.span()).end;
                    edits.push((end..end, format!(": {joined}")));
                }
            }
        }
        self.push("where-to-bounds", line, what, &edits);
    }

    /// `implied-bounds` on a function: `T: 'a` for each `&'a X` input whose
    /// `X` names the type parameter `T`.
    fn fn_implied(&mut self, sig: &syn::Signature) {
        let text = self.text();
        let (mut params, _) = self.impl_params();
        params.extend(
            sig.generics
                .type_params()
                .map(|param| param.ident.to_string()),
        );
        let mut pairs = Vec::new();
        for input in &sig.inputs {
            if let syn::FnArg::Typed(typed) = input {
                for pair in outlives_in(&typed.ty, &params) {
                    if !pairs.contains(&pair) {
                        pairs.push(pair);
                    }
                }
            }
        }
        let written = written_predicates(sig.generics.where_clause.as_ref(), &sig.generics);
        let predicates: Vec<String> = pairs
            .iter()
            .map(|(lifetime, param)| format!("{param}: '{lifetime}"))
            .filter(|predicate| !written.contains(predicate))
            .collect();
        if predicates.is_empty() {
            return;
        }
        let edit = add_predicates(text, &sig.generics, signature_end(text, sig), &predicates);
        self.push(
            "implied-bounds",
            sig.ident.span().start().line,
            &format!("fn {}: {}", sig.ident, predicates.join(", ")),
            &[edit],
        );
    }

    /// `implied-bounds` on an impl: what its header's references and the
    /// fields of its type imply.
    fn impl_implied(&mut self, item: &syn::ItemImpl) {
        let text = self.text();
        let params: Vec<String> = item
            .generics
            .type_params()
            .map(|param| param.ident.to_string())
            .collect();
        let mut pairs = outlives_in(&item.self_ty, &params);
        if let syn::Type::Path(path) = item.self_ty.as_ref()
            && let Some(last) = path.path.segments.last()
            && let Some((lifetimes, types, implied)) =
                self.facts.structs.get(&last.ident.to_string())
            && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        {
            let lifetime_args: Vec<&syn::Lifetime> = args
                .args
                .iter()
                .filter_map(|arg| match arg {
                    syn::GenericArgument::Lifetime(lifetime) => Some(lifetime),
                    _ => None,
                })
                .collect();
            let type_args: Vec<&syn::Type> = args
                .args
                .iter()
                .filter_map(|arg| match arg {
                    syn::GenericArgument::Type(ty) => Some(ty),
                    _ => None,
                })
                .collect();
            if lifetime_args.len() == lifetimes.len() && type_args.len() == types.len() {
                for (l, t) in implied {
                    let lifetime = &lifetime_args[*l];
                    if lifetime.ident == "_" || lifetime.ident == "static" {
                        continue;
                    }
                    if let syn::Type::Path(arg) = type_args[*t]
                        && let Some(ident) = arg.path.get_ident()
                        && params.contains(&ident.to_string())
                    {
                        let pair = (lifetime.ident.to_string(), ident.to_string());
                        if !pairs.contains(&pair) {
                            pairs.push(pair);
                        }
                    }
                }
            }
        }
        let written = written_predicates(item.generics.where_clause.as_ref(), &item.generics);
        let predicates: Vec<String> = pairs
            .iter()
            .map(|(lifetime, param)| format!("{param}: '{lifetime}"))
            .filter(|predicate| !written.contains(predicate))
            .collect();
        if predicates.is_empty() {
            return;
        }
        let edit = add_predicates(
            text,
            &item.generics,
            range(text, item.self_ty.span()).end,
            &predicates,
        );
        self.push(
            "implied-bounds",
            item.impl_token.span.start().line,
            &format!(
                "impl for {}: {}",
                one_line(span_text(text, item.self_ty.span())),
                predicates.join(", ")
            ),
            &[edit],
        );
    }

    /// `split-impl`: an inherent impl with two items or more, cut before
    /// its middle item.
    fn split_impl(&mut self, item: &syn::ItemImpl) {
        if item.trait_.is_some() || item.items.len() < 2 {
            return;
        }
        let text = self.text();
        let middle = &item.items[item.items.len() / 2];
        let at = range(text, middle.span()).start;
        let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
        let whole = range(text, item.span());
        let open = range(text, item.brace_token.span.open()).end;
        let header = &text[whole.start..open];
        let name = match middle {
            syn::ImplItem::Fn(function) => function.sig.ident.to_string(),
            syn::ImplItem::Const(constant) => constant.ident.to_string(),
            syn::ImplItem::Type(ty) => ty.ident.to_string(),
            _ => "an item".to_owned(),
        };
        self.push(
            "split-impl",
            item.impl_token.span.start().line,
            &format!(
                "impl {} before {name}",
                one_line(span_text(text, item.self_ty.span()))
            ),
            &[(line_start..line_start, format!("}}\n\n{header}\n"))],
        );
    }

    /// `merge-impls`: two inherent impls of one item list with the same
    /// header become one.
    fn item_lists(&mut self, items: &'a [syn::Item]) {
        let text = self.text();
        let impls: Vec<&syn::ItemImpl> = items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Impl(item) if item.trait_.is_none() && item.attrs.is_empty() => {
                    Some(item)
                }
                _ => None,
            })
            .collect();
        for (at, first) in impls.iter().enumerate() {
            for second in &impls[at + 1..] {
                if tokens_text(&first.generics) != tokens_text(&second.generics)
                    || tokens_text(&first.generics.where_clause)
                        != tokens_text(&second.generics.where_clause)
                    || tokens_text(&first.self_ty) != tokens_text(&second.self_ty)
                    || first.unsafety.is_some() != second.unsafety.is_some()
                {
                    continue;
                }
                let close = range(text, first.brace_token.span.close()).start;
                let inner = range(text, second.brace_token.span.open()).end
                    ..range(text, second.brace_token.span.close()).start;
                let whole = range(text, second.span());
                self.push(
                    "merge-impls",
                    first.impl_token.span.start().line,
                    &format!(
                        "impl {} with the one of line {}",
                        one_line(span_text(text, first.self_ty.span())),
                        second.impl_token.span.start().line
                    ),
                    &[
                        (close..close, format!("{}\n", text[inner].trim_end())),
                        (whole, String::new()),
                    ],
                );
            }
        }
        for item in items {
            if let syn::Item::Mod(module) = item
                && let Some((_, inner)) = &module.content
            {
                self.item_lists(inner);
            }
        }
    }
}

/// How many times `'lifetime` is written in a node.
fn count_lifetime(node: &impl ToTokens, lifetime: &str) -> usize {
    fn walk(stream: TokenStream, lifetime: &str, quote: &mut bool, count: &mut usize) {
        for tree in stream {
            match tree {
                TokenTree::Punct(punct) if punct.as_char() == '\'' => *quote = true,
                TokenTree::Ident(ident) => {
                    if *quote && ident == lifetime {
                        *count += 1;
                    }
                    *quote = false;
                }
                TokenTree::Group(group) => {
                    *quote = false;
                    walk(group.stream(), lifetime, quote, count);
                }
                _ => *quote = false,
            }
        }
    }
    let mut count = 0;
    walk(node.to_token_stream(), lifetime, &mut false, &mut count);
    count
}

/// The outlives predicates a where clause and the inline bounds already
/// write, as `T: 'a`.
fn written_predicates(
    clause: Option<&syn::WhereClause>,
    generics: &syn::Generics,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add =
        |bounded: String,
         bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::token::Plus>| {
            for bound in bounds {
                if let syn::TypeParamBound::Lifetime(lifetime) = bound {
                    out.insert(format!("{bounded}: '{}", lifetime.ident));
                }
            }
        };
    for param in generics.type_params() {
        add(param.ident.to_string(), &param.bounds);
    }
    if let Some(clause) = clause {
        for predicate in &clause.predicates {
            if let syn::WherePredicate::Type(typed) = predicate {
                add(tokens_text(&typed.bounded_ty), &typed.bounds);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// private-field-shape

/// The newtype a `private-field-shape` rewrite wraps a field's type in:
/// transparent in layout, in `Debug` and in every derive.
const NEWTYPE: &str = "
/// A private field's type, wrapped: the same layout, the same `Debug`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
struct ShapedField<F: ?Sized>(F);

impl<F: ?Sized + ::core::fmt::Debug> ::core::fmt::Debug for ShapedField<F> {
    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
        self.0.fmt(f)
    }
}
";

impl Finder<'_> {
    fn field_shape(&mut self, item: &syn::ItemStruct) {
        let text = self.text();
        let name = item.ident.to_string();
        let line = item.ident.span().start().line;
        let private = |field: &syn::Field| matches!(field.vis, syn::Visibility::Inherited);
        let unique = |field: &syn::Field| {
            field
                .ident
                .as_ref()
                .is_some_and(|ident| self.facts.count(&ident.to_string(), &[ItemKind::Field]) == 1)
        };
        let debug_derived = self
            .facts
            .derives
            .get(&name)
            .is_some_and(|derives| derives.iter().any(|derive| derive == "Debug"));
        match &item.fields {
            syn::Fields::Named(fields) => {
                // Each private field in a newtype.
                for field in &fields.named {
                    let Some(ident) = &field.ident else { continue };
                    if !private(field) || !unique(field) {
                        continue;
                    }
                    let mut edits = vec![(
                        range(text, field.ty.span()),
                        format!("ShapedField<{}>", span_text(text, field.ty.span())),
                    )];
                    edits.extend(field_edits(
                        self.source,
                        &name,
                        &ident.to_string(),
                        true,
                        |entry| match entry {
                            FieldUse::Access(at) => vec![(at.end..at.end, ".0".to_owned())],
                            FieldUse::Named(_, value) => vec![
                                (value.start..value.start, "ShapedField(".to_owned()),
                                (value.end..value.end, ")".to_owned()),
                            ],
                            FieldUse::Shorthand(entry) => vec![
                                (entry.start..entry.start, format!("{ident}: ShapedField(")),
                                (entry.end..entry.end, ")".to_owned()),
                            ],
                        },
                    ));
                    let end = text.len();
                    edits.push((end..end, NEWTYPE.to_owned()));
                    self.push(
                        "private-field-shape",
                        line,
                        &format!("{name}.{ident} in a newtype"),
                        &edits,
                    );
                }
                // Named fields to a tuple.
                if fields.named.is_empty()
                    || debug_derived
                    || item.generics.where_clause.is_some()
                    || !fields
                        .named
                        .iter()
                        .all(|field| private(field) && unique(field))
                {
                    return;
                }
                let names: Vec<String> = fields
                    .named
                    .iter()
                    .filter_map(|field| field.ident.as_ref().map(ToString::to_string))
                    .collect();
                let parts: Vec<String> = fields
                    .named
                    .iter()
                    .map(|field| {
                        let attrs: Vec<&str> = field
                            .attrs
                            .iter()
                            .map(|attr| span_text(text, attr.span()))
                            .collect();
                        let ty = span_text(text, field.ty.span());
                        if attrs.is_empty() {
                            ty.to_owned()
                        } else {
                            format!("{} {ty}", attrs.join(" "))
                        }
                    })
                    .collect();
                let mut edits = vec![(
                    range(text, fields.brace_token.span.open()).start
                        ..range(text, fields.brace_token.span.close()).end,
                    format!("({});", parts.join(", ")),
                )];
                let tokens = &self.source.tokens;
                for (at, tok) in tokens.iter().enumerate() {
                    if let Some(ident) = tok.ident()
                        && let Some(index) = names.iter().position(|name| name == ident)
                        && at > 0
                        && tokens[at - 1].is_punct('.')
                        && !tokens
                            .get(at + 1)
                            .is_some_and(|next| next.kind == Kind::Open('('))
                    {
                        edits.push((tok.at.clone(), index.to_string()));
                    }
                }
                for open in literal_opens(self.source, &name) {
                    let mut values: Vec<Option<String>> = vec![None; names.len()];
                    for entry in entries(tokens, open) {
                        let first = &tokens[entry.start];
                        let last = &tokens[entry.end - 1];
                        let whole = &text[first.at.start..last.at.end];
                        if let Some(index) = first
                            .ident()
                            .and_then(|ident| names.iter().position(|name| name == ident))
                            && entry.len() >= 3
                            && tokens[entry.start + 1].is_punct(':')
                        {
                            values[index] = Some(
                                text[tokens[entry.start + 2].at.start..last.at.end].to_owned(),
                            );
                        } else if let Some(index) = last
                            .ident()
                            .and_then(|ident| names.iter().position(|name| name == ident))
                        {
                            values[index] = Some(whole.to_owned());
                        } else {
                            // `..rest`: not mechanical.
                            return;
                        }
                    }
                    let Some(values) = values.into_iter().collect::<Option<Vec<String>>>() else {
                        return;
                    };
                    let close = group_end(tokens, open);
                    edits.push((
                        tokens[open].at.start..tokens[close].at.end,
                        format!("({})", values.join(", ")),
                    ));
                }
                self.push(
                    "private-field-shape",
                    line,
                    &format!("{name} with tuple fields"),
                    &edits,
                );
            }
            syn::Fields::Unnamed(fields) => {
                if fields.unnamed.is_empty()
                    || debug_derived
                    || item.generics.where_clause.is_some()
                    || !fields.unnamed.iter().all(private)
                {
                    return;
                }
                let Some(semi) = item.semi_token else { return };
                let parts: Vec<String> = fields
                    .unnamed
                    .iter()
                    .enumerate()
                    .map(|(index, field)| {
                        let attrs: Vec<&str> = field
                            .attrs
                            .iter()
                            .map(|attr| span_text(text, attr.span()))
                            .collect();
                        let ty = span_text(text, field.ty.span());
                        format!(
                            "{}field{index}: {ty}",
                            attrs
                                .iter()
                                .map(|attr| format!("{attr} "))
                                .collect::<String>()
                        )
                    })
                    .collect();
                let mut edits = vec![(
                    range(text, fields.paren_token.span.open()).start..range(text, semi.span).end,
                    format!(" {{ {} }}", parts.join(", ")),
                )];
                let tokens = &self.source.tokens;
                let impls = impl_ranges(self.source, &name);
                for (at, tok) in tokens.iter().enumerate() {
                    // `.0` to `.field0`.
                    if tok.kind == Kind::Literal
                        && at > 0
                        && tokens[at - 1].is_punct('.')
                        && text[tok.at.clone()]
                            .parse::<usize>()
                            .is_ok_and(|index| index < parts.len())
                    {
                        edits.push((tok.at.clone(), format!("field{}", &text[tok.at.clone()])));
                    }
                    // `Name(a, b)` to `Name { field0: a, field1: b }`.
                    let named = tok.is_ident(&name)
                        || (tok.is_ident("Self")
                            && impls.iter().any(|range| range.contains(&tok.at.start)));
                    if named
                        && tokens
                            .get(at + 1)
                            .is_some_and(|next| next.kind == Kind::Open('('))
                        && !(at > 0 && tokens[at - 1].is_ident("struct"))
                    {
                        let open = at + 1;
                        let close = group_end(tokens, open);
                        let values: Vec<String> = entries(tokens, open)
                            .into_iter()
                            .enumerate()
                            .map(|(index, entry)| {
                                format!(
                                    "field{index}: {}",
                                    &text[tokens[entry.start].at.start
                                        ..tokens[entry.end - 1].at.end]
                                )
                            })
                            .collect();
                        edits.push((
                            tokens[open].at.start..tokens[close].at.end,
                            format!(" {{ {} }}", values.join(", ")),
                        ));
                    }
                }
                self.push(
                    "private-field-shape",
                    line,
                    &format!("{name} with named fields"),
                    &edits,
                );
            }
            syn::Fields::Unit => {}
        }
    }
}

impl<'a> Visit<'a> for Finder<'a> {
    fn visit_item_impl(&mut self, item: &'a syn::ItemImpl) {
        let text = self.text();
        let line = item.impl_token.span.start().line;
        let header = one_line(span_text(text, item.self_ty.span()));
        self.impl_lifetimes(item);
        self.bounds_and_where(
            &item.generics,
            range(text, item.self_ty.span()).end,
            line,
            &format!("impl for {header}"),
        );
        self.impl_implied(item);
        self.split_impl(item);
        for member in &item.items {
            match member {
                syn::ImplItem::Fn(function) => {
                    let mut types: Vec<&syn::Type> = function
                        .sig
                        .inputs
                        .iter()
                        .filter_map(|input| match input {
                            syn::FnArg::Typed(typed) => Some(typed.ty.as_ref()),
                            syn::FnArg::Receiver(_) => None,
                        })
                        .collect();
                    if let syn::ReturnType::Type(_, ty) = &function.sig.output {
                        types.push(ty);
                    }
                    self.self_and_name(
                        item,
                        range(text, function.sig.span()),
                        &format!("fn {}", function.sig.ident),
                        types,
                    );
                }
                syn::ImplItem::Const(constant) => self.self_and_name(
                    item,
                    range(text, constant.ty.span()),
                    &format!("const {}", constant.ident),
                    vec![&constant.ty],
                ),
                _ => {}
            }
        }
        self.impl_stack.push(item);
        syn::visit::visit_item_impl(self, item);
        self.impl_stack.pop();
    }

    fn visit_impl_item_fn(&mut self, function: &'a syn::ImplItemFn) {
        let text = self.text();
        let context = FnContext {
            sig: &function.sig,
            body: Some(range(text, function.block.span())),
            in_trait: self
                .impl_stack
                .last()
                .is_some_and(|item| item.trait_.is_some()),
        };
        self.fn_signature(&context);
        syn::visit::visit_impl_item_fn(self, function);
    }

    fn visit_item_fn(&mut self, function: &'a syn::ItemFn) {
        let text = self.text();
        let saved = std::mem::take(&mut self.impl_stack);
        let context = FnContext {
            sig: &function.sig,
            body: Some(range(text, function.block.span())),
            in_trait: false,
        };
        self.fn_signature(&context);
        syn::visit::visit_item_fn(self, function);
        self.impl_stack = saved;
    }

    fn visit_item_trait(&mut self, item: &'a syn::ItemTrait) {
        let saved = std::mem::take(&mut self.impl_stack);
        syn::visit::visit_item_trait(self, item);
        self.impl_stack = saved;
    }

    fn visit_trait_item_fn(&mut self, function: &'a syn::TraitItemFn) {
        let text = self.text();
        let context = FnContext {
            sig: &function.sig,
            body: function
                .default
                .as_ref()
                .map(|block| range(text, block.span())),
            in_trait: true,
        };
        self.fn_signature(&context);
        syn::visit::visit_trait_item_fn(self, function);
    }

    fn visit_item_struct(&mut self, item: &'a syn::ItemStruct) {
        let text = self.text();
        if let (syn::Fields::Named(_), Some(gt)) = (&item.fields, item.generics.gt_token) {
            self.bounds_and_where(
                &item.generics,
                range(text, gt.span).end,
                item.ident.span().start().line,
                &format!("struct {}", item.ident),
            );
        }
        self.field_shape(item);
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'a syn::ItemEnum) {
        let text = self.text();
        if let Some(gt) = item.generics.gt_token {
            self.bounds_and_where(
                &item.generics,
                range(text, gt.span).end,
                item.ident.span().start().line,
                &format!("enum {}", item.ident),
            );
        }
        syn::visit::visit_item_enum(self, item);
    }
}

impl<'a> Finder<'a> {
    fn fn_signature(&mut self, context: &FnContext<'a>) {
        let text = self.text();
        let sig = context.sig;
        self.fn_lifetimes(context);
        self.bounds_and_where(
            &sig.generics,
            signature_end(text, sig),
            sig.ident.span().start().line,
            &format!("fn {}", sig.ident),
        );
        if !context.in_trait {
            self.fn_implied(sig);
        }
    }
}

// ---------------------------------------------------------------------------
// move-module

fn move_module(sources: &[Source], out: &mut Vec<Rewrite>) {
    for source in sources {
        let Some((name, parent_path)) = source.module.split_last() else {
            continue;
        };
        let Some(parent) = sources.iter().find(|other| other.module == parent_path) else {
            continue;
        };
        let Some(declaration) = parent.syntax.items.iter().find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == name && module.content.is_none() => {
                Some(module)
            }
            _ => None,
        }) else {
            continue;
        };
        if is_pub(&declaration.vis) {
            continue;
        }
        let text = &source.text;
        // Its items into a new private submodule, used back.
        let start = source
            .syntax
            .attrs
            .iter()
            .map(|attr| range(text, attr.span()).end)
            .max()
            .unwrap_or(0);
        let moved = format!(
            "{}\n\n#[allow(unused_imports)]\npub use self::moved::*;\n\nmod moved {{\n{}\n}}\n",
            &text[..start],
            text[start..].trim_matches('\n')
        );
        out.push(rewrite(
            "move-module",
            &source.file,
            1,
            &format!("{name}'s items into {name}::moved"),
            vec![(source.file.clone(), moved)],
        ));
        // The module written inline in its parent.
        let Some(semi) = declaration.semi else {
            continue;
        };
        let at = range(&parent.text, semi.span);
        let inline = apply(
            &parent.text,
            &[(at, format!(" {{\n{}\n}}", text.trim_end()))],
        );
        out.push(rewrite(
            "move-module",
            &parent.file,
            declaration.mod_token.span.start().line,
            &format!("mod {name} inline"),
            vec![(parent.file.clone(), inline)],
        ));
    }
}

// ---------------------------------------------------------------------------
// drop-optional, add-allowed, allowed-replacement: what the manifest says.

/// An `impl TRAIT for TYPE ...` line: the trait's name, the type's head
/// (its name, or `(` for a tuple, `&` for a reference) and the number of
/// its arguments (a tuple's elements).
fn impl_line(line: &str) -> Option<(String, String, usize)> {
    let rest = line.strip_prefix("unsafe ").unwrap_or(line);
    let rest = rest.strip_prefix("impl ")?;
    let (trait_part, ty) = rest.split_once(" for ")?;
    let trait_name = trait_part
        .split('<')
        .next()?
        .trim()
        .trim_start_matches('!')
        .to_owned();
    let ty = ty.split(" where ").next()?.split(" { ").next()?.trim();
    let top_level_commas = |inner: &str| {
        let mut depth = 0i32;
        let mut count = 0;
        for c in inner.chars() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 0 => count += 1,
                _ => {}
            }
        }
        count
    };
    if let Some(inner) = ty.strip_prefix('(').and_then(|ty| ty.strip_suffix(')')) {
        let inner = inner.trim().trim_end_matches(',');
        let count = if inner.is_empty() {
            0
        } else {
            top_level_commas(inner) + 1
        };
        return Some((trait_name, "(".to_owned(), count));
    }
    if ty.starts_with('&') || ty.starts_with('[') {
        return Some((trait_name, ty.chars().next()?.to_string(), 0));
    }
    match ty.split_once('<') {
        Some((head, args)) => {
            let args = args.strip_suffix('>')?;
            Some((trait_name, head.to_owned(), top_level_commas(args) + 1))
        }
        None => Some((trait_name, ty.to_owned(), 0)),
    }
}

/// The arguments of the `<...>` opened at `lt`: each one's token range,
/// and the index of the closing `>`.
fn angle_args(tokens: &[Tok], lt: usize) -> Option<(Vec<Range<usize>>, usize)> {
    if !tokens.get(lt)?.is_punct('<') {
        return None;
    }
    let mut depth = 0i32;
    let mut args = Vec::new();
    let mut start = lt + 1;
    let mut at = lt;
    while at < tokens.len() {
        match &tokens[at].kind {
            Kind::Open(_) => {
                at = group_end(tokens, at);
            }
            Kind::Close(_) => return None,
            Kind::Punct('<') => depth += 1,
            Kind::Punct('>') if !(at > 0 && tokens[at - 1].is_punct('-')) => {
                depth -= 1;
                if depth == 0 {
                    if start < at {
                        args.push(start..at);
                    }
                    return Some((args, at));
                }
            }
            Kind::Punct(',') if depth == 1 => {
                args.push(start..at);
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// The local `macro_rules!` whose bodies write an impl of `trait_name`.
fn macros_writing(sources: &[Source], trait_name: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for source in sources {
        let mut all = Vec::new();
        collect_items(&source.syntax.items, &mut all);
        for item in all {
            if let syn::Item::Macro(item) = item
                && item.mac.path.is_ident("macro_rules")
                && let Some(ident) = &item.ident
                && tokens_of(&item.mac.tokens.to_string())
                    .iter()
                    .any(|tok| tok.is_ident(trait_name))
            {
                out.insert(ident.to_string());
            }
        }
    }
    out
}

/// The invocations `name!(...)` in a file: the index of the macro's name
/// and of the group's opening token.
fn invocations(tokens: &[Tok], names: &BTreeSet<String>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, tok) in tokens.iter().enumerate() {
        if let Some(ident) = tok.ident()
            && names.contains(ident)
            && tokens.get(at + 1).is_some_and(|next| next.is_punct('!'))
            && tokens
                .get(at + 2)
                .is_some_and(|next| matches!(next.kind, Kind::Open(_)))
            && !(at > 0 && tokens[at - 1].is_ident("macro_rules"))
        {
            out.push((at, at + 2));
        }
    }
    out
}

/// The edit that removes entry `index` of `entries` (with its comma).
fn remove_entry(tokens: &[Tok], entries: &[Range<usize>], index: usize, close: usize) -> Edit {
    let entry = &entries[index];
    let start = tokens[entry.start].at.start;
    if index + 1 < entries.len() {
        (
            start..tokens[entries[index + 1].start].at.start,
            String::new(),
        )
    } else if index > 0 {
        // The last one: from the end of the one before.
        let before = tokens[entries[index - 1].end - 1].at.end;
        let end = if tokens.get(entry.end).is_some_and(|tok| tok.is_punct(',')) && entry.end < close
        {
            tokens[entry.end].at.end
        } else {
            tokens[entry.end - 1].at.end
        };
        (before..end, String::new())
    } else {
        (start..tokens[close].at.start, String::new())
    }
}

fn drop_optional(sources: &[Source], facts: &Facts, surface: &SurfaceSpec, out: &mut Vec<Rewrite>) {
    for line in &surface.optional {
        let Some((trait_name, head, count)) = impl_line(line) else {
            continue;
        };
        let short = one_line(line);
        for source in sources {
            let text = &source.text;
            let tokens = &source.tokens;
            // An impl item.
            let mut all = Vec::new();
            collect_items(&source.syntax.items, &mut all);
            for item in &all {
                let syn::Item::Impl(item) = item else {
                    continue;
                };
                let Some((_, path, _)) = &item.trait_ else {
                    continue;
                };
                if path
                    .segments
                    .last()
                    .is_none_or(|last| last.ident != trait_name)
                {
                    continue;
                }
                let matches = match item.self_ty.as_ref() {
                    syn::Type::Tuple(tuple) => head == "(" && tuple.elems.len() == count,
                    syn::Type::Path(path) => path.path.segments.last().is_some_and(|last| {
                        last.ident == head
                            && match &last.arguments {
                                syn::PathArguments::AngleBracketed(args) => {
                                    args.args.len() == count
                                }
                                _ => count == 0,
                            }
                    }),
                    _ => false,
                };
                if matches {
                    let at = range(text, item.span());
                    out.push(rewrite(
                        "drop-optional",
                        &source.file,
                        line_of(text, at.start),
                        &short,
                        vec![(source.file.clone(), apply(text, &[(at, String::new())]))],
                    ));
                }
            }
            // A derive, unless the crate itself uses it (`Type::default()`).
            let used = sources.iter().any(|source| {
                let tokens = &source.tokens;
                tokens.iter().enumerate().any(|(at, tok)| {
                    tok.is_ident(&head)
                        && is_path_sep(tokens, at + 1)
                        && tokens.get(at + 3).is_some_and(|next| {
                            next.ident().is_some_and(|name| {
                                name == trait_name.to_lowercase()
                                    || (trait_name == "Clone" && name == "clone")
                            })
                        })
                })
            });
            if !used
                && facts
                    .derives
                    .get(&head)
                    .is_some_and(|derives| derives.contains(&trait_name))
            {
                for item in &all {
                    let (ident, attrs) = match item {
                        syn::Item::Struct(item) => (&item.ident, &item.attrs),
                        syn::Item::Enum(item) => (&item.ident, &item.attrs),
                        _ => continue,
                    };
                    if *ident != head {
                        continue;
                    }
                    for attr in attrs.iter().filter(|attr| attr.path().is_ident("derive")) {
                        let at = range(text, attr.span());
                        let open = token_at(tokens, at.start);
                        let Some(group) = (open..tokens.len()).find(|&index| {
                            tokens[index].kind == Kind::Open('(') && tokens[index].at.start < at.end
                        }) else {
                            continue;
                        };
                        let close = group_end(tokens, group);
                        let list = entries(tokens, group);
                        if let Some(index) = list
                            .iter()
                            .position(|entry| tokens[entry.end - 1].is_ident(&trait_name))
                        {
                            let edit = remove_entry(tokens, &list, index, close);
                            out.push(rewrite(
                                "drop-optional",
                                &source.file,
                                line_of(text, at.start),
                                &short,
                                vec![(source.file.clone(), apply(text, &[edit]))],
                            ));
                        }
                    }
                }
            }
            // An argument of a macro that writes impls of the trait.
            let names = macros_writing(sources, &trait_name);
            for (name_at, open) in invocations(tokens, &names) {
                let close = group_end(tokens, open);
                let list = entries(tokens, open);
                if head == "(" {
                    // A tuple's impl: an invocation of `count` names.
                    if list.len() == 1
                        && list[0].len() == count
                        && tokens[list[0].clone()]
                            .iter()
                            .all(|tok| tok.ident().is_some())
                    {
                        let mut end = close + 1;
                        if tokens.get(end).is_some_and(|tok| tok.is_punct(';')) {
                            end += 1;
                        }
                        let at = tokens[name_at].at.start..tokens[end - 1].at.end;
                        out.push(rewrite(
                            "drop-optional",
                            &source.file,
                            line_of(text, at.start),
                            &short,
                            vec![(source.file.clone(), apply(text, &[(at, String::new())]))],
                        ));
                    }
                    continue;
                }
                for (index, entry) in list.iter().enumerate() {
                    // `path::Head` or `Head<args>`.
                    let entry_tokens = &tokens[entry.clone()];
                    let head_at = entry_tokens.iter().position(|tok| tok.is_ident(&head));
                    let Some(head_at) = head_at else { continue };
                    let arguments = match angle_args(tokens, entry.start + head_at + 1) {
                        Some((args, _)) => args.len(),
                        None => 0,
                    };
                    let tail_ok = entry.start + head_at + 1 == entry.end
                        || angle_args(tokens, entry.start + head_at + 1)
                            .is_some_and(|(_, gt)| gt + 1 == entry.end);
                    if arguments != count || !tail_ok {
                        continue;
                    }
                    let edit = remove_entry(tokens, &list, index, close);
                    out.push(rewrite(
                        "drop-optional",
                        &source.file,
                        line_of(text, tokens[entry.start].at.start),
                        &short,
                        vec![(source.file.clone(), apply(text, &[edit]))],
                    ));
                }
            }
        }
    }
}

/// The derivable traits, with the traits each needs.
const DERIVABLE: &[(&str, &[&str])] = &[
    ("Debug", &[]),
    ("Clone", &[]),
    ("Copy", &["Clone"]),
    ("PartialEq", &[]),
    ("Eq", &["PartialEq"]),
    ("PartialOrd", &["PartialEq"]),
    ("Ord", &["Eq", "PartialOrd", "PartialEq"]),
    ("Hash", &[]),
    ("Default", &[]),
];

/// Whether a std type (by its name) has `trait_name`, for a derive on a
/// struct that holds it.
fn std_has(trait_name: &str, ty: &str) -> bool {
    const INTEGERS: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    let float = ["f32", "f64"].contains(&ty);
    let plain = INTEGERS.contains(&ty) || ["bool", "char", "String", "str"].contains(&ty);
    let containers = ["Vec", "Option", "Box", "VecDeque", "BTreeMap", "BTreeSet"].contains(&ty);
    let values = [
        "Ipv4Addr",
        "Ipv6Addr",
        "IpAddr",
        "Duration",
        "NonZeroU16",
        "NonZeroUsize",
        "NonZeroU32",
        "NonZeroU64",
        "NonZeroU8",
    ]
    .contains(&ty);
    match trait_name {
        "Default" => plain || float || containers || ty == "Duration",
        "Debug" | "Clone" | "PartialEq" | "PartialOrd" => plain || float || containers || values,
        "Copy" => (plain && ty != "String" && ty != "str") || float || values || ty == "Option",
        _ => plain || containers || values,
    }
}

fn add_allowed(sources: &[Source], facts: &Facts, surface: &SurfaceSpec, out: &mut Vec<Rewrite>) {
    let has = |trait_name: &str, ty: &str, adding: &[&str]| -> bool {
        adding.contains(&trait_name)
            || facts
                .derives
                .get(ty)
                .is_some_and(|derives| derives.iter().any(|derive| derive == trait_name))
            || surface
                .api
                .iter()
                .any(|line| *line == format!("impl {trait_name} for {ty}"))
    };
    let allowed = |trait_name: &str, ty: &str| {
        surface
            .allow
            .iter()
            .any(|(item, _)| *item == format!("impl {trait_name} for {ty}"))
    };
    for (item, _) in &surface.allow {
        let Some((trait_name, ty, 0)) = impl_line(item) else {
            continue;
        };
        if item != &format!("impl {trait_name} for {ty}") || has(&trait_name, &ty, &[]) {
            continue;
        }
        let Some((_, needs)) = DERIVABLE.iter().find(|(name, _)| *name == trait_name) else {
            continue;
        };
        // The traits to add: this one, and those it needs that are allowed
        // and missing.
        let mut adding: Vec<&str> = vec![trait_name.as_str()];
        let mut possible = true;
        for need in *needs {
            if has(need, &ty, &[]) {
                continue;
            }
            if allowed(need, &ty) {
                adding.push(need);
            } else {
                possible = false;
            }
        }
        if !possible {
            continue;
        }
        for source in sources {
            let text = &source.text;
            let mut all = Vec::new();
            collect_items(&source.syntax.items, &mut all);
            for found in all {
                let (ident, attrs, generics, field_types, start, default_ok) = match found {
                    syn::Item::Struct(found) => (
                        &found.ident,
                        &found.attrs,
                        &found.generics,
                        found
                            .fields
                            .iter()
                            .map(|field| &field.ty)
                            .collect::<Vec<_>>(),
                        match &found.vis {
                            syn::Visibility::Inherited => found.struct_token.span,
                            vis => vis.span(),
                        },
                        true,
                    ),
                    syn::Item::Enum(found) => (
                        &found.ident,
                        &found.attrs,
                        &found.generics,
                        found
                            .variants
                            .iter()
                            .flat_map(|variant| variant.fields.iter().map(|field| &field.ty))
                            .collect(),
                        match &found.vis {
                            syn::Visibility::Inherited => found.enum_token.span,
                            vis => vis.span(),
                        },
                        false,
                    ),
                    _ => continue,
                };
                if *ident != ty || !generics.params.is_empty() {
                    continue;
                }
                if adding.contains(&"Default") && !default_ok {
                    continue;
                }
                // Every field's types must have each trait added.
                let fields_ok = field_types.iter().all(|field| {
                    let mut names = Vec::new();
                    struct Names<'n>(&'n mut Vec<String>);
                    impl<'ast> Visit<'ast> for Names<'_> {
                        fn visit_path_segment(&mut self, segment: &'ast syn::PathSegment) {
                            self.0.push(segment.ident.to_string());
                            syn::visit::visit_path_segment(self, segment);
                        }
                    }
                    Names(&mut names).visit_type(field);
                    // Only the last segment of each path names a type:
                    // keep the names that are types of the crate or std's.
                    adding.iter().all(|trait_name| {
                        names.iter().all(|name| {
                            if facts.derives.contains_key(name) {
                                has(trait_name, name, if *name == ty { &adding } else { &[] })
                            } else {
                                std_has(trait_name, name)
                                    || name.chars().next().is_some_and(char::is_lowercase)
                                        && ![
                                            "u8", "u16", "u32", "u64", "u128", "usize", "i8",
                                            "i16", "i32", "i64", "i128", "isize", "f32", "f64",
                                            "bool", "char", "str",
                                        ]
                                        .contains(&name.as_str())
                            }
                        })
                    })
                });
                if !fields_ok {
                    continue;
                }
                let list = adding.iter().rev().copied().collect::<Vec<_>>().join(", ");
                let edit = match attrs.iter().find(|attr| attr.path().is_ident("derive")) {
                    Some(attr) => {
                        let at = range(text, attr.span());
                        let close = text[..at.end].rfind(')').unwrap_or(at.end);
                        (close..close, format!(", {list}"))
                    }
                    None => {
                        let at = range(text, start).start;
                        let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
                        let indent = &text[line_start..at];
                        (at..at, format!("#[derive({list})]\n{indent}"))
                    }
                };
                out.push(rewrite(
                    "add-allowed",
                    &source.file,
                    ident.span().start().line,
                    &format!("derive {list} for {ty}"),
                    vec![(source.file.clone(), apply(text, &[edit]))],
                ));
            }
        }
    }
}

fn allowed_replacements(sources: &[Source], surface: &SurfaceSpec, out: &mut Vec<Rewrite>) {
    for (item, replaces) in &surface.allow {
        if replaces.is_empty() {
            continue;
        }
        let short = one_line(item);
        if let [replaced] = replaces.as_slice() {
            flip_predicate(sources, item, replaced, &short, out);
            drop_type_argument(sources, item, replaced, &short, out);
            const_fn(sources, item, replaced, &short, out);
        }
        generic_method(sources, item, replaces, &short, out);
    }
}

/// `impl Tr<T0> for X where Y: Tr<T0>` written `where T0: Mirror<Y>`: each
/// predicate `A: path::Tr<B>` of an impl of `Tr` becomes
/// `B: path::Mirror<A>`, in code and in macro bodies.
fn flip_predicate(
    sources: &[Source],
    item: &str,
    replaced: &str,
    short: &str,
    out: &mut Vec<Rewrite>,
) {
    let (Some((head, wanted)), Some((replaced_head, original))) =
        (item.split_once(" where "), replaced.split_once(" where "))
    else {
        return;
    };
    if head != replaced_head {
        return;
    }
    let parse = |predicate: &str| -> Option<(String, String, String)> {
        let (bounded, bound) = predicate.split_once(": ")?;
        let (trait_name, arg) = bound.strip_suffix('>')?.split_once('<')?;
        Some((bounded.to_owned(), trait_name.to_owned(), arg.to_owned()))
    };
    let (Some((a, from, b)), Some((b2, to, a2))) = (parse(original), parse(wanted)) else {
        return;
    };
    if a != a2 || b != b2 {
        return;
    }
    let Some((impl_trait, _, _)) = impl_line(replaced) else {
        return;
    };
    for source in sources {
        let tokens = &source.tokens;
        let text = &source.text;
        for (at, tok) in tokens.iter().enumerate() {
            if !tok.is_ident(&from) || !tokens.get(at + 1).is_some_and(|next| next.is_punct('<')) {
                continue;
            }
            let Some((args, gt)) = angle_args(tokens, at + 1) else {
                continue;
            };
            if args.len() != 1 {
                continue;
            }
            // Back over the path to the colon and the bounded type.
            let mut start = at;
            while after_path_sep(tokens, start) && start >= 3 {
                start -= 3;
                if start > 0 && tokens[start - 1].is_punct('$') {
                    start -= 1;
                }
            }
            if start < 2 || !tokens[start - 1].is_punct(':') || tokens[start - 1].joint {
                continue;
            }
            let mut bounded = start - 2;
            if bounded > 0 && tokens[bounded - 1].is_punct('$') {
                bounded -= 1;
            }
            let before = bounded.checked_sub(1).map(|at| &tokens[at]);
            if !before.is_some_and(|before| before.is_ident("where") || before.is_punct(',')) {
                continue;
            }
            // In an impl of the trait.
            let Some(impl_at) = (0..bounded)
                .rev()
                .find(|&back| tokens[back].is_ident("impl"))
            else {
                continue;
            };
            let Some(for_at) = (impl_at..bounded).find(|&index| tokens[index].is_ident("for"))
            else {
                continue;
            };
            if !tokens[impl_at..for_at]
                .iter()
                .any(|tok| tok.is_ident(&impl_trait))
            {
                continue;
            }
            let bounded_text = &text[tokens[bounded].at.start..tokens[start - 2].at.end];
            let prefix = &text[tokens[start].at.start..tokens[at].at.start];
            let arg = &text[tokens[args[0].start].at.start..tokens[args[0].end - 1].at.end];
            let whole = tokens[bounded].at.start..tokens[gt].at.end;
            let replacement = format!("{arg}: {prefix}{to}<{bounded_text}>");
            out.push(rewrite(
                "allowed-replacement",
                &source.file,
                line_of(text, whole.start),
                &format!("`{}` for `{short}`", one_line(&replacement)),
                vec![(source.file.clone(), apply(text, &[(whole, replacement)]))],
            ));
        }
    }
}

/// `impl Tr for Map<T0, T1>` for `impl Tr for Map<T0, T1, T2>`: the
/// type's last argument dropped where the impl is written.
fn drop_type_argument(
    sources: &[Source],
    item: &str,
    replaced: &str,
    short: &str,
    out: &mut Vec<Rewrite>,
) {
    let (Some((trait_name, head, count)), Some((replaced_trait, replaced_head, replaced_count))) =
        (impl_line(item), impl_line(replaced))
    else {
        return;
    };
    if trait_name != replaced_trait
        || head != replaced_head
        || count + 1 != replaced_count
        || count == 0
    {
        return;
    }
    for source in sources {
        let tokens = &source.tokens;
        let text = &source.text;
        for (at, tok) in tokens.iter().enumerate() {
            if !tok.is_ident(&head) {
                continue;
            }
            let Some((args, _)) = angle_args(tokens, at + 1) else {
                continue;
            };
            if args.len() != replaced_count {
                continue;
            }
            let removed =
                tokens[args[count - 1].end - 1].at.end..tokens[args[count].end - 1].at.end;
            out.push(rewrite(
                "allowed-replacement",
                &source.file,
                line_of(text, tok.at.start),
                &format!("`{short}`"),
                vec![(
                    source.file.clone(),
                    apply(text, &[(removed, String::new())]),
                )],
            ));
        }
    }
}

/// `const fn X::new(..)` for `fn X::new(..)`, where the body is plain
/// enough to be `const` as it is.
fn const_fn(sources: &[Source], item: &str, replaced: &str, short: &str, out: &mut Vec<Rewrite>) {
    if item.strip_prefix("const ") != Some(replaced) {
        return;
    }
    let Some(path) = replaced
        .strip_prefix("fn ")
        .and_then(|rest| rest.split('(').next())
    else {
        return;
    };
    let Some((owner, method)) = path.rsplit_once("::") else {
        return;
    };
    let owner = owner.split('<').next().unwrap_or(owner);
    for source in sources {
        let text = &source.text;
        let mut all = Vec::new();
        collect_items(&source.syntax.items, &mut all);
        for found in all {
            let syn::Item::Impl(found) = found else {
                continue;
            };
            if found.trait_.is_some()
                || !matches!(found.self_ty.as_ref(), syn::Type::Path(ty)
                    if ty.path.segments.last().is_some_and(|last| last.ident == owner))
            {
                continue;
            }
            for member in &found.items {
                let syn::ImplItem::Fn(function) = member else {
                    continue;
                };
                if function.sig.ident != method || function.sig.constness.is_some() {
                    continue;
                }
                let body = tokens_of(span_text(text, function.block.span()));
                let plain = !body.iter().any(|tok| {
                    tok.is_punct('|')
                        || tok.is_punct('?')
                        || tok.is_ident("for")
                        || tok.is_ident("map")
                });
                if !plain {
                    continue;
                }
                let at = range(text, function.sig.fn_token.span).start;
                out.push(rewrite(
                    "allowed-replacement",
                    &source.file,
                    function.sig.ident.span().start().line,
                    &format!("`{short}`"),
                    vec![(
                        source.file.clone(),
                        apply(text, &[(at..at, "const ".to_owned())]),
                    )],
                ));
            }
        }
    }
}

/// `fn Type<T0>::m(..) where T0: Seal` for `fn Type<A>::m(..)` and
/// `fn Type<B>::m(..)`: the methods of each state become one generic
/// method over a sealed trait that each of those states implements with
/// the method's body.
fn generic_method(
    sources: &[Source],
    item: &str,
    replaces: &[String],
    short: &str,
    out: &mut Vec<Rewrite>,
) {
    let Some((signature, bound)) = item.split_once(" where ") else {
        return;
    };
    let Some((param, seal)) = bound.split_once(": ") else {
        return;
    };
    if seal.contains(|c: char| !c.is_alphanumeric() && c != '_') {
        return;
    }
    let Some(rest) = signature.strip_prefix("fn ") else {
        return;
    };
    let Some((owner, tail)) = rest.split_once(&format!("<{param}>::")) else {
        return;
    };
    let Some((method, _)) = tail.split_once('(') else {
        return;
    };
    // Each replaced line names one state.
    let mut states = Vec::new();
    for line in replaces {
        let Some((state, after)) = line
            .strip_prefix(&format!("fn {owner}<"))
            .and_then(|rest| rest.split_once(">::"))
        else {
            return;
        };
        if after != tail {
            return;
        }
        let state = state.to_owned();
        states.push(state);
    }
    for source in sources {
        let text = &source.text;
        let mut found = Vec::new();
        for entry in &source.syntax.items {
            let syn::Item::Impl(imp) = entry else {
                continue;
            };
            let syn::Type::Path(ty) = imp.self_ty.as_ref() else {
                continue;
            };
            let Some(last) = ty.path.segments.last() else {
                continue;
            };
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                continue;
            };
            if imp.trait_.is_some() || last.ident != owner || args.args.len() != 1 {
                continue;
            }
            let state = tokens_text(&args.args[0]);
            if !states.contains(&state) {
                continue;
            }
            for member in &imp.items {
                if let syn::ImplItem::Fn(function) = member
                    && function.sig.ident == method
                {
                    found.push((state.clone(), function));
                }
            }
        }
        if found.len() != states.len() {
            continue;
        }
        let first = found[0].1;
        let sig = &first.sig;
        if found
            .iter()
            .any(|(_, function)| tokens_text(&function.sig) != tokens_text(sig))
            || !matches!(sig.inputs.first(), Some(syn::FnArg::Receiver(receiver)) if receiver.reference.is_none())
            || !sig.generics.params.is_empty()
        {
            continue;
        }
        // The other arguments, forwarded by name.
        let mut names = Vec::new();
        let mut declared = Vec::new();
        for input in sig.inputs.iter().skip(1) {
            let syn::FnArg::Typed(typed) = input else {
                return;
            };
            let syn::Pat::Ident(ident) = typed.pat.as_ref() else {
                return;
            };
            names.push(ident.ident.to_string());
            declared.push(format!(
                "{}: {}",
                ident.ident,
                span_text(text, typed.ty.span())
            ));
        }
        let output = match &sig.output {
            syn::ReturnType::Default => String::new(),
            syn::ReturnType::Type(_, ty) => format!(" -> {}", span_text(text, ty.span())),
        };
        let mut edits: Vec<Edit> = found
            .iter()
            .map(|(_, function)| (range(text, function.span()), String::new()))
            .collect();
        let function_name = format!("{method}_of_state");
        let mut added = format!(
            "\nmod sealed_{method} {{\n    /// What each state does when its {owner} is asked to `{method}`.\n    pub trait {seal} {{\n        fn {function_name}(this: super::{owner}<Self>{}){output}\n        where\n            Self: Sized;\n    }}\n}}\n",
            declared
                .iter()
                .map(|arg| format!(", {arg}"))
                .collect::<String>()
        );
        for (state, function) in &found {
            let body = span_text(text, function.block.span());
            let body_tokens = tokens_of(body);
            let body_edits: Vec<Edit> = body_tokens
                .iter()
                .enumerate()
                .filter(|(at, tok)| tok.is_ident("self") && !is_path_sep(&body_tokens, at + 1))
                .map(|(_, tok)| (tok.at.clone(), "this".to_owned()))
                .collect();
            added.push_str(&format!(
                "\nimpl sealed_{method}::{seal} for {state} {{\n    fn {function_name}(this: {owner}<{state}>{}){output} {}\n}}\n",
                declared.iter().map(|arg| format!(", {arg}")).collect::<String>(),
                apply(body, &body_edits)
            ));
        }
        let docs: Vec<&str> = first
            .attrs
            .iter()
            .map(|attr| span_text(text, attr.span()))
            .collect();
        added.push_str(&format!(
            "\nimpl<S> {owner}<S>\nwhere\n    S: sealed_{method}::{seal},\n{{\n    {}\n    {} {{\n        S::{function_name}(self{})\n    }}\n}}\n",
            docs.join("\n    "),
            {
                let end = range(text, sig.span()).end;
                let start = match &first.vis {
                    syn::Visibility::Inherited => range(text, sig.span()).start,
                    vis => range(text, vis.span()).start,
                };
                &text[start..end]
            },
            names.iter().map(|name| format!(", {name}")).collect::<String>()
        ));
        let end = text.len();
        edits.push((end..end, added));
        out.push(rewrite(
            "allowed-replacement",
            &source.file,
            sig.ident.span().start().line,
            &format!("`{short}`"),
            vec![(source.file.clone(), apply(text, &edits))],
        ));
    }
}

// ---------------------------------------------------------------------------
// The pass's results.

/// How one rewrite was graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It does not compile: the operator is wrong.
    Unviable,
    /// Some case failed (these): a false failure of the grading.
    FalseFailure(Vec<String>),
    /// Full marks, as every rewrite must.
    FullMarks,
}

/// Every `step`-th rewrite, starting with the first: a sample spread over
/// the operators and the files.
pub fn sample(rewrites: Vec<Rewrite>, count: usize) -> Vec<Rewrite> {
    if count == 0 || rewrites.len() <= count {
        return rewrites;
    }
    let step = rewrites.len().div_ceil(count);
    rewrites.into_iter().step_by(step).collect()
}

/// The markers around the generated section of ROUTES.md.
pub const ROUTES_START: &str = "<!-- equivalents: generated, do not edit by hand -->";
/// See [`ROUTES_START`].
pub const ROUTES_END: &str = "<!-- end of equivalents -->";

/// The generated part of an exercise's ROUTES.md: the counts of the last
/// pass, per operator, and its false failures.
pub fn routes_section(
    date: &str,
    toolchain: &str,
    took: std::time::Duration,
    results: &[(Rewrite, Outcome)],
) -> String {
    use std::fmt::Write as _;
    let mut by_operator: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for (rewrite, outcome) in results {
        let counts = by_operator.entry(rewrite.operator).or_default();
        counts[0] += 1;
        match outcome {
            Outcome::Unviable => {}
            Outcome::FalseFailure(_) => {
                counts[1] += 1;
                counts[3] += 1;
            }
            Outcome::FullMarks => {
                counts[1] += 1;
                counts[2] += 1;
            }
        }
    }
    let mut text = String::new();
    let _ = writeln!(text, "{ROUTES_START}");
    let _ = writeln!(
        text,
        "## Equivalence pass\n\nWritten by `cargo run -p xsafe-grading-proofs --bin equivalents -- EXERCISE --write` ({date}, {toolchain}, {:.0} s). Each rewrite is a correct solution made mechanically from the reference (see `ci/proofs/src/equivalents.rs`): it must score full marks. A viable rewrite that loses marks is a false failure of the grading.\n",
        took.as_secs_f64()
    );
    let _ = writeln!(
        text,
        "| operator | generated | viable | full marks | false failures |"
    );
    let _ = writeln!(text, "| --- | ---: | ---: | ---: | ---: |");
    let mut total = [0usize; 4];
    let order = |operator: &str| OPERATORS.iter().position(|known| *known == operator);
    let mut operators: Vec<(&&str, &[usize; 4])> = by_operator.iter().collect();
    operators.sort_by_key(|(operator, _)| order(operator));
    for (operator, counts) in operators {
        let _ = writeln!(
            text,
            "| `{operator}` | {} | {} | {} | {} |",
            counts[0], counts[1], counts[2], counts[3]
        );
        for (sum, count) in total.iter_mut().zip(counts) {
            *sum += count;
        }
    }
    let _ = writeln!(
        text,
        "| all | {} | {} | {} | {} |",
        total[0], total[1], total[2], total[3]
    );
    let mut listed = |title: &str, keep: &dyn Fn(&Outcome) -> Option<String>| {
        let lines: Vec<String> = results
            .iter()
            .filter_map(|(rewrite, outcome)| {
                keep(outcome).map(|why| format!("- `{}`{why}", rewrite.name))
            })
            .collect();
        if !lines.is_empty() {
            let _ = writeln!(text, "\n{title}:\n");
            for line in lines {
                let _ = writeln!(text, "{line}");
            }
        }
    };
    listed(
        "False failures (the grading's to fix)",
        &|outcome| match outcome {
            Outcome::FalseFailure(cases) => Some(format!(": fails {}", cases.join(", "))),
            _ => None,
        },
    );
    listed("Unviable (the operator's to fix)", &|outcome| {
        (*outcome == Outcome::Unviable).then(String::new)
    });
    let _ = writeln!(text, "{ROUTES_END}");
    text
}

/// `routes` with its generated section replaced by `section` (appended
/// when it has none).
pub fn with_section(routes: &str, section: &str) -> String {
    match (routes.find(ROUTES_START), routes.find(ROUTES_END)) {
        (Some(start), Some(end)) if start < end => format!(
            "{}{}{}",
            &routes[..start],
            section.trim_end(),
            &routes[end + ROUTES_END.len()..]
        ),
        _ => format!("{}\n\n{section}", routes.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
//! A sample crate.

mod inner;

pub use inner::{Set, Token, Unlocked, with, Debt, Plain};

pub trait Marker: sealed::Seal {}
mod sealed { pub trait Seal {} }
"#;

    const INNER: &str = r#"
use std::marker::PhantomData;

pub struct Unlocked;

pub struct Token<'a, S> { state: PhantomData<&'a S> }

impl<'a, S> Token<'a, S> {
    fn make<'b>() -> Token<'b, S> { Token { state: PhantomData } }
}

impl Token<'static, Unlocked> {
    pub fn new() -> Self { Token::make() }
}

pub struct Set<T> { items: Vec<T>, len: usize }

impl<T: Ord> Set<T> {
    pub fn first(&self) -> Option<&T> { self.items.first() }
    pub fn small<'s>(&'s self, limit: usize) -> bool { self.items.len() < limit + self.len }
    pub fn make(items: Vec<T>) -> Set<T> { Set { len: 0, items } }
}

impl<T> Set<T> where T: Clone {
    pub fn copied(&self) -> Vec<T> { self.items.clone() }
}

pub struct Debt<'a, T> { owed: &'a T }

impl<'a, T> Debt<'a, T> {
    pub fn owed(&self) -> &'a T { helper(self.owed) }
}

impl<'a> std::fmt::Debug for Debt<'a, u8> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{}", self.owed) }
}

fn helper<'a, T>(owed: &'a T) -> &'a T { owed }

pub fn with<R>(work: impl FnOnce(&mut Token<'_, Unlocked>) -> R) -> R {
    work(&mut Token::make())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plain { pub a: u8 }

macro_rules! marks { ($($t:ty),*) => { $(impl crate::Marker for $t {} impl crate::sealed::Seal for $t {})* }; }
marks!(u8, u16);
"#;

    /// Each operator writes its rewrite where it applies, and every
    /// rewrite is still Rust that parses.
    #[test]
    fn operators_write_parsable_rewrites() {
        let dir = std::env::temp_dir().join(format!("xsafe-equivalents-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).expect("scratch");
        std::fs::write(dir.join("src/lib.rs"), SAMPLE).expect("source");
        std::fs::write(dir.join("src/inner.rs"), INNER).expect("source");
        let surface = SurfaceSpec {
            api: vec![
                "impl Marker for u16".to_owned(),
                "impl Debug for Plain".to_owned(),
            ],
            allow: vec![
                ("impl Marker for u16".to_owned(), Vec::new()),
                ("impl Hash for Plain".to_owned(), Vec::new()),
                ("impl Ord for Plain".to_owned(), Vec::new()),
                ("impl PartialOrd for Plain".to_owned(), Vec::new()),
            ],
            optional: vec!["impl Marker for u16".to_owned()],
        };
        let rewrites = generate(&dir, &surface);
        let operators: BTreeSet<&str> = rewrites.iter().map(|rewrite| rewrite.operator).collect();
        for operator in OPERATORS {
            if *operator == "allowed-replacement" || *operator == "merge-impls" {
                continue;
            }
            assert!(
                operators.contains(operator),
                "no {operator} rewrite: {operators:?}\n{}",
                rewrites
                    .iter()
                    .map(|rewrite| rewrite.name.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        for rewrite in &rewrites {
            for (file, text) in &rewrite.files {
                syn::parse_file(text).unwrap_or_else(|err| {
                    panic!(
                        "{} does not parse ({}): {err}\n{text}",
                        rewrite.name,
                        file.display()
                    )
                });
            }
        }
        let find = |prefix: &str| {
            rewrites
                .iter()
                .find(|rewrite| rewrite.name.starts_with(prefix))
                .unwrap_or_else(|| {
                    let names: Vec<&str> = rewrites
                        .iter()
                        .map(|rewrite| rewrite.name.as_str())
                        .collect();
                    panic!("no rewrite `{prefix}...` among:\n{}", names.join("\n"))
                })
        };
        let text = |rewrite: &Rewrite| rewrite.files[0].1.clone();
        assert!(
            text(find("explicit-lifetimes src/inner.rs:19 fn first"))
                .contains("fn first<'s>(&'s self) -> Option<&'s T>")
        );
        assert!(
            text(find("elide-lifetimes src/inner.rs:20 fn small"))
                .contains("fn small(&self, limit: usize)")
        );
        assert!(
            text(find("bounds-to-where src/inner.rs:18")).contains("impl<T> Set<T> where T: Ord {")
        );
        assert!(text(find("where-to-bounds src/inner.rs:24")).contains("impl<T: Clone> Set<T>"));
        assert!(text(find("name-to-self src/inner.rs:21")).contains("-> Self {"));
        assert!(text(find("implied-bounds src/inner.rs:30")).contains("where T: 'a"));
        assert!(
            text(find("explicit-lifetimes src/inner.rs:40 fn with: FnOnce"))
                .contains("for<'a, 'b> FnOnce(&'a mut Token<'b, Unlocked>)")
        );
        assert!(
            text(find("add-allowed src/inner.rs:45 derive Hash"))
                .contains("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]")
        );
        assert!(text(find("drop-optional src/inner.rs:48")).contains("marks!(u8);"));
        let renamed = find("rename-private src/lib.rs:9 type Seal");
        assert!(
            renamed
                .files
                .iter()
                .all(|(_, text)| !text.contains("::Seal")
                    && !text.contains("trait Seal")
                    && text.contains("RenamedSeal")),
            "{renamed:?}"
        );
        let field = find("rename-private src/inner.rs:16 field items");
        assert!(
            text(field).contains("Set { len: 0, renamed_items: items }"),
            "{}",
            text(field)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The manifest's replacements are written where the reference has
    /// the replaced form.
    #[test]
    fn allowed_replacements_are_written() {
        let dir =
            std::env::temp_dir().join(format!("xsafe-equivalents-replaces-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).expect("scratch");
        std::fs::write(
            dir.join("src/lib.rs"),
            r#"
pub struct Socket<S> { state: S }
pub struct Bound { local: u8 }
pub struct Connected { local: u8 }
impl Socket<Bound> {
    /// Closes.
    pub fn close(self) { drop(self.state.local) }
}
impl Socket<Connected> {
    /// Closes.
    pub fn close(self) { drop(self.state.local) }
}
pub struct Port(u16);
impl Port {
    pub fn new(number: u16) -> Option<Self> { if number == 0 { None } else { Some(Port(number)) } }
}
pub unsafe trait After<A> {}
pub trait Before<B> {}
impl<A, B> Before<B> for A where B: After<A> {}
macro_rules! edge { ($a:ty => $b:ty) => { unsafe impl<X> $crate::After<X> for $b where $a: $crate::After<X> {} }; }
"#,
        )
        .expect("source");
        let surface = SurfaceSpec {
            api: Vec::new(),
            allow: vec![
                (
                    "fn Socket<T0>::close(self) where T0: Release".to_owned(),
                    vec![
                        "fn Socket<Bound>::close(self)".to_owned(),
                        "fn Socket<Connected>::close(self)".to_owned(),
                    ],
                ),
                (
                    "const fn Port::new(u16) -> Option<Self>".to_owned(),
                    vec!["fn Port::new(u16) -> Option<Self>".to_owned()],
                ),
                (
                    "impl After<T0> for Ledger where T0: Before<Accounts>".to_owned(),
                    vec!["impl After<T0> for Ledger where Accounts: After<T0>".to_owned()],
                ),
            ],
            optional: Vec::new(),
        };
        let rewrites: Vec<Rewrite> = generate(&dir, &surface)
            .into_iter()
            .filter(|rewrite| rewrite.operator == "allowed-replacement")
            .collect();
        assert_eq!(rewrites.len(), 3, "{rewrites:#?}");
        for rewrite in &rewrites {
            syn::parse_file(&rewrite.files[0].1)
                .unwrap_or_else(|err| panic!("{}: {err}\n{}", rewrite.name, rewrite.files[0].1));
        }
        let all: String = rewrites
            .iter()
            .map(|rewrite| rewrite.files[0].1.clone())
            .collect();
        assert!(all.contains("X: $crate::Before<$a>"), "{all}");
        assert!(all.contains("pub const fn new"), "{all}");
        assert!(all.contains("pub trait Release"), "{all}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The generated section of ROUTES.md is replaced in place, or
    /// appended once.
    #[test]
    fn routes_section_is_replaced_in_place() {
        let section = format!("{ROUTES_START}\nnew\n{ROUTES_END}\n");
        let appended = with_section("# Routes\n", &section);
        assert_eq!(appended, format!("# Routes\n\n{section}"));
        let old = format!("# Routes\n\n{ROUTES_START}\nold\n{ROUTES_END}\n\nafter\n");
        let replaced = with_section(&old, &section);
        assert_eq!(
            replaced,
            format!("# Routes\n\n{ROUTES_START}\nnew\n{ROUTES_END}\n\nafter\n")
        );
    }
}
