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
//! Each item is one line with its whole signature, in the canonical form
//! of [`crate::canon`]: `fn OrderedSet<T0>::get(&'l0 self, &T0) ->
//! Option<&'l0 T0> where T0: Ord`, `field Transfer::amount: u64`,
//! `unsafe impl Sendable for Vec<T0> where T0: Sendable`, `macro
//! impl_lock_after { ($:ty => $:ty) }`, `impl Send for Token` (the
//! compiler's own `Send` and `Sync`, which are part of the contract too).

use crate::canon::{Line, Names};
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
    // Which items outside code can name is known only once every module
    // has been walked, and every line depends on it: walk twice.
    let nothing = HashSet::new();
    let mut first = Reader::new(krate, &nothing);
    first.exported(&krate.root, true);
    let known = first.named;
    let mut reader = Reader::new(krate, &known);
    reader.exported(&krate.root, true);
    while let Some(id) = reader.queue.pop_front() {
        reader.expand(&id);
    }
    reader.surface
}

struct Reader<'a> {
    krate: &'a Crate,
    /// The items outside code can name, once known (the first walk's).
    known: &'a HashSet<Id>,
    /// Modules already walked, each once (a module can export itself
    /// again, `pub use crate::*`, or twice, by two globs).
    walked: HashSet<(Id, bool)>,
    surface: BTreeSet<String>,
    /// Local items outside code can name (exported).
    named: HashSet<Id>,
    /// Local types and traits reached so far.
    reached: HashSet<Id>,
    /// Reached, still to expand (their fields, impls, items).
    queue: VecDeque<Id>,
}

fn is_public(item: &Item) -> bool {
    item.visibility == Visibility::Public
}

