//! The public surface of a crate under test: what code outside it can
//! name, build, call or implement.
//!
//! **Invariant**: the `surface` case passes only when every public item of
//! the crate, after macro expansion, is part of the exercise's API or on
//! its allow-list (each allowed item names the case that probes it). The
//! surface is read from the compiler's own expansion of the crate
//! (`-Zunpretty=expanded`, in a build where no learner code runs), parsed
//! with `syn`: items that macros generate count, on every toolchain.
//!
//! An item is listed as `KIND NAME`: `struct Node`, `fn spawn`,
//! `fn OrderedSet::insert`, `field Node::key`, `macro impl_lock_after`,
//! `impl Clone for OrderedSet`, `impl From<u16> for Port`,
//! `impl Sendable for Vec<_>` (type parameters are `_`, lifetimes go).

use crate::behaviour::tail;
use crate::limits::{Bounds, run_bounded};
use crate::outcome::{CaseOutcome, Status};
use crate::toolchain::Toolchain;
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use syn::{Item, Visibility};
use xsafe_course::Manifest;

/// The `surface` case of a crate: its public items against the manifest's
/// `[surface]`. Returns the outcome and the items, when they were read.
pub fn check(
    manifest: &Manifest,
    crate_dir: &Path,
    toolchain: &Toolchain,
    work_dir: &Path,
    bounds: Bounds,
) -> (CaseOutcome, Option<BTreeSet<String>>) {
    let items = match read(crate_dir, toolchain, work_dir, bounds) {
        Ok(items) => items,
        Err(why) => return (CaseOutcome::new(Status::NotRun(why.0), why.1), None),
    };
    (judge(manifest, &items), Some(items))
}

