//! What code outside a crate can name, call or implement, read from the
//! compiler's own listing of the crate (rustdoc's JSON), not from its
//! module tree.
//!
//! **Invariant**: [`reachable`] lists every item that outside code can
//! reach, wherever it is written: the public items of public modules and
//! what public `use` declarations name; every type or trait of the crate
//! that a public signature mentions (a parameter, a return type, a public
//! field, an associated type such as `Deref::Target`, a bound, a
//! supertrait), even when no path names it; and of each reachable type
//! and trait, its public fields, its public inherent items and every impl
//! the crate writes for it, including impls written inside function
//! bodies, `const _` blocks or macro output (the compiler lists impls
//! wherever they are). Items of a crate-private trait count as soon as
//! the trait is a supertrait of a reachable one (or an associated type's
//! bound, or what an `impl Trait` or `dyn Trait` in a signature names):
//! its methods are then callable through any bound that implies it.
//!
//! An item is listed as `KIND NAME`: `struct Node`, `fn spawn`,
//! `fn OrderedSet::insert`, `field Node::key`, `macro impl_lock_after`,
//! `impl Clone for OrderedSet`, `impl From<u16> for Port`,
//! `impl Sendable for Vec<_>` (type parameters are `_`, lifetimes go).

use rustdoc_types::{
    Crate, GenericArg, GenericArgs, GenericBound, Id, Impl, Item, ItemEnum, Path, Term, Type,
    Visibility, WherePredicate,
};
use std::collections::{BTreeSet, HashSet, VecDeque};

/// The rustdoc JSON format this reader understands (`rustdoc-types`).
pub const FORMAT_VERSION: u32 = rustdoc_types::FORMAT_VERSION;

/// Reads rustdoc's JSON output.
pub fn parse(json: &[u8]) -> Result<Crate, String> {
    #[derive(serde::Deserialize)]
    struct Version {
        format_version: u32,
    }
    let version: Version = serde_json::from_slice(json)
        .map_err(|err| format!("rustdoc's JSON could not be read ({err})"))?;
    if version.format_version != FORMAT_VERSION {
        return Err(format!(
            "this toolchain's rustdoc writes JSON format {}, the grader reads format {FORMAT_VERSION}: grade with a toolchain whose rustdoc matches, or update the grader's rustdoc-types",
            version.format_version
        ));
    }
    serde_json::from_slice(json).map_err(|err| format!("rustdoc's JSON could not be read ({err})"))
}

/// Every item outside code can reach, as `KIND NAME` lines, sorted.
pub fn reachable(krate: &Crate) -> BTreeSet<String> {
    let mut reader = Reader {
        krate,
        surface: BTreeSet::new(),
        reached: HashSet::new(),
        queue: VecDeque::new(),
    };
    reader.exported(&krate.root, true);
    while let Some(id) = reader.queue.pop_front() {
        reader.expand(&id);
    }
    reader.surface
}

struct Reader<'a> {
    krate: &'a Crate,
    surface: BTreeSet<String>,
    /// Local types and traits reached so far.
    reached: HashSet<Id>,
    /// Reached, still to expand (their fields, impls, items).
    queue: VecDeque<Id>,
}

fn is_public(item: &Item) -> bool {
    item.visibility == Visibility::Public
}