impl<'a> Reader<'a> {
    fn new(krate: &'a Crate, known: &'a HashSet<Id>) -> Reader<'a> {
        Reader {
            krate,
            known,
            walked: HashSet::new(),
            surface: BTreeSet::new(),
            named: HashSet::new(),
            reached: HashSet::new(),
            queue: VecDeque::new(),
        }
    }

    /// What a line needs to know of the crate.
    fn names(&self) -> Names<'a> {
        Names {
            krate: self.krate,
            named: self.known,
        }
    }

    /// A new line.
    fn line(&self, text: &str) -> Line<'a> {
        Line::new(self.names(), text)
    }

    fn item(&self, id: &Id) -> Option<&'a Item> {
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
        if !self.walked.insert((*module, public)) {
            return;
        }
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
                    let name = item.name.clone().unwrap_or_default();
                    let ItemEnum::Macro(source) = &item.inner else {
                        continue;
                    };
                    self.surface.insert(crate::canon::macro_line(&name, source));
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

    /// An exported item: listed with its signature, and reached.
    fn export(&mut self, id: &Id, name: &str) {
        let Some(item) = self.item(id).cloned() else {
            return;
        };
        self.named.insert(*id);
        let line = match &item.inner {
            ItemEnum::Struct(inner) => self.definition("struct", name, &inner.generics),
            ItemEnum::Enum(inner) => self.definition("enum", name, &inner.generics),
            ItemEnum::Union(inner) => self.definition("union", name, &inner.generics),
            ItemEnum::Trait(inner) => self.trait_line(name, inner),
            ItemEnum::TraitAlias(inner) => {
                let mut line = self.line(&format!("trait {name}"));
                line.declare(&inner.generics);
                line.push(" =");
                line.push_bounds(&inner.params);
                line.finish()
            }
            ItemEnum::Function(function) => {
                let mut line = self.line(&format!("fn {name}"));
                line.push_signature(function);
                line.finish()
            }
            ItemEnum::Constant { type_, .. } => {
                let mut line = self.line(&format!("const {name}: "));
                line.push_type(type_);
                line.finish()
            }
            ItemEnum::Static(inner) => {
                let mutable = if inner.is_mutable { "mut " } else { "" };
                let mut line = self.line(&format!("static {mutable}{name}: "));
                line.push_type(&inner.type_);
                line.finish()
            }
            ItemEnum::TypeAlias(alias) => {
                let mut line = self.line(&format!("type {name}"));
                line.declare(&alias.generics);
                line.push(" = ");
                line.push_type(&alias.type_);
                line.finish()
            }
            ItemEnum::Macro(source) => crate::canon::macro_line(name, source),
            ItemEnum::ProcMacro(_) => format!("macro {name}"),
            _ => return,
        };
        self.surface.insert(line);
        match &item.inner {
            ItemEnum::Function(function) => self.signature(function),
            ItemEnum::Constant { type_, .. } => self.types_in(type_),
            ItemEnum::Static(static_item) => self.types_in(&static_item.type_),
            ItemEnum::TypeAlias(alias) => self.types_in(&alias.type_),
            _ => self.reach(id),
        }
    }

    /// `struct NAME<T0, ...> where ...`.
    fn definition(&self, kind: &str, name: &str, generics: &rustdoc_types::Generics) -> String {
        let mut line = self.line(&format!("{kind} {name}"));
        line.declare_type(generics);
        line.finish()
    }

    /// `unsafe trait NAME<T0>: Super + ... where ...`.
    fn trait_line(&self, name: &str, inner: &rustdoc_types::Trait) -> String {
        let unsafety = if inner.is_unsafe { "unsafe " } else { "" };
        let auto = if inner.is_auto { "auto " } else { "" };
        let mut line = self.line(&format!("{unsafety}{auto}trait {name}"));
        line.declare(&inner.generics);
        line.push_bounds(&inner.bounds);
        line.finish()
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
        let own = item.name.clone().unwrap_or_default();
        // Written by its role when outside code cannot name it.
        let name = self.names().shown(id, &own);
        let unnamable = self.names().is_unnamable(id);
        if !self.named.contains(id) {
            // Reached through a signature, though no path names it.
            let line = match &item.inner {
                ItemEnum::Struct(inner) => {
                    self.definition("reachable struct", &name, &inner.generics)
                }
                ItemEnum::Enum(inner) => self.definition("reachable enum", &name, &inner.generics),
                ItemEnum::Union(inner) => {
                    self.definition("reachable union", &name, &inner.generics)
                }
                // A trait outside code cannot name shows only in what it
                // adds: its supertraits (bounds every implementor meets)
                // and its items (below). Its parameters and its impls are
                // seen only through the traits and bounds that name it,
                // which cases probe.
                ItemEnum::Trait(inner) if unnamable => {
                    if inner.bounds.is_empty() {
                        String::new()
                    } else {
                        let mut line = self.line(&format!("reachable trait {name}"));
                        line.push_bounds(&inner.bounds);
                        line.finish()
                    }
                }
                ItemEnum::Trait(inner) => format!("reachable {}", self.trait_line(&name, inner)),
                _ => String::new(),
            };
            if !line.is_empty() {
                self.surface.insert(line);
            }
        }
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
                self.fields(&name, &inner.generics, &fields);
                self.impls(&inner.impls.clone(), false);
            }
            ItemEnum::Union(inner) => {
                self.fields(&name, &inner.generics, &inner.fields.clone());
                self.impls(&inner.impls.clone(), false);
            }
            ItemEnum::Enum(inner) => {
                self.generics(&inner.generics);
                for variant_id in inner.variants.clone() {
                    let Some(variant_item) = self.item(&variant_id).cloned() else {
                        continue;
                    };
                    let ItemEnum::Variant(variant) = variant_item.inner.clone() else {
                        continue;
                    };
                    self.surface.insert(self.variant_line(
                        &name,
                        &inner.generics,
                        variant_item.name.as_deref().unwrap_or("_"),
                        &variant,
                    ));
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
                    let mut line = self.line("");
                    match &member.inner {
                        ItemEnum::Function(function) => {
                            self.signature(function);
                            line.push(&format!("fn {name}"));
                            line.declare(&inner.generics);
                            line.push(&format!("::{member_name}"));
                            line.push_signature(function);
                            if function.has_body {
                                line.push(" provided");
                            }
                        }
                        ItemEnum::AssocConst { type_, value } => {
                            self.types_in(type_);
                            line.push(&format!("const {name}"));
                            line.declare(&inner.generics);
                            line.push(&format!("::{member_name}: "));
                            line.push_type(type_);
                            if value.is_some() {
                                line.push(" provided");
                            }
                        }
                        ItemEnum::AssocType {
                            bounds,
                            type_,
                            generics,
                        } => {
                            self.bounds(bounds);
                            if let Some(ty) = type_ {
                                self.types_in(ty);
                            }
                            line.push(&format!("type {name}"));
                            line.declare(&inner.generics);
                            line.push(&format!("::{member_name}"));
                            line.keep_bounds(generics);
                            line.push_bounds(bounds);
                            if let Some(ty) = type_ {
                                line.push(" = ");
                                line.push_type(ty);
                            }
                        }
                        _ => continue,
                    }
                    self.surface.insert(line.finish());
                }
                if !unnamable {
                    self.impls(&inner.implementations.clone(), true);
                }
            }
            ItemEnum::TraitAlias(inner) => self.bounds(&inner.params.clone()),
            _ => {}
        }
    }

    /// `variant Enum<T0>::Name(T0, u8)`, `variant Enum::Name { a: T0 }`,
    /// `variant Enum::Name = 3`.
    fn variant_line(
        &self,
        owner: &str,
        generics: &rustdoc_types::Generics,
        name: &str,
        variant: &rustdoc_types::Variant,
    ) -> String {
        let mut line = self.line(&format!("variant {owner}"));
        line.declare_type(generics);
        line.push(&format!("::{name}"));
        let field_type = |id: &Id| match self.item(id).map(|item| &item.inner) {
            Some(ItemEnum::StructField(ty)) => Some(ty.clone()),
            _ => None,
        };
        match &variant.kind {
            rustdoc_types::VariantKind::Plain => {}
            rustdoc_types::VariantKind::Tuple(fields) => {
                line.push("(");
                for (index, field) in fields.iter().enumerate() {
                    if index > 0 {
                        line.push(", ");
                    }
                    match field.as_ref().and_then(field_type) {
                        Some(ty) => line.push_type(&ty),
                        None => line.push("_"),
                    }
                }
                line.push(")");
            }
            rustdoc_types::VariantKind::Struct { fields, .. } => {
                line.push(" {");
                for (index, field) in fields.iter().enumerate() {
                    let field_name = self
                        .item(field)
                        .and_then(|item| item.name.clone())
                        .unwrap_or_default();
                    line.push(&format!(
                        "{} {field_name}: ",
                        if index > 0 { "," } else { "" }
                    ));
                    if let Some(ty) = field_type(field) {
                        line.push_type(&ty);
                    }
                }
                line.push(" }");
            }
        }
        if let Some(discriminant) = &variant.discriminant {
            line.push(&format!(" = {}", discriminant.value));
        }
        line.finish()
    }

    fn fields(&mut self, owner: &str, generics: &rustdoc_types::Generics, fields: &[Id]) {
        for (index, field) in fields.iter().enumerate() {
            let Some(item) = self.item(field).cloned() else {
                continue;
            };
            if !is_public(&item) {
                continue;
            }
            let field_name = item.name.clone().unwrap_or_else(|| index.to_string());
            if let ItemEnum::StructField(ty) = &item.inner {
                let mut line = self.line(&format!("field {owner}"));
                line.declare_type(generics);
                line.push(&format!("::{field_name}: "));
                line.push_type(ty);
                self.surface.insert(line.finish());
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
            let auto_trait = implementation.is_synthetic
                && implementation.trait_.as_ref().is_some_and(|path| {
                    matches!(path.path.rsplit("::").next(), Some("Send" | "Sync"))
                });
            if implementation.blanket_impl.is_some()
                || (implementation.is_synthetic && !auto_trait)
                || (item.crate_id != 0 && !auto_trait)
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
        match &implementation.trait_ {
            None => {
                for member in &implementation.items {
                    let Some(member) = self.item(member).cloned() else {
                        continue;
                    };
                    if !is_public(&member) {
                        continue;
                    }
                    let member_name = member.name.clone().unwrap_or_default();
                    let line = match &member.inner {
                        ItemEnum::Function(function) => {
                            self.signature(function);
                            let mut line = self.line("fn ");
                            line.push_self_type(&implementation.for_);
                            line.push(&format!("::{member_name}"));
                            line.keep_bounds(&implementation.generics);
                            line.push_signature(function);
                            line.finish()
                        }
                        ItemEnum::AssocConst { type_, .. } => {
                            self.types_in(type_);
                            let mut line = self.line("const ");
                            line.push_self_type(&implementation.for_);
                            line.push(&format!("::{member_name}: "));
                            line.keep_bounds(&implementation.generics);
                            line.push_type(type_);
                            line.finish()
                        }
                        _ => continue,
                    };
                    self.surface.insert(line);
                }
                self.generics(&implementation.generics);
            }
            Some(trait_path) => {
                if self.is_compiler_marker(trait_path) || self.is_local(&trait_path.id) != of_trait
                {
                    return;
                }
                let line = self.impl_line(implementation, trait_path);
                self.surface.insert(line);
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

    /// `unsafe impl Trait<T0> for Type<T0> { type A = X } where ...`.
    fn impl_line(&self, implementation: &Impl, trait_path: &Path) -> String {
        let unsafety = if implementation.is_unsafe {
            "unsafe "
        } else {
            ""
        };
        let bang = if implementation.is_negative { "!" } else { "" };
        let mut line = self.line(&format!("{unsafety}impl {bang}"));
        line.push_path(trait_path);
        line.push(" for ");
        line.push_self_type(&implementation.for_);
        line.keep_bounds(&implementation.generics);
        let mut members: Vec<String> = Vec::new();
        for member in &implementation.items {
            let Some(member) = self.item(member) else {
                continue;
            };
            let member_name = member.name.clone().unwrap_or_default();
            match &member.inner {
                // In the impl's own line, so that `type Level = H` names
                // the impl's parameter, not a new one.
                ItemEnum::AssocType {
                    type_: Some(ty), ..
                } => {
                    let value = line.type_text(ty);
                    members.push(format!("type {member_name} = {value}"));
                }
                ItemEnum::AssocConst { .. } => members.push(format!("const {member_name}")),
                _ => {}
            }
        }
        members.sort();
        if !members.is_empty() {
            line.push(&format!(" {{ {} }}", members.join("; ")));
        }
        line.finish()
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
                "field Node<T0>::left: Option<Box<Node<T0>>>",
                "fn (private trait)::forge() -> u8 provided where Self: Sized",
                "fn (private type)::poke(&'l0 self)",
                "fn Marker::extra() provided",
                "fn Node<T0>::key(&'l0 self) -> &'l0 T0",
                "fn OrderedSet<T0>::keys_mut(&'l0 mut self) -> &'l0 mut Vec<T0>",
                "fn nested()",
                "impl !Send for OrderedSet<T0>",
                "impl Default for OrderedSet<T0>",
                "impl Deref for OrderedSet<u32> { type Target = (private type) }",
                "impl From<u16> for OrderedSet<u16>",
                "impl IntoIterator for &'l0 OrderedSet<T0> { type IntoIter = Iter<'l0, T0>; type Item = &'l0 T0 }",
                "impl Marker for &'static str",
                "impl Marker for Vec<T0> where T0: Marker",
                "impl Send for (private type)",
                "impl Send for Node<T0> where T0: Send",
                "impl Send for OrderedSet<u16>",
                "impl Sync for (private type)",
                "impl Sync for Node<T0> where T0: Sync",
                "impl Sync for OrderedSet<T0> where T0: Sync",
                "macro edge { () }",
                "macro impl_lock_after { () }",
                "mod set",
                "reachable struct (private type)",
                "struct Node<T0>",
                "struct OrderedSet<T0>",
                "trait Lock: (private trait)",
                "unsafe trait Marker",
            ]
        );
    }

    /// The surface of one file of Rust.
    fn surface_of(source: &str) -> Vec<String> {
        reachable(&json_of(source)).into_iter().collect()
    }

    /// Two spellings of one contract give one surface: `Self` and the
    /// type's name; private names (a seal, a sealed bound) and how wide a
    /// seal's own impl is; implied outlives bounds written out or not;
    /// `for<'a>` and elided lifetimes in `Fn` sugar; a projection and what
    /// the crate's impl says it is; inline and `where` bounds; a module
    /// exported twice over (which must also end).
    #[test]
    fn one_contract_spelled_twice_reads_the_same() {
        let pairs = [
            (
                "pub struct Bank; impl Bank { pub fn new() -> Self { Bank } pub const ZERO: Self = Bank; pub fn me(self: Box<Self>) -> Box<Self> { self } }",
                "pub struct Bank; impl Bank { pub fn new() -> Bank { Bank } pub const ZERO: Bank = Bank; pub fn me(self: Box<Bank>) -> Box<Bank> { self } }",
            ),
            (
                "mod relation { pub trait Ordered<T> {} impl<A, B> Ordered<B> for A where B: super::After<A> {} } pub unsafe trait After<T> {} pub trait Before<T>: relation::Ordered<T> {} impl<A, B> Before<B> for A where B: After<A> {}",
                "mod seal { pub trait Precedes {} impl<A: ?Sized> Precedes for A {} } pub unsafe trait After<T> {} pub trait Before<T>: seal::Precedes {} impl<A, B> Before<B> for A where B: After<A> {}",
            ),
            (
                "mod state { pub trait Release {} impl Release for super::Open {} } pub struct Open; pub struct Sock<S>(S); impl<S: state::Release> Sock<S> { pub fn close(self) {} }",
                "mod states { pub trait Open {} impl Open for super::Open {} } pub struct Open; pub struct Sock<S>(S); impl<S> Sock<S> where S: states::Open { pub fn close(self) {} }",
            ),
            (
                "pub struct Iter<'a, T: 'a>(&'a T); impl<'a, T: 'a> Iter<'a, T> { pub fn get<'b>(&'b self, x: &'a T) -> &'a T where T: 'b { x } } pub fn f<'a, T: 'a>(x: &'a T) -> &'a T { x }",
                "pub struct Iter<'a, T>(&'a T); impl<'a, T> Iter<'a, T> { pub fn get(&self, x: &'a T) -> &'a T { x } } pub fn f<'a, T>(x: &'a T) -> &'a T { x }",
            ),
            (
                "pub struct Token<'a>(&'a ()); pub fn with<F: for<'a, 'b> FnOnce(&'b mut Token<'a>) -> u8>(f: F) {} pub fn boxed(f: Box<dyn for<'x> Fn(&'x u8) -> &'x u8>) {}",
                "pub struct Token<'a>(&'a ()); pub fn with(f: impl FnOnce(&mut Token<'_>) -> u8) {} pub fn boxed(f: Box<dyn Fn(&u8) -> &u8>) {}",
            ),
            (
                "pub struct Set<K>(Vec<K>); pub struct Iter<'a, K>(std::slice::Iter<'a, K>); impl<'a, K> Iterator for Iter<'a, K> { type Item = &'a K; fn next(&mut self) -> Option<&'a K> { self.0.next() } } impl<K> Set<K> { pub fn first(&self) -> Option<<Iter<'_, K> as Iterator>::Item> { self.0.first() } }",
                "pub struct Set<K>(Vec<K>); pub struct Iter<'s, T>(std::slice::Iter<'s, T>); impl<'s, T> Iterator for Iter<'s, T> { type Item = &'s T; fn next(&mut self) -> Option<Self::Item> { self.0.next() } } impl<K> Set<K> { pub fn first(&self) -> Option<&K> { self.0.first() } }",
            ),
            (
                "pub fn f<T: Ord + Clone, U>(t: T, u: U) where U: Copy {}",
                "pub fn f<U: Clone, T>(t: U, u: T) where U: Ord, T: Copy {}",
            ),
        ];
        for (left, right) in pairs {
            assert_eq!(surface_of(left), surface_of(right), "\n{left}\n{right}");
        }
        let looped = surface_of(
            "pub mod again { pub use crate::*; } pub mod twice { pub use crate::*; pub use crate::again::*; } pub fn f() {}",
        );
        assert!(looped.contains(&"fn f()".to_owned()), "{looped:?}");
    }

    /// Two contracts that differ give two surfaces: an associated type
    /// that names the other parameter, an outlives bound nothing implies,
    /// a higher-ranked closure against one tied to the caller's lifetime.
    #[test]
    fn two_contracts_read_differently() {
        let pairs = [
            (
                "pub trait Tr { type Level; } pub struct Pair<H, L>(H, L); impl<H, L> Tr for Pair<H, L> { type Level = H; }",
                "pub trait Tr { type Level; } pub struct Pair<H, L>(H, L); impl<H, L> Tr for Pair<H, L> { type Level = L; }",
            ),
            ("pub fn f<T: 'static>(t: T) {}", "pub fn f<T>(t: T) {}"),
            (
                "pub struct Token<'a>(&'a ()); pub fn with<'t, F: FnOnce(&mut Token<'t>)>(f: F) {}",
                "pub struct Token<'a>(&'a ()); pub fn with<F: FnOnce(&mut Token<'_>)>(f: F) {}",
            ),
            (
                "pub struct Bank; impl Bank { pub fn new() -> Self { Bank } }",
                "pub struct Bank; impl Bank { pub fn new() -> Option<Self> { None } }",
            ),
            (
                "mod seal { pub trait Sealed {} } pub trait Lock: seal::Sealed {}",
                "pub trait Lock {}",
            ),
        ];
        for (left, right) in pairs {
            assert_ne!(surface_of(left), surface_of(right), "\n{left}\n{right}");
        }
    }
}