/// The verdict on a crate's public items.
pub fn judge(manifest: &Manifest, items: &BTreeSet<String>) -> CaseOutcome {
    let extra: Vec<&String> = items
        .iter()
        .filter(|item| !manifest.surface.permits(item))
        .collect();
    if extra.is_empty() {
        return CaseOutcome::passed();
    }
    let names: Vec<String> = extra.iter().map(|item| format!("`{item}`")).collect();
    let details = format!(
        "Public items that are not part of the exercise's API:\n{}\n\nThe exercise's API is the starter's public items. Anything else that is public can be used by code outside the crate, so it is part of what the invariant must survive: make it private (`pub(crate)` for other modules of the crate), or remove it.",
        extra
            .iter()
            .map(|item| format!("  {item}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    CaseOutcome::new(
        Status::Failed(format!(
            "the crate makes public what the exercise does not have: {}",
            names.join(", ")
        )),
        details,
    )
}

/// Why the surface could not be read: a reason and details.
#[derive(Debug, Clone)]
pub struct Unreadable(pub String, pub String);

/// The crate's public items, sorted.
pub fn read(
    crate_dir: &Path,
    toolchain: &Toolchain,
    work_dir: &Path,
    bounds: Bounds,
) -> Result<BTreeSet<String>, Unreadable> {
    let mut command = toolchain.cargo_command();
    command
        .arg("rustc")
        .arg("--lib")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(crate_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(work_dir.join("surface-target"))
        .args(["--", "-Zunpretty=expanded"])
        // The expansion is an unstable output of every rustc, stable ones
        // included; this asks for it, and changes nothing else.
        .env("RUSTC_BOOTSTRAP", "1")
        .current_dir(crate_dir);
    let run = run_bounded(command, bounds, None).map_err(|err| {
        Unreadable(
            format!("the crate's public surface could not be read: {err}"),
            String::new(),
        )
    })?;
    if let Some(why) = run.stopped_because() {
        return Err(Unreadable(
            format!("reading the public surface was {why}"),
            tail(&run.stderr, 20),
        ));
    }
    if !matches!(run.ending, crate::limits::Ending::Exited(status) if status.success()) {
        return Err(Unreadable(
            "the crate's public surface could not be read: it does not build".to_owned(),
            tail(&run.stderr, 20),
        ));
    }
    let file = syn::parse_file(&run.stdout).map_err(|err| {
        Unreadable(
            format!("the crate's expansion could not be read ({err})"),
            tail(&run.stderr, 20),
        )
    })?;
    Ok(surface_of(&file))
}

/// A module's items, by path from the crate root.
struct Module<'a> {
    items: &'a [Item],
    public: bool,
}

/// The public items of an expanded crate.
pub fn surface_of(file: &syn::File) -> BTreeSet<String> {
    let mut modules: BTreeMap<Vec<String>, Module<'_>> = BTreeMap::new();
    collect_modules(&file.items, Vec::new(), true, &mut modules);

    // Exported names: public items of public modules, and what public
    // `use` declarations of public modules name.
    let mut exported: BTreeSet<String> = BTreeSet::new();
    let mut surface = BTreeSet::new();
    for (path, module) in &modules {
        if !module.public {
            // A `#[macro_export]` macro is exported at the crate's root
            // from whichever module it is written in, private ones too.
            for item in module.items {
                if let (Item::Macro(_), true, Some((kind, name))) =
                    (item, is_public(item), named_item(item))
                {
                    surface.insert(format!("{kind} {name}"));
                }
            }
            continue;
        }
        for item in module.items {
            if let Some((kind, name)) = named_item(item)
                && is_public(item)
            {
                exported.insert(name.clone());
                surface.insert(format!("{kind} {name}"));
            }
            if let Item::Use(use_item) = item
                && matches!(use_item.vis, Visibility::Public(_))
            {
                for (target, name) in use_targets(&use_item.tree, Vec::new()) {
                    let resolved = resolve(&modules, path, &target);
                    match resolved {
                        Some(found) if name == "*" => {
                            for item in found.items {
                                if let (true, Some((kind, item_name))) =
                                    (is_public(item), named_item(item))
                                {
                                    exported.insert(item_name.clone());
                                    surface.insert(format!("{kind} {item_name}"));
                                }
                            }
                        }
                        _ => {
                            let last = target.last().cloned().unwrap_or_default();
                            let item = find_item(&modules, path, &target);
                            match item {
                                Some((kind, _)) => {
                                    exported.insert(last);
                                    surface.insert(format!("{kind} {name}"));
                                }
                                None => {
                                    surface.insert(format!("use {}", target.join("::")));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // Traits the crate defines but does not export: outside code cannot
    // name them, so their impls add nothing it can call (a sealed helper
    // trait implemented for public types, say).
    let hidden_traits: BTreeSet<String> = modules
        .values()
        .flat_map(|module| module.items)
        .filter_map(|item| match item {
            Item::Trait(item) => Some(item.ident.to_string()),
            Item::TraitAlias(item) => Some(item.ident.to_string()),
            _ => None,
        })
        .filter(|name| !exported.contains(name))
        .collect();

    // Fields, trait items, inherent methods and trait impls of the
    // exported types and traits, wherever in the crate they are written.
    for module in modules.values() {
        for item in module.items {
            match item {
                Item::Struct(item) if exported.contains(&item.ident.to_string()) => {
                    for (index, field) in item.fields.iter().enumerate() {
                        if matches!(field.vis, Visibility::Public(_)) {
                            let name = field
                                .ident
                                .as_ref()
                                .map_or(index.to_string(), ToString::to_string);
                            surface.insert(format!("field {}::{name}", item.ident));
                        }
                    }
                }
                Item::Trait(item) if exported.contains(&item.ident.to_string()) => {
                    for trait_item in &item.items {
                        let entry = match trait_item {
                            syn::TraitItem::Fn(item) => Some(("fn", item.sig.ident.to_string())),
                            syn::TraitItem::Const(item) => Some(("const", item.ident.to_string())),
                            syn::TraitItem::Type(item) => Some(("type", item.ident.to_string())),
                            _ => None,
                        };
                        if let Some((kind, name)) = entry {
                            surface.insert(format!("{kind} {}::{name}", item.ident));
                        }
                    }
                }
                Item::Impl(item) => impl_surface(item, &exported, &hidden_traits, &mut surface),
                _ => {}
            }
        }
    }
    surface
}

fn collect_modules<'a>(
    items: &'a [Item],
    path: Vec<String>,
    public: bool,
    modules: &mut BTreeMap<Vec<String>, Module<'a>>,
) {
    for item in items {
        if let Item::Mod(module) = item
            && let Some((_, items)) = &module.content
        {
            let mut inner = path.clone();
            inner.push(module.ident.to_string());
            let inner_public = public && matches!(module.vis, Visibility::Public(_));
            collect_modules(items, inner, inner_public, modules);
        }
    }
    modules.insert(path, Module { items, public });
}

fn is_public(item: &Item) -> bool {
    let vis = match item {
        Item::Const(item) => &item.vis,
        Item::Enum(item) => &item.vis,
        Item::Fn(item) => &item.vis,
        Item::Mod(item) => &item.vis,
        Item::Static(item) => &item.vis,
        Item::Struct(item) => &item.vis,
        Item::Trait(item) => &item.vis,
        Item::TraitAlias(item) => &item.vis,
        Item::Type(item) => &item.vis,
        Item::Union(item) => &item.vis,
        Item::Macro(item) => {
            return item
                .attrs
                .iter()
                .any(|attr| attr.path().is_ident("macro_export"));
        }
        _ => return false,
    };
    matches!(vis, Visibility::Public(_))
}

/// `("struct", "Node")` for a named item.
fn named_item(item: &Item) -> Option<(&'static str, String)> {
    Some(match item {
        Item::Const(item) => ("const", item.ident.to_string()),
        Item::Enum(item) => ("enum", item.ident.to_string()),
        Item::Fn(item) => ("fn", item.sig.ident.to_string()),
        Item::Mod(item) => ("mod", item.ident.to_string()),
        Item::Static(item) => ("static", item.ident.to_string()),
        Item::Struct(item) => ("struct", item.ident.to_string()),
        Item::Trait(item) => ("trait", item.ident.to_string()),
        Item::TraitAlias(item) => ("trait", item.ident.to_string()),
        Item::Type(item) => ("type", item.ident.to_string()),
        Item::Union(item) => ("union", item.ident.to_string()),
        Item::Macro(item) => ("macro", item.ident.as_ref()?.to_string()),
        _ => return None,
    })
}

/// Each path a `use` tree names, with the name it is given (`*` for a
/// glob).
fn use_targets(tree: &syn::UseTree, prefix: Vec<String>) -> Vec<(Vec<String>, String)> {
    match tree {
        syn::UseTree::Path(path) => {
            let mut prefix = prefix;
            prefix.push(path.ident.to_string());
            use_targets(&path.tree, prefix)
        }
        syn::UseTree::Name(name) => {
            let mut target = prefix;
            target.push(name.ident.to_string());
            let name = name.ident.to_string();
            vec![(target, name)]
        }
        syn::UseTree::Rename(rename) => {
            let mut target = prefix;
            target.push(rename.ident.to_string());
            vec![(target, rename.rename.to_string())]
        }
        syn::UseTree::Glob(_) => vec![(prefix, "*".to_owned())],
        syn::UseTree::Group(group) => group
            .items
            .iter()
            .flat_map(|tree| use_targets(tree, prefix.clone()))
            .collect(),
    }
}

/// The module a path names, from module `from`.
fn resolve<'a, 'b>(
    modules: &'b BTreeMap<Vec<String>, Module<'a>>,
    from: &[String],
    path: &[String],
) -> Option<&'b Module<'a>> {
    modules.get(&absolute(from, path)?)
}

/// The item a path names (kind and name), from module `from`.
fn find_item(
    modules: &BTreeMap<Vec<String>, Module<'_>>,
    from: &[String],
    path: &[String],
) -> Option<(&'static str, String)> {
    let full = absolute(from, path)?;
    let (name, module) = full.split_last()?;
    modules
        .get(module)?
        .items
        .iter()
        .find_map(|item| named_item(item).filter(|(_, item_name)| item_name == name))
}

/// A path from module `from` as a path from the crate root.
fn absolute(from: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut parts = path.iter().peekable();
    let mut base: Vec<String> = match parts.peek().map(|part| part.as_str()) {
        Some("crate") => {
            parts.next();
            Vec::new()
        }
        Some("self") => {
            parts.next();
            from.to_vec()
        }
        Some("super") => from.to_vec(),
        _ => from.to_vec(),
    };
    for part in parts {
        if part == "super" {
            base.pop()?;
        } else {
            base.push(part.clone());
        }
    }
    Some(base)
}

/// The surface an impl block adds: its public methods and constants when
/// it is an inherent impl of an exported type; the impl itself when it
/// implements a trait for an exported type, or an exported trait for any
/// type, unless the trait is one the crate defines and does not export
/// (outside code cannot name it).
fn impl_surface(
    item: &syn::ItemImpl,
    exported: &BTreeSet<String>,
    hidden_traits: &BTreeSet<String>,
    surface: &mut BTreeSet<String>,
) {
    let params: BTreeSet<String> = item
        .generics
        .type_params()
        .map(|param| param.ident.to_string())
        .collect();
    let self_name = base_name(&item.self_ty);
    let self_type = type_text(&item.self_ty, &params);
    match &item.trait_ {
        None => {
            if !self_name
                .as_ref()
                .is_some_and(|name| exported.contains(name))
            {
                return;
            }
            for inner in &item.items {
                let entry = match inner {
                    syn::ImplItem::Fn(inner) if matches!(inner.vis, Visibility::Public(_)) => {
                        Some(("fn", inner.sig.ident.to_string()))
                    }
                    syn::ImplItem::Const(inner) if matches!(inner.vis, Visibility::Public(_)) => {
                        Some(("const", inner.ident.to_string()))
                    }
                    _ => None,
                };
                if let Some((kind, name)) = entry {
                    surface.insert(format!(
                        "{kind} {}::{name}",
                        self_name.as_deref().unwrap_or("_")
                    ));
                }
            }
        }
        Some((negative, path, _)) => {
            let trait_name = path
                .segments
                .last()
                .map(|segment| segment.ident.to_string())
                .unwrap_or_default();
            if is_compiler_marker(path) {
                return;
            }
            if hidden_traits.contains(&trait_name) {
                return;
            }
            let ours = exported.contains(&trait_name)
                || self_name
                    .as_ref()
                    .is_some_and(|name| exported.contains(name));
            if ours {
                let bang = if negative.is_some() { "!" } else { "" };
                surface.insert(format!(
                    "impl {bang}{} for {self_type}",
                    path_text(path, &params)
                ));
            }
        }
    }
}

/// Whether a trait is one the compiler's own derives implement for their
/// bookkeeping (`StructuralPartialEq`, `TrivialClone`, ...): unstable
/// markers in `core` that no code on a stable compiler can name, so not
/// part of what outside code can use, and renamed between releases.
fn is_compiler_marker(path: &syn::Path) -> bool {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let Some(last) = segments.last() else {
        return false;
    };
    let in_core_marker = segments.len() >= 2
        && matches!(segments[0].as_str(), "core" | "std")
        && segments[1] == "marker";
    let stable_markers = ["Copy", "Send", "Sync", "Unpin", "Sized", "PhantomData"];
    (in_core_marker && !stable_markers.contains(&last.as_str()))
        || matches!(
            last.as_str(),
            "StructuralPartialEq" | "StructuralEq" | "TrivialClone"
        )
}

/// The name of the type an impl is for, under references: `OrderedSet` for
/// `&'a OrderedSet<T>`.
fn base_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Reference(reference) => base_name(&reference.elem),
        syn::Type::Paren(paren) => base_name(&paren.elem),
        syn::Type::Group(group) => base_name(&group.elem),
        _ => None,
    }
}

/// A type as the surface writes it: last path segments, generic arguments
/// kept, type parameters as `_`, lifetimes left out.
fn type_text(ty: &syn::Type, params: &BTreeSet<String>) -> String {
    match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            if path.path.segments.len() == 1 {
                let segment = &path.path.segments[0];
                if params.contains(&segment.ident.to_string()) && segment.arguments.is_empty() {
                    return "_".to_owned();
                }
            }
            path_text(&path.path, params)
        }
        syn::Type::Reference(reference) => format!(
            "&{}{}",
            if reference.mutability.is_some() {
                "mut "
            } else {
                ""
            },
            type_text(&reference.elem, params)
        ),
        syn::Type::Ptr(pointer) => format!(
            "*{} {}",
            if pointer.mutability.is_some() {
                "mut"
            } else {
                "const"
            },
            type_text(&pointer.elem, params)
        ),
        syn::Type::Slice(slice) => format!("[{}]", type_text(&slice.elem, params)),
        syn::Type::Array(array) => format!("[{}; _]", type_text(&array.elem, params)),
        syn::Type::Tuple(tuple) => format!(
            "({})",
            tuple
                .elems
                .iter()
                .map(|elem| type_text(elem, params))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        syn::Type::Paren(paren) => type_text(&paren.elem, params),
        syn::Type::Group(group) => type_text(&group.elem, params),
        other => other
            .to_token_stream()
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// A path's last segment with its generic arguments, as [`type_text`].
fn path_text(path: &syn::Path, params: &BTreeSet<String>) -> String {
    let Some(segment) = path.segments.last() else {
        return String::new();
    };
    let mut text = segment.ident.to_string();
    match &segment.arguments {
        syn::PathArguments::AngleBracketed(arguments) => {
            let arguments: Vec<String> = arguments
                .args
                .iter()
                .filter_map(|argument| match argument {
                    syn::GenericArgument::Type(ty) => Some(type_text(ty, params)),
                    syn::GenericArgument::Lifetime(_) => None,
                    syn::GenericArgument::Const(_) => Some("_".to_owned()),
                    other => Some(other.to_token_stream().to_string()),
                })
                .collect();
            if !arguments.is_empty() {
                text.push('<');
                text.push_str(&arguments.join(", "));
                text.push('>');
            }
        }
        syn::PathArguments::Parenthesized(arguments) => {
            text.push_str(&arguments.to_token_stream().to_string());
        }
        syn::PathArguments::None => {}
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Public items of public modules and re-exports count; private ones,
    /// `pub(crate)` ones and those in private modules do not; impls and
    /// methods of exported types do.
    #[test]
    fn reads_what_outside_code_can_reach() {
        let file = syn::parse_file(
            r#"
            mod tree {
                pub struct Node<T> { key: T, pub left: Option<Box<Node<T>>> }
                pub(crate) fn insert() {}
                pub fn hidden() {}
                impl<T> Node<T> { pub fn key(&self) -> &T { &self.key } fn private(&self) {} pub(crate) fn inside(&self) {} }
            }
            pub mod set {
                pub struct OrderedSet<T>(Vec<T>);
                impl<T> Default for OrderedSet<T> { fn default() -> Self { OrderedSet(Vec::new()) } }
                impl<'a, T> IntoIterator for &'a OrderedSet<T> { type Item = &'a T; type IntoIter = std::slice::Iter<'a, T>; fn into_iter(self) -> Self::IntoIter { self.0.iter() } }
            }
            pub use tree::Node;
            pub use send_marker_derive::Sendable;
            pub unsafe trait Marker { fn extra() {} }
            unsafe impl<T: Marker> Marker for Vec<T> {}
            unsafe impl Marker for &'static str {}
            impl From<u16> for set::OrderedSet<u16> { fn from(_: u16) -> Self { todo!() } }
            #[macro_export]
            macro_rules! edge { () => {} }
            macro_rules! local { () => {} }
            mod relation {
                #[macro_export]
                macro_rules! impl_lock_after { () => {} }
                macro_rules! helper { () => {} }
            }
            struct Private;
            impl Clone for Private { fn clone(&self) -> Self { Private } }
            #[automatically_derived]
            impl ::core::marker::StructuralPartialEq for set::OrderedSet<u8> {}
            impl ::core::clone::TrivialClone for set::OrderedSet<u8> {}
            unsafe impl ::core::marker::Send for set::OrderedSet<u16> {}
            mod sealed { pub trait Release { fn release(&self); } }
            impl sealed::Release for set::OrderedSet<u8> { fn release(&self) {} }
            trait Helper {}
            impl Helper for tree::Node<u8> {}
            "#,
        )
        .expect("parses");
        let surface: Vec<String> = surface_of(&file).into_iter().collect();
        assert_eq!(
            surface,
            [
                "field Node::left",
                "fn Marker::extra",
                "fn Node::key",
                "impl Default for OrderedSet<_>",
                "impl From<u16> for OrderedSet<u16>",
                "impl IntoIterator for &OrderedSet<_>",
                "impl Marker for &str",
                "impl Marker for Vec<_>",
                "impl Send for OrderedSet<u16>",
                "macro edge",
                "macro impl_lock_after",
                "mod set",
                "struct Node",
                "struct OrderedSet",
                "trait Marker",
                "use send_marker_derive::Sendable",
            ]
        );
    }
}