impl Reader<'_> {
    fn item(&self, id: &Id) -> Option<&Item> {
        self.krate.index.get(id)
    }

    fn is_local(&self, id: &Id) -> bool {
        self.item(id).is_some_and(|item| item.crate_id == 0)
    }

    /// A local type or trait is reached: list it once, expand it later.
    fn reach(&mut self, id: &Id) {
        if self.is_local(id) && self.reached.insert(*id) {
            self.queue.push_back(*id);
        }
    }

    /// The public items of a module (or of the crate root), under the
    /// names they are exported with.
    fn exported(&mut self, module: &Id, public: bool) {
        let Some(ItemEnum::Module(inner)) = self.item(module).map(|item| &item.inner) else {
            return;
        };
        let items = inner.items.clone();
        for id in items {
            let Some(item) = self.item(&id).cloned() else {
                continue;
            };
            if let ItemEnum::Macro(_) = &item.inner {
                // A `#[macro_export]` macro is exported at the root from
                // whichever module it is written in.
                if item
                    .attrs
                    .iter()
                    .any(|attr| matches!(attr, rustdoc_types::Attribute::MacroExport))
                {
                    self.surface
                        .insert(format!("macro {}", item.name.clone().unwrap_or_default()));
                }
                continue;
            }
            if !public || !is_public(&item) {
                // Private modules still hold exported macros.
                if let ItemEnum::Module(_) = &item.inner {
                    self.exported(&id, false);
                }
                continue;
            }
            match &item.inner {
                ItemEnum::Use(use_item) => self.re_export(use_item),
                ItemEnum::Module(_) => {
                    self.surface
                        .insert(format!("mod {}", item.name.clone().unwrap_or_default()));
                    self.exported(&id, true);
                }
                _ => self.export(&id, item.name.as_deref().unwrap_or("_")),
            }
        }
    }

    /// A public `use`: the item it names is exported under its name.
    fn re_export(&mut self, use_item: &rustdoc_types::Use) {
        match use_item.id {
            Some(target) if self.is_local(&target) => {
                if use_item.is_glob {
                    self.exported(&target, true);
                } else if let Some(ItemEnum::Module(_)) = self.item(&target).map(|item| &item.inner)
                {
                    self.surface.insert(format!("mod {}", use_item.name));
                    self.exported(&target, true);
                } else {
                    self.export(&target, &use_item.name);
                }
            }
            _ => {
                self.surface.insert(format!("use {}", use_item.source));
            }
        }
    }

    /// An exported item: listed by kind and name, and reached.
    fn export(&mut self, id: &Id, name: &str) {
        let Some(item) = self.item(id).cloned() else {
            return;
        };
        let kind = match &item.inner {
            ItemEnum::Struct(_) => "struct",
            ItemEnum::Enum(_) => "enum",
            ItemEnum::Union(_) => "union",
            ItemEnum::Trait(_) | ItemEnum::TraitAlias(_) => "trait",
            ItemEnum::Function(_) => "fn",
            ItemEnum::Constant { .. } => "const",
            ItemEnum::Static(_) => "static",
            ItemEnum::TypeAlias(_) => "type",
            ItemEnum::Macro(_) | ItemEnum::ProcMacro(_) => "macro",
            _ => return,
        };
        self.surface.insert(format!("{kind} {name}"));
        match &item.inner {
            ItemEnum::Function(function) => self.signature(function),
            ItemEnum::Constant { type_, .. } => self.types_in(type_),
            ItemEnum::Static(static_item) => self.types_in(&static_item.type_),
            ItemEnum::TypeAlias(alias) => self.types_in(&alias.type_),
            _ => self.reach(id),
        }
    }

    /// Every local type and trait a function's signature and bounds name.
    fn signature(&mut self, function: &rustdoc_types::Function) {
        for (_, ty) in &function.sig.inputs {
            self.types_in(ty);
        }
        if let Some(output) = &function.sig.output {
            self.types_in(output);
        }
        self.generics(&function.generics);
    }

    /// The types a list of generics mentions. The traits its bounds name
    /// are not reached: outside code cannot call the items of a trait it
    /// cannot name because a bound names it (it can only satisfy it).
    fn generics(&mut self, generics: &rustdoc_types::Generics) {
        for param in &generics.params {
            if let rustdoc_types::GenericParamDefKind::Type {
                bounds, default, ..
            } = &param.kind
            {
                self.bound_arguments(bounds);
                if let Some(default) = default {
                    self.types_in(default);
                }
            }
        }
        for predicate in &generics.where_predicates {
            match predicate {
                WherePredicate::BoundPredicate { type_, bounds, .. } => {
                    self.types_in(type_);
                    self.bound_arguments(bounds);
                }
                WherePredicate::EqPredicate { lhs, rhs } => {
                    self.types_in(lhs);
                    if let Term::Type(rhs) = rhs {
                        self.types_in(rhs);
                    }
                }
                WherePredicate::LifetimePredicate { .. } => {}
            }
        }
    }

    /// The types the traits of `bounds` take as arguments.
    fn bound_arguments(&mut self, bounds: &[GenericBound]) {
        for bound in bounds {
            if let GenericBound::TraitBound { trait_, .. } = bound
                && let Some(args) = &trait_.args
            {
                self.args(args);
            }
        }
    }

    fn bounds(&mut self, bounds: &[GenericBound]) {
        for bound in bounds {
            if let GenericBound::TraitBound { trait_, .. } = bound {
                self.path(trait_);
            }
        }
    }

    fn path(&mut self, path: &Path) {
        self.reach(&path.id);
        if let Some(args) = &path.args {
            self.args(args);
        }
    }

    fn args(&mut self, args: &GenericArgs) {
        match args {
            GenericArgs::AngleBracketed { args, constraints } => {
                for arg in args {
                    if let GenericArg::Type(ty) = arg {
                        self.types_in(ty);
                    }
                }
                for constraint in constraints {
                    match &constraint.binding {
                        rustdoc_types::AssocItemConstraintKind::Equality(Term::Type(ty)) => {
                            self.types_in(ty);
                        }
                        rustdoc_types::AssocItemConstraintKind::Constraint(bounds) => {
                            self.bounds(bounds);
                        }
                        rustdoc_types::AssocItemConstraintKind::Equality(_) => {}
                    }
                }
            }
            GenericArgs::Parenthesized { inputs, output } => {
                for ty in inputs {
                    self.types_in(ty);
                }
                if let Some(output) = output {
                    self.types_in(output);
                }
            }
            GenericArgs::ReturnTypeNotation => {}
        }
    }

    /// Every local type and trait a type mentions.
    fn types_in(&mut self, ty: &Type) {
        match ty {
            Type::ResolvedPath(path) => self.path(path),
            Type::DynTrait(dyn_trait) => {
                for poly in &dyn_trait.traits {
                    self.path(&poly.trait_);
                }
            }
            Type::FunctionPointer(pointer) => {
                for (_, input) in &pointer.sig.inputs {
                    self.types_in(input);
                }
                if let Some(output) = &pointer.sig.output {
                    self.types_in(output);
                }
            }
            Type::Tuple(types) => {
                for ty in types {
                    self.types_in(ty);
                }
            }
            Type::Slice(inner)
            | Type::Array { type_: inner, .. }
            | Type::Pat { type_: inner, .. }
            | Type::RawPointer { type_: inner, .. }
            | Type::BorrowedRef { type_: inner, .. } => self.types_in(inner),
            Type::ImplTrait(bounds) => self.bounds(bounds),
            Type::QualifiedPath {
                args,
                self_type,
                trait_,
                ..
            } => {
                self.types_in(self_type);
                if let Some(trait_) = trait_ {
                    self.path(trait_);
                }
                if let Some(args) = args {
                    self.args(args);
                }
            }
            Type::Generic(_) | Type::Primitive(_) | Type::Infer => {}
        }
    }

    /// A reached local type or trait: its fields, inherent items, impls,
    /// trait items and supertraits.
    fn expand(&mut self, id: &Id) {
        let Some(item) = self.item(id).cloned() else {
            return;
        };
        let name = item.name.clone().unwrap_or_default();
        match &item.inner {
            ItemEnum::Struct(inner) => {
                self.generics(&inner.generics);
                let fields: Vec<Id> = match &inner.kind {
                    rustdoc_types::StructKind::Unit => Vec::new(),
                    rustdoc_types::StructKind::Tuple(fields) => {
                        fields.iter().flatten().copied().collect()
                    }
                    rustdoc_types::StructKind::Plain { fields, .. } => fields.clone(),
                };
                self.fields(&name, &fields);
                self.impls(&inner.impls.clone(), false);
            }
            ItemEnum::Union(inner) => {
                self.fields(&name, &inner.fields.clone());
                self.impls(&inner.impls.clone(), false);
            }
            ItemEnum::Enum(inner) => {
                self.generics(&inner.generics);
                for variant in inner.variants.clone() {
                    let Some(ItemEnum::Variant(variant)) =
                        self.item(&variant).map(|item| item.inner.clone())
                    else {
                        continue;
                    };
                    let fields: Vec<Id> = match variant.kind {
                        rustdoc_types::VariantKind::Plain => Vec::new(),
                        rustdoc_types::VariantKind::Tuple(fields) => {
                            fields.into_iter().flatten().collect()
                        }
                        rustdoc_types::VariantKind::Struct { fields, .. } => fields,
                    };
                    for field in fields {
                        if let Some(ItemEnum::StructField(ty)) =
                            self.item(&field).map(|item| item.inner.clone())
                        {
                            self.types_in(&ty);
                        }
                    }
                }
                self.impls(&inner.impls.clone(), false);
            }
            ItemEnum::Trait(inner) => {
                self.generics(&inner.generics);
                self.bounds(&inner.bounds.clone());
                for member in inner.items.clone() {
                    let Some(member) = self.item(&member).cloned() else {
                        continue;
                    };
                    let member_name = member.name.clone().unwrap_or_default();
                    let kind = match &member.inner {
                        ItemEnum::Function(function) => {
                            self.signature(function);
                            "fn"
                        }
                        ItemEnum::AssocConst { type_, .. } => {
                            self.types_in(type_);
                            "const"
                        }
                        ItemEnum::AssocType { bounds, type_, .. } => {
                            self.bounds(bounds);
                            if let Some(ty) = type_ {
                                self.types_in(ty);
                            }
                            "type"
                        }
                        _ => continue,
                    };
                    self.surface.insert(format!("{kind} {name}::{member_name}"));
                }
                self.impls(&inner.implementations.clone(), true);
            }
            ItemEnum::TraitAlias(inner) => self.bounds(&inner.params.clone()),
            _ => {}
        }
    }

    fn fields(&mut self, owner: &str, fields: &[Id]) {
        for (index, field) in fields.iter().enumerate() {
            let Some(item) = self.item(field).cloned() else {
                continue;
            };
            if !is_public(&item) {
                continue;
            }
            let field_name = item.name.clone().unwrap_or_else(|| index.to_string());
            self.surface.insert(format!("field {owner}::{field_name}"));
            if let ItemEnum::StructField(ty) = &item.inner {
                self.types_in(ty);
            }
        }
    }

    /// The impls the crate writes for a reached type (`of_trait` false) or
    /// of a reached trait (`of_trait` true).
    fn impls(&mut self, impls: &[Id], of_trait: bool) {
        for id in impls {
            let Some(item) = self.item(id).cloned() else {
                continue;
            };
            let ItemEnum::Impl(implementation) = &item.inner else {
                continue;
            };
            if item.crate_id != 0
                || implementation.is_synthetic
                || implementation.blanket_impl.is_some()
            {
                continue;
            }
            self.one_impl(implementation, of_trait);
        }
    }

    /// One impl: an inherent one lists its public items; a trait impl is
    /// listed under its type when the trait is another crate's, and under
    /// its trait when the trait is this crate's (so that an impl of a
    /// trait outside code cannot reach adds nothing).
    fn one_impl(&mut self, implementation: &Impl, of_trait: bool) {
        let self_name = base_name(&implementation.for_);
        match &implementation.trait_ {
            None => {
                for member in &implementation.items {
                    let Some(member) = self.item(member).cloned() else {
                        continue;
                    };
                    if !is_public(&member) {
                        continue;
                    }
                    let kind = match &member.inner {
                        ItemEnum::Function(function) => {
                            self.signature(function);
                            "fn"
                        }
                        ItemEnum::AssocConst { type_, .. } => {
                            self.types_in(type_);
                            "const"
                        }
                        _ => continue,
                    };
                    self.surface.insert(format!(
                        "{kind} {}::{}",
                        self_name.as_deref().unwrap_or("_"),
                        member.name.clone().unwrap_or_default()
                    ));
                }
                self.generics(&implementation.generics);
            }
            Some(trait_path) => {
                if self.is_compiler_marker(trait_path) || self.is_local(&trait_path.id) != of_trait
                {
                    return;
                }
                let bang = if implementation.is_negative { "!" } else { "" };
                self.surface.insert(format!(
                    "impl {bang}{} for {}",
                    self.path_text(trait_path),
                    self.type_text(&implementation.for_)
                ));
                if let Some(args) = &trait_path.args {
                    self.args(args);
                }
                if !of_trait {
                    self.types_in(&implementation.for_);
                }
                self.generics(&implementation.generics);
                // Associated types and the methods' signatures: what the
                // impl hands out (`Deref::Target`, `IntoIterator::IntoIter`).
                for member in &implementation.items {
                    let Some(member) = self.item(member).cloned() else {
                        continue;
                    };
                    match &member.inner {
                        ItemEnum::AssocType {
                            type_: Some(ty), ..
                        } => self.types_in(ty),
                        ItemEnum::AssocConst { type_, .. } => self.types_in(type_),
                        ItemEnum::Function(function) => self.signature(function),
                        _ => {}
                    }
                }
            }
        }
    }

    /// The canonical path of an item, from rustdoc's table of paths.
    fn canonical(&self, id: &Id) -> Vec<String> {
        self.krate
            .paths
            .get(id)
            .map(|summary| summary.path.clone())
            .unwrap_or_default()
    }

    /// Whether a trait is one the compiler's own derives implement for
    /// their bookkeeping (`StructuralPartialEq`, `TrivialClone`, ...):
    /// unstable markers of `core` that no code on a stable compiler can
    /// name.
    fn is_compiler_marker(&self, path: &Path) -> bool {
        let canonical = self.canonical(&path.id);
        let segments: Vec<&str> = if canonical.is_empty() {
            path.path
                .split("::")
                .filter(|part| !part.is_empty())
                .collect()
        } else {
            canonical.iter().map(String::as_str).collect()
        };
        let Some(last) = segments.last() else {
            return false;
        };
        let in_core_marker =
            segments.len() >= 2 && matches!(segments[0], "core" | "std") && segments[1] == "marker";
        let stable_markers = ["Copy", "Send", "Sync", "Unpin", "Sized", "PhantomData"];
        (in_core_marker && !stable_markers.contains(last))
            || matches!(
                *last,
                "StructuralPartialEq" | "StructuralEq" | "TrivialClone"
            )
    }

    /// A path's last segment with its generic arguments.
    fn path_text(&self, path: &Path) -> String {
        let mut text = path.path.rsplit("::").next().unwrap_or_default().to_owned();
        if let Some(args) = &path.args {
            match args.as_ref() {
                GenericArgs::AngleBracketed { args, constraints } => {
                    let mut shown: Vec<String> = args
                        .iter()
                        .filter_map(|arg| match arg {
                            GenericArg::Type(ty) => Some(self.type_text(ty)),
                            GenericArg::Lifetime(_) => None,
                            GenericArg::Const(_) | GenericArg::Infer => Some("_".to_owned()),
                        })
                        .collect();
                    for constraint in constraints {
                        if let rustdoc_types::AssocItemConstraintKind::Equality(Term::Type(ty)) =
                            &constraint.binding
                        {
                            shown.push(format!("{} = {}", constraint.name, self.type_text(ty)));
                        }
                    }
                    if !shown.is_empty() {
                        text.push('<');
                        text.push_str(&shown.join(", "));
                        text.push('>');
                    }
                }
                GenericArgs::Parenthesized { inputs, output } => {
                    let inputs: Vec<String> = inputs.iter().map(|ty| self.type_text(ty)).collect();
                    text.push_str(&format!("({})", inputs.join(", ")));
                    if let Some(output) = output {
                        text.push_str(&format!(" -> {}", self.type_text(output)));
                    }
                }
                GenericArgs::ReturnTypeNotation => {}
            }
        }
        text
    }

    /// A type as the surface writes it: last path segments, generic
    /// arguments kept, type parameters as `_`, lifetimes left out.
    fn type_text(&self, ty: &Type) -> String {
        match ty {
            Type::ResolvedPath(path) => self.path_text(path),
            Type::Generic(name) if name == "Self" => "Self".to_owned(),
            Type::Generic(_) | Type::Infer => "_".to_owned(),
            Type::Primitive(name) => name.clone(),
            Type::BorrowedRef {
                is_mutable, type_, ..
            } => format!(
                "&{}{}",
                if *is_mutable { "mut " } else { "" },
                self.type_text(type_)
            ),
            Type::RawPointer { is_mutable, type_ } => format!(
                "*{} {}",
                if *is_mutable { "mut" } else { "const" },
                self.type_text(type_)
            ),
            Type::Slice(inner) => format!("[{}]", self.type_text(inner)),
            Type::Array { type_, .. } => format!("[{}; _]", self.type_text(type_)),
            Type::Pat { type_, .. } => self.type_text(type_),
            Type::Tuple(types) => format!(
                "({})",
                types
                    .iter()
                    .map(|ty| self.type_text(ty))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Type::DynTrait(dyn_trait) => format!(
                "dyn {}",
                dyn_trait
                    .traits
                    .iter()
                    .map(|poly| self.path_text(&poly.trait_))
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            Type::ImplTrait(bounds) => format!(
                "impl {}",
                bounds
                    .iter()
                    .filter_map(|bound| match bound {
                        GenericBound::TraitBound { trait_, .. } => Some(self.path_text(trait_)),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            Type::FunctionPointer(pointer) => format!(
                "fn({}){}",
                pointer
                    .sig
                    .inputs
                    .iter()
                    .map(|(_, ty)| self.type_text(ty))
                    .collect::<Vec<_>>()
                    .join(", "),
                pointer
                    .sig
                    .output
                    .as_ref()
                    .map(|output| format!(" -> {}", self.type_text(output)))
                    .unwrap_or_default()
            ),
            Type::QualifiedPath {
                name,
                self_type,
                trait_,
                ..
            } => match trait_ {
                Some(trait_) => format!(
                    "<{} as {}>::{name}",
                    self.type_text(self_type),
                    self.path_text(trait_)
                ),
                None => format!("{}::{name}", self.type_text(self_type)),
            },
        }
    }
}

/// The name of the type an impl is for, under references: `OrderedSet`
/// for `&'a OrderedSet<T>`.
fn base_name(ty: &Type) -> Option<String> {
    match ty {
        Type::ResolvedPath(path) => path.path.rsplit("::").next().map(str::to_owned),
        Type::BorrowedRef { type_, .. } => base_name(type_),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rustdoc's JSON of one file of Rust, with private items.
    fn json_of(source: &str) -> Crate {
        let dir = std::env::temp_dir().join(format!(
            "xsafe-api-{}-{:x}",
            std::process::id(),
            xsafe_case::Rng::new().u64(..)
        ));
        std::fs::create_dir_all(&dir).expect("scratch");
        let file = dir.join("lib.rs");
        std::fs::write(&file, source).expect("source");
        let output = std::process::Command::new("rustdoc")
            .env("RUSTC_BOOTSTRAP", "1")
            .args([
                "--edition",
                "2024",
                "--crate-type",
                "lib",
                "--crate-name",
                "probe",
            ])
            .args([
                "-Z",
                "unstable-options",
                "--output-format",
                "json",
                "--document-private-items",
            ])
            .arg("-o")
            .arg(&dir)
            .arg(&file)
            .output()
            .expect("rustdoc runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let json = std::fs::read(dir.join("probe.json")).expect("rustdoc wrote JSON");
        let _ = std::fs::remove_dir_all(&dir);
        parse(&json).expect("the JSON reads")
    }

    /// Public items of public modules and re-exports count; private ones,
    /// `pub(crate)` ones and those in private modules do not; impls and
    /// methods of reachable types do, wherever they are written (in a
    /// function body, in a `const _`); a type reached through `Deref`
    /// brings its methods; a crate-private supertrait brings its items;
    /// impls of traits outside code cannot reach add nothing.
    #[test]
    fn reads_what_outside_code_can_reach() {
        let krate = json_of(
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
            unsafe impl ::core::marker::Send for set::OrderedSet<u16> {}
            mod sealed { pub trait Release { fn release(&self); } pub trait Seal { fn forge() -> u8 where Self: Sized { 0 } } }
            impl sealed::Release for set::OrderedSet<u8> { fn release(&self) {} }
            trait Helper {}
            impl Helper for tree::Node<u8> {}
            pub trait Lock: sealed::Seal {}
            pub fn nested() {
                impl<T> set::OrderedSet<T> { pub fn keys_mut(&mut self) -> &mut Vec<T> { &mut self.0 } }
            }
            mod inner { pub struct Guts; impl Guts { pub fn poke(&self) {} } }
            const _: () = {
                impl core::ops::Deref for set::OrderedSet<u32> { type Target = inner::Guts; fn deref(&self) -> &inner::Guts { &inner::Guts } }
            };
            "#,
        );
        let surface: Vec<String> = reachable(&krate).into_iter().collect();
        assert_eq!(
            surface,
            [
                "field Node::left",
                "fn Guts::poke",
                "fn Marker::extra",
                "fn Node::key",
                "fn OrderedSet::keys_mut",
                "fn Seal::forge",
                "fn nested",
                "impl Default for OrderedSet<_>",
                "impl Deref for OrderedSet<u32>",
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
                "trait Lock",
                "trait Marker",
            ]
        );
    }
}
