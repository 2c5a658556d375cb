//! Canonical signatures: each item of an API written as one line, the same
//! for two crates exactly when outside code can use the items the same
//! way, whatever the crates' spelling.
//!
//! **Invariant**: two items get one line when they differ only in what
//! outside code cannot observe, and two lines otherwise. What is made one:
//!
//! * Type parameters become `T0`, `T1`, ... and lifetimes `'l0`, `'l1`,
//!   ...: for types and traits in the order they are declared (callers name
//!   them by position), for functions and impls in the order they first
//!   appear in the line (callers never name them).
//! * Elided lifetimes are made explicit by the elision rules before they
//!   are named: an elided input lifetime is a fresh one; an elided output
//!   lifetime is `self`'s when the receiver is a reference, else the one
//!   lifetime of the inputs. In `Fn(..)` sugar (a bound, `impl Fn`, `dyn
//!   Fn`) an elided lifetime is a higher-ranked one, and every `for<..>`
//!   list is written from the lifetimes the bound uses, in order: `for<'a>
//!   FnOnce(&mut Token<'a, L>)` and `FnOnce(&mut Token<'_, L>)` read the
//!   same.
//! * `Self` in an impl is the impl's type; a projection such as `<Iter<'a,
//!   K> as Iterator>::Item` is replaced by what the crate's own impl says
//!   it is.
//! * Bounds are gathered from the generics of the item and of its impl,
//!   inline or in `where` clauses, and written sorted after `where`. An
//!   outlives bound the compiler implies (`T: 'a` beside `&'a T`, or
//!   beside `Iter<'a, T>`; a type's `T: 'a` between its own parameters) is
//!   dropped.
//! * Paths are written by their last segment with their arguments
//!   (`Option<&'l0 T0>`), so the same type written through another path
//!   reads the same. An item of the crate that outside code cannot name
//!   (a seal trait in a private module, a private type a signature hands
//!   out) is written by its role: `(private trait)`, without arguments
//!   (outside code can only satisfy such a bound, never name it), or
//!   `(private type)`, with its arguments.
//! * An associated type's value is written in the impl's own line, so it
//!   keeps which parameter it names (`type Level = T0` is not `T1`).

use rustdoc_types::{
    Crate, FunctionPointer, GenericArg, GenericArgs, GenericBound, GenericParamDef,
    GenericParamDefKind, Generics, Id, ItemEnum, Path, Term, TraitBoundModifier, Type,
    WherePredicate,
};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

/// Marker brackets around a name to rename in a raw line.
const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

/// How an item of the crate that outside code cannot name is written.
pub const PRIVATE_TRAIT: &str = "(private trait)";
/// See [`PRIVATE_TRAIT`].
pub const PRIVATE_TYPE: &str = "(private type)";

/// The raw name prefix of higher-ranked lifetimes (`for<'a>`, and the
/// elided lifetimes of `Fn(..)` sugar).
const HIGHER: &str = "'for";

/// What a line needs to know of the crate: its items, and which of them
/// outside code can name.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    /// rustdoc's listing of the crate.
    pub krate: &'a Crate,
    /// The crate's items that outside code can name (exported).
    pub named: &'a HashSet<Id>,
}

impl Names<'_> {
    /// Whether `id` is an item of this crate that outside code cannot name.
    pub fn is_unnamable(&self, id: &Id) -> bool {
        self.krate
            .index
            .get(id)
            .is_some_and(|item| item.crate_id == 0 && !self.named.contains(id))
    }

    /// Whether `id` is a trait.
    fn is_trait(&self, id: &Id) -> bool {
        matches!(
            self.krate.index.get(id).map(|item| &item.inner),
            Some(ItemEnum::Trait(_) | ItemEnum::TraitAlias(_))
        )
    }

    /// The name `id` is written with: its own, or its role when outside
    /// code cannot name it.
    pub fn shown(&self, id: &Id, own: &str) -> String {
        if self.is_unnamable(id) {
            if self.is_trait(id) {
                PRIVATE_TRAIT.to_owned()
            } else {
                PRIVATE_TYPE.to_owned()
            }
        } else {
            own.to_owned()
        }
    }
}

/// The line being written for one item, with its parameters' names still
/// raw (between markers) until [`Line::finish`] names them.
pub struct Line<'a> {
    names: Names<'a>,
    text: String,
    bounds: Vec<String>,
    /// Outlives bounds the compiler implies, `(subject, lifetime)`, raw.
    implied: Vec<(String, String)>,
    /// Names already fixed (declared order), raw name → canonical.
    fixed: BTreeMap<String, String>,
    fresh: usize,
    /// Whether an `impl Trait` is a parameter (in a function's inputs) or
    /// an opaque type (in its output).
    impl_trait_is_parameter: bool,
    /// The impl's type, for `Self`: as written (its elided lifetimes
    /// named) and as text.
    self_type: Option<(Type, String)>,
    /// Higher-ranked lifetimes in scope: their name → raw name.
    higher: Vec<(String, String)>,
    /// How deep projections are being normalised (a bound on cycles).
    depth: usize,
}

/// The kind of a raw name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Type,
    Lifetime,
    Const,
}

impl Kind {
    fn tag(self) -> char {
        match self {
            Kind::Type => 'T',
            Kind::Lifetime => 'L',
            Kind::Const => 'C',
        }
    }
}

fn raw(kind: Kind, name: &str) -> String {
    format!("{OPEN}{}{name}{CLOSE}", kind.tag())
}

/// `ty` with every elided lifetime of an impl's header given a name of
/// its own (`'_` and a reference without one), so that every `Self` in
/// the impl's items reads the same lifetime.
fn named_elisions(ty: &Type) -> Type {
    let mut count = 0;
    let mut value = match serde_json::to_value(ty) {
        Ok(value) => value,
        Err(_) => return ty.clone(),
    };
    fn walk(value: &mut serde_json::Value, count: &mut usize) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::Object(reference)) = map.get_mut("borrowed_ref")
                    && reference
                        .get("lifetime")
                        .is_none_or(|lifetime| lifetime.is_null() || lifetime == "'_")
                {
                    *count += 1;
                    reference.insert(
                        "lifetime".to_owned(),
                        serde_json::Value::String(format!("'elided_impl{count}")),
                    );
                }
                if let Some(serde_json::Value::String(lifetime)) = map.get_mut("lifetime")
                    && lifetime == "'_"
                {
                    *count += 1;
                    *lifetime = format!("'elided_impl{count}");
                }
                for (_, inner) in map.iter_mut() {
                    walk(inner, count);
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, count);
                }
            }
            _ => {}
        }
    }
    walk(&mut value, &mut count);
    serde_json::from_value(value).unwrap_or_else(|_| ty.clone())
}

/// `ty` with generic parameters replaced: types by name (`{"generic":
/// "T"}`), lifetimes by name (`'a`).
fn substituted(
    ty: &Type,
    types: &BTreeMap<String, Type>,
    lifetimes: &BTreeMap<String, String>,
) -> Option<Type> {
    let mut value = serde_json::to_value(ty).ok()?;
    let types: BTreeMap<&String, serde_json::Value> = types
        .iter()
        .filter_map(|(name, ty)| Some((name, serde_json::to_value(ty).ok()?)))
        .collect();
    fn walk(
        value: &mut serde_json::Value,
        types: &BTreeMap<&String, serde_json::Value>,
        lifetimes: &BTreeMap<String, String>,
    ) {
        match value {
            serde_json::Value::Object(map) => {
                if map.len() == 1
                    && let Some(serde_json::Value::String(name)) = map.get("generic")
                    && let Some(replacement) = types.get(name)
                {
                    *value = replacement.clone();
                    return;
                }
                for (_, inner) in map.iter_mut() {
                    walk(inner, types, lifetimes);
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, types, lifetimes);
                }
            }
            serde_json::Value::String(text) => {
                if let Some(replacement) = lifetimes.get(text.as_str()) {
                    *text = replacement.clone();
                }
            }
            _ => {}
        }
    }
    walk(&mut value, &types, lifetimes);
    serde_json::from_value(value).ok()
}

impl<'a> Line<'a> {
    /// A line that starts with `text` (`fn `, `impl `, ...).
    pub fn new(names: Names<'a>, text: &str) -> Line<'a> {
        Line {
            names,
            text: text.to_owned(),
            bounds: Vec::new(),
            implied: Vec::new(),
            fixed: BTreeMap::new(),
            fresh: 0,
            impl_trait_is_parameter: false,
            self_type: None,
            higher: Vec::new(),
            depth: 0,
        }
    }

    /// Appends plain text.
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Names the declared parameters of `generics` by position
    /// (`struct S<T0, 'l0>`), writes them as a parameter list, and keeps
    /// their bounds.
    pub fn declare(&mut self, generics: &Generics) {
        let mut shown = Vec::new();
        let (mut types, mut lifetimes, mut consts) = (0, 0, 0);
        for param in &generics.params {
            let (kind, canonical) = match &param.kind {
                GenericParamDefKind::Lifetime { .. } => {
                    lifetimes += 1;
                    (Kind::Lifetime, format!("'l{}", lifetimes - 1))
                }
                GenericParamDefKind::Type { .. } => {
                    types += 1;
                    (Kind::Type, format!("T{}", types - 1))
                }
                GenericParamDefKind::Const { .. } => {
                    consts += 1;
                    (Kind::Const, format!("C{}", consts - 1))
                }
            };
            self.fixed.insert(raw(kind, &param.name), canonical);
            shown.push(raw(kind, &param.name));
        }
        if !shown.is_empty() {
            let _ = write!(self.text, "<{}>", shown.join(", "));
        }
        self.keep_bounds(generics);
    }

    /// As [`Line::declare`], for the parameters of a type (a struct, an
    /// enum, a union): an outlives bound between two of its parameters is
    /// what the compiler infers from its fields, written or not.
    pub fn declare_type(&mut self, generics: &Generics) {
        self.declare(generics);
        let lifetimes: Vec<String> = generics
            .params
            .iter()
            .filter(|param| matches!(param.kind, GenericParamDefKind::Lifetime { .. }))
            .map(|param| raw(Kind::Lifetime, &param.name))
            .collect();
        for param in &generics.params {
            let subject = match param.kind {
                GenericParamDefKind::Lifetime { .. } => raw(Kind::Lifetime, &param.name),
                GenericParamDefKind::Type { .. } => raw(Kind::Type, &param.name),
                GenericParamDefKind::Const { .. } => continue,
            };
            for lifetime in &lifetimes {
                self.implied.push((subject.clone(), lifetime.clone()));
            }
        }
    }

    /// Keeps the bounds of `generics` (inline and `where`), to be written
    /// after the line.
    pub fn keep_bounds(&mut self, generics: &Generics) {
        for param in &generics.params {
            match &param.kind {
                // `impl Trait` in an argument: its bounds come with the
                // input (see `ty_with`), as if it were written `T: Trait`.
                GenericParamDefKind::Type {
                    is_synthetic: true, ..
                } => {}
                GenericParamDefKind::Type { bounds, .. } if !bounds.is_empty() => {
                    let subject = raw(Kind::Type, &param.name);
                    for bound in bounds {
                        let bound = self.bound(bound, None);
                        self.bounds.push(format!("{subject}: {bound}"));
                    }
                }
                GenericParamDefKind::Lifetime { outlives } => {
                    let subject = raw(Kind::Lifetime, &param.name);
                    for other in outlives {
                        let other = self.lifetime(other);
                        self.bounds.push(format!("{subject}: {other}"));
                    }
                }
                GenericParamDefKind::Const { type_, .. } => {
                    let ty = self.ty(type_);
                    self.bounds
                        .push(format!("const {}: {ty}", raw(Kind::Const, &param.name)));
                }
                GenericParamDefKind::Type { .. } => {}
            }
        }
        for predicate in &generics.where_predicates {
            match predicate {
                WherePredicate::BoundPredicate {
                    type_,
                    bounds,
                    generic_params,
                } => {
                    let scope = self.higher.len();
                    let since = self.fresh;
                    self.enter_higher(generic_params);
                    let subject = self.ty(type_);
                    for bound in bounds {
                        let bound = self.bound(bound, Some(since));
                        self.bounds.push(format!("{subject}: {bound}"));
                    }
                    self.higher.truncate(scope);
                }
                WherePredicate::LifetimePredicate { lifetime, outlives } => {
                    let subject = self.lifetime(lifetime);
                    for other in outlives {
                        let other = self.lifetime(other);
                        self.bounds.push(format!("{subject}: {other}"));
                    }
                }
                WherePredicate::EqPredicate { lhs, rhs } => {
                    let lhs = self.ty(lhs);
                    let rhs = self.term(rhs);
                    self.bounds.push(format!("{lhs} == {rhs}"));
                }
            }
        }
    }

    /// Writes bounds as `: A + B` (sorted), or nothing.
    pub fn push_bounds(&mut self, bounds: &[GenericBound]) {
        let mut parts: Vec<String> = bounds.iter().map(|bound| self.bound(bound, None)).collect();
        parts.sort();
        parts.dedup();
        if !parts.is_empty() {
            let _ = write!(self.text, ": {}", parts.join(" + "));
        }
    }

    /// Writes a type.
    pub fn push_type(&mut self, ty: &Type) {
        let text = self.ty(ty);
        self.text.push_str(&text);
    }

    /// A type's text, to be placed in the line by the caller (raw names
    /// stay raw until [`Line::finish`]).
    pub fn type_text(&mut self, ty: &Type) -> String {
        self.ty(ty)
    }

    /// Writes a path (a trait with its arguments) of an impl's header,
    /// where an elided lifetime is a fresh parameter.
    pub fn push_path(&mut self, path: &Path) {
        let text = self.path_with(path, &mut |line| Some(line.fresh_lifetime()));
        self.text.push_str(&text);
    }

    /// Writes the type of an impl's header (`Iter<'_, T>`), where an elided
    /// lifetime is a parameter of the impl, and makes it what `Self` means
    /// in the rest of the line.
    pub fn push_self_type(&mut self, ty: &Type) {
        let ty = named_elisions(ty);
        let text = self.ty(&ty);
        self.self_type = Some((ty, text.clone()));
        self.text.push_str(&text);
    }

    /// Writes a function's inputs and output, with the elision rules
    /// applied: `(&'l0 self, T0) -> Option<&'l0 T0>`.
    pub fn push_signature(&mut self, function: &rustdoc_types::Function) {
        let header = &function.header;
        let mut qualifiers = String::new();
        if header.is_const {
            qualifiers.push_str("const ");
        }
        if header.is_async {
            qualifiers.push_str("async ");
        }
        if header.is_unsafe {
            qualifiers.push_str("unsafe ");
        }
        if !matches!(header.abi, rustdoc_types::Abi::Rust) {
            let _ = write!(qualifiers, "extern {:?} ", header.abi);
        }
        // The qualifiers go before the line's first word (`fn`).
        self.text.insert_str(0, &qualifiers);
        self.keep_bounds(&function.generics);
        let mut inputs = Vec::new();
        let mut receiver_lifetime: Option<String> = None;
        let mut input_lifetimes: Vec<String> = Vec::new();
        self.impl_trait_is_parameter = true;
        for (name, ty) in &function.sig.inputs {
            let mut text = if name == "self" {
                self.receiver(ty, &mut receiver_lifetime)
            } else {
                self.ty_elided(ty)
            };
            collect_lifetimes(&text, &mut input_lifetimes);
            if function.sig.is_c_variadic && inputs.len() + 1 == function.sig.inputs.len() {
                text.push_str(", ...");
            }
            inputs.push(text);
        }
        self.impl_trait_is_parameter = false;
        let _ = write!(self.text, "({})", inputs.join(", "));
        if let Some(output) = &function.sig.output {
            // Higher-ranked lifetimes are no candidates: they belong to
            // their own bound.
            input_lifetimes.retain(|lifetime| !is_higher(lifetime));
            input_lifetimes.dedup();
            let elided_output = receiver_lifetime.clone().or_else(|| {
                let mut distinct = input_lifetimes.clone();
                distinct.sort();
                distinct.dedup();
                (distinct.len() == 1).then(|| distinct[0].clone())
            });
            let text = self.ty_output(output, elided_output.as_deref());
            let _ = write!(self.text, " -> {text}");
        }
    }

    /// The receiver: `self`, `&'l self`, `&'l mut self`, or `self: TYPE`.
    fn receiver(&mut self, ty: &Type, lifetime: &mut Option<String>) -> String {
        match ty {
            Type::Generic(name) if name == "Self" => "self".to_owned(),
            Type::BorrowedRef {
                lifetime: named,
                is_mutable,
                type_,
            } if matches!(type_.as_ref(), Type::Generic(name) if name == "Self") => {
                let lt = match named {
                    Some(named) if named != "'_" => self.lifetime(named),
                    _ => self.fresh_lifetime(),
                };
                *lifetime = Some(lt.clone());
                if let Some((self_type, self_text)) = self.self_type.clone() {
                    self.outlives(&self_type, &self_text, &lt);
                }
                format!("&{lt} {}self", if *is_mutable { "mut " } else { "" })
            }
            other => {
                let text = self.ty_elided(other);
                format!("self: {text}")
            }
        }
    }

    /// `&'l TYPE` is well formed only when `TYPE` outlives `'l`, and so
    /// every parameter and lifetime in it: keeps each as implied.
    fn outlives(&mut self, ty: &Type, text: &str, lifetime: &str) {
        self.implied.push((text.to_owned(), lifetime.to_owned()));
        let (generics, lifetimes) = components(ty);
        for generic in generics {
            let subject = if generic == "Self" {
                match &self.self_type {
                    Some((_, text)) => text.clone(),
                    None => continue,
                }
            } else {
                raw(Kind::Type, &generic)
            };
            self.implied.push((subject, lifetime.to_owned()));
        }
        for inner in lifetimes {
            let inner = self.lifetime(&inner);
            self.implied.push((inner, lifetime.to_owned()));
        }
    }

    fn fresh_lifetime(&mut self) -> String {
        self.fresh += 1;
        raw(Kind::Lifetime, &format!("'elided{}", self.fresh))
    }

    fn fresh_higher(&mut self) -> String {
        self.fresh += 1;
        raw(Kind::Lifetime, &format!("{HIGHER}{}", self.fresh))
    }

    /// Brings the lifetimes of a `for<..>` list into scope, each under a
    /// raw name of its own.
    fn enter_higher(&mut self, params: &[GenericParamDef]) {
        for param in params {
            if matches!(param.kind, GenericParamDefKind::Lifetime { .. }) {
                let name = self.fresh_higher();
                self.higher.push((param.name.clone(), name));
            }
        }
    }

    /// A type of an input: every elided lifetime a fresh one.
    fn ty_elided(&mut self, ty: &Type) -> String {
        self.ty_with(ty, &mut |line| Some(line.fresh_lifetime()))
    }

    /// The output type: every elided lifetime `elided` (when the rules
    /// give one).
    fn ty_output(&mut self, ty: &Type, elided: Option<&str>) -> String {
        self.ty_with(ty, &mut |_| elided.map(str::to_owned))
    }

    /// A type with elided lifetimes left as `'_`.
    pub fn ty(&mut self, ty: &Type) -> String {
        self.ty_with(ty, &mut |_| None)
    }

    fn lifetime(&self, name: &str) -> String {
        if name == "'static" || name == "'_" {
            return name.to_owned();
        }
        if let Some((_, higher)) = self.higher.iter().rev().find(|(own, _)| own == name) {
            return higher.clone();
        }
        raw(Kind::Lifetime, name)
    }

    fn lifetime_or(
        &mut self,
        name: Option<&str>,
        elided: &mut dyn FnMut(&mut Line<'a>) -> Option<String>,
    ) -> Option<String> {
        match name {
            Some(name) if name != "'_" => Some(self.lifetime(name)),
            _ => elided(self),
        }
    }

    fn ty_with(
        &mut self,
        ty: &Type,
        elided: &mut dyn FnMut(&mut Line<'a>) -> Option<String>,
    ) -> String {
        match ty {
            Type::ResolvedPath(path) => self.path_with(path, elided),
            Type::Generic(name) if name == "Self" => match &self.self_type {
                Some((_, text)) => text.clone(),
                None => "Self".to_owned(),
            },
            Type::Generic(name) => raw(Kind::Type, name),
            Type::Primitive(name) => name.clone(),
            Type::Infer => "_".to_owned(),
            Type::BorrowedRef {
                lifetime,
                is_mutable,
                type_,
            } => {
                let lt = self.lifetime_or(lifetime.as_deref(), elided);
                let inner = self.ty_with(type_, elided);
                if let Some(lt) = &lt {
                    self.outlives(type_, &inner, lt);
                }
                format!(
                    "&{}{}{inner}",
                    lt.map(|lt| format!("{lt} ")).unwrap_or_default(),
                    if *is_mutable { "mut " } else { "" }
                )
            }
            Type::RawPointer { is_mutable, type_ } => {
                let inner = self.ty_with(type_, elided);
                format!("*{} {inner}", if *is_mutable { "mut" } else { "const" })
            }
            Type::Slice(inner) => format!("[{}]", self.ty_with(inner, elided)),
            Type::Array { type_, len } => {
                format!(
                    "[{}; {}]",
                    self.ty_with(type_, elided),
                    self.const_text(len)
                )
            }
            Type::Pat { type_, .. } => self.ty_with(type_, elided),
            Type::Tuple(types) => {
                let items: Vec<String> = types.iter().map(|ty| self.ty_with(ty, elided)).collect();
                if items.len() == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            Type::DynTrait(dyn_trait) => {
                let mut parts: Vec<String> = dyn_trait
                    .traits
                    .iter()
                    .map(|poly| self.higher_ranked(&poly.trait_, &poly.generic_params, "", None))
                    .collect();
                if let Some(lt) = &dyn_trait.lifetime {
                    parts.push(self.lifetime(lt));
                }
                format!("dyn {}", parts.join(" + "))
            }
            Type::ImplTrait(bounds) if self.impl_trait_is_parameter => {
                // The same as a named parameter with these bounds.
                self.fresh += 1;
                let param = raw(Kind::Type, &format!("impl{}", self.fresh));
                for bound in bounds {
                    let bound = self.bound(bound, None);
                    self.bounds.push(format!("{param}: {bound}"));
                }
                param
            }
            Type::ImplTrait(bounds) => {
                let mut parts: Vec<String> =
                    bounds.iter().map(|bound| self.bound(bound, None)).collect();
                parts.sort();
                format!("impl {}", parts.join(" + "))
            }
            Type::FunctionPointer(pointer) => self.function_pointer(pointer),
            Type::QualifiedPath {
                name,
                args,
                self_type,
                trait_,
            } => {
                if let Some(normal) = self.normalised(name, args.as_deref(), self_type, trait_) {
                    self.depth += 1;
                    let text = self.ty_with(&normal, elided);
                    self.depth -= 1;
                    return text;
                }
                let self_text = self.ty_with(self_type, elided);
                let mut text = match trait_ {
                    Some(trait_) => {
                        format!(
                            "<{self_text} as {}>::{name}",
                            self.path_with(trait_, elided)
                        )
                    }
                    None => format!("{self_text}::{name}"),
                };
                if let Some(args) = args {
                    text.push_str(&self.args_with(args, elided));
                }
                text
            }
        }
    }

    /// What `<SELF as TRAIT>::NAME` is, when `SELF` is a type of the crate
    /// whose impl of `TRAIT` says so: the impl's associated type, with the
    /// impl's parameters replaced by `SELF`'s arguments.
    fn normalised(
        &self,
        name: &str,
        args: Option<&GenericArgs>,
        self_type: &Type,
        trait_: &Option<Path>,
    ) -> Option<Type> {
        if self.depth > 8 || args.is_some_and(|args| !args_are_empty(args)) {
            return None;
        }
        let trait_ = trait_.as_ref()?;
        let self_type = match self_type {
            Type::Generic(generic) if generic == "Self" => self.self_type.as_ref()?.0.clone(),
            other => other.clone(),
        };
        let Type::ResolvedPath(self_path) = &self_type else {
            return None;
        };
        let krate = self.names.krate;
        let impls = match &krate.index.get(&self_path.id)?.inner {
            ItemEnum::Struct(inner) => &inner.impls,
            ItemEnum::Enum(inner) => &inner.impls,
            ItemEnum::Union(inner) => &inner.impls,
            _ => return None,
        };
        for id in impls {
            let Some(ItemEnum::Impl(implementation)) = krate.index.get(id).map(|item| &item.inner)
            else {
                continue;
            };
            if implementation.trait_.as_ref().map(|path| path.id) != Some(trait_.id)
                || implementation.is_negative
            {
                continue;
            }
            let Some((types, lifetimes)) = unify(&implementation.for_, &self_type) else {
                continue;
            };
            for member in &implementation.items {
                let Some(member) = krate.index.get(member) else {
                    continue;
                };
                if member.name.as_deref() != Some(name) {
                    continue;
                }
                if let ItemEnum::AssocType {
                    type_: Some(value), ..
                } = &member.inner
                {
                    return substituted(value, &types, &lifetimes);
                }
            }
        }
        None
    }

    fn function_pointer(&mut self, pointer: &FunctionPointer) -> String {
        let scope = self.higher.len();
        let since = self.fresh;
        self.enter_higher(&pointer.generic_params);
        let inputs: Vec<String> = pointer
            .sig
            .inputs
            .iter()
            .map(|(_, ty)| self.ty_with(ty, &mut |line| Some(line.fresh_higher())))
            .collect();
        let mut used = Vec::new();
        for input in &inputs {
            collect_lifetimes(input, &mut used);
        }
        used.sort();
        used.dedup();
        let single = (used.len() == 1).then(|| used[0].clone());
        let output = pointer
            .sig
            .output
            .as_ref()
            .map(|output| {
                let single = single.clone();
                format!(
                    " -> {}",
                    self.ty_with(output, &mut |line| single
                        .clone()
                        .or_else(|| Some(line.fresh_higher())))
                )
            })
            .unwrap_or_default();
        self.higher.truncate(scope);
        let unsafety = if pointer.header.is_unsafe {
            "unsafe "
        } else {
            ""
        };
        let body = format!("{unsafety}fn({}){output}", inputs.join(", "));
        with_for_list(&body, since)
    }

    fn const_text(&self, text: &str) -> String {
        // A const parameter used as a length reads as its raw name.
        if text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && text.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && !text.chars().all(|c| c.is_ascii_digit())
        {
            raw(Kind::Const, text)
        } else {
            text.to_owned()
        }
    }

    /// A path: its last segment and its arguments.
    pub fn path(&mut self, path: &Path) -> String {
        self.path_with(path, &mut |_| None)
    }

    fn path_with(
        &mut self,
        path: &Path,
        elided: &mut dyn FnMut(&mut Line<'a>) -> Option<String>,
    ) -> String {
        let own = self
            .names
            .krate
            .paths
            .get(&path.id)
            .and_then(|summary| summary.path.last().cloned())
            .unwrap_or_else(|| path.path.rsplit("::").next().unwrap_or_default().to_owned());
        let name = self.names.shown(&path.id, &own);
        if name == PRIVATE_TRAIT {
            // Outside code can only satisfy such a bound: its arguments
            // are not part of what it sees.
            return name;
        }
        let args = path
            .args
            .as_ref()
            .map(|args| self.args_with(args, elided))
            .unwrap_or_default();
        // A type with a lifetime and a type among its arguments is well
        // formed only when the type outlives the lifetime (`Iter<'a, T>`).
        if let Some(GenericArgs::AngleBracketed { args: list, .. }) = path.args.as_deref() {
            let lifetimes: Vec<String> = list
                .iter()
                .filter_map(|arg| match arg {
                    GenericArg::Lifetime(name) if name != "'_" => Some(self.lifetime(name)),
                    _ => None,
                })
                .collect();
            if !lifetimes.is_empty() {
                for arg in list {
                    if let GenericArg::Type(Type::Generic(generic)) = arg {
                        let subject = if generic == "Self" {
                            match &self.self_type {
                                Some((_, text)) => text.clone(),
                                None => continue,
                            }
                        } else {
                            raw(Kind::Type, generic)
                        };
                        for lifetime in &lifetimes {
                            self.implied.push((subject.clone(), lifetime.clone()));
                        }
                    }
                }
            }
        }
        format!("{name}{args}")
    }

    fn args_with(
        &mut self,
        args: &GenericArgs,
        elided: &mut dyn FnMut(&mut Line<'a>) -> Option<String>,
    ) -> String {
        match args {
            GenericArgs::AngleBracketed { args, constraints } => {
                let mut shown: Vec<String> = Vec::new();
                for arg in args {
                    match arg {
                        GenericArg::Lifetime(name) => {
                            if let Some(lt) = self.lifetime_or(Some(name), elided) {
                                shown.push(lt);
                            }
                        }
                        GenericArg::Type(ty) => shown.push(self.ty_with(ty, elided)),
                        GenericArg::Const(constant) => {
                            shown.push(self.const_text(&constant.expr));
                        }
                        GenericArg::Infer => shown.push("_".to_owned()),
                    }
                }
                for constraint in constraints {
                    match &constraint.binding {
                        rustdoc_types::AssocItemConstraintKind::Equality(term) => {
                            let term = match term {
                                Term::Type(ty) => self.ty_with(ty, elided),
                                Term::Constant(constant) => self.const_text(&constant.expr),
                            };
                            shown.push(format!("{} = {term}", constraint.name));
                        }
                        rustdoc_types::AssocItemConstraintKind::Constraint(bounds) => {
                            let mut parts: Vec<String> =
                                bounds.iter().map(|bound| self.bound(bound, None)).collect();
                            parts.sort();
                            shown.push(format!("{}: {}", constraint.name, parts.join(" + ")));
                        }
                    }
                }
                if shown.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", shown.join(", "))
                }
            }
            GenericArgs::Parenthesized { inputs, output } => {
                // `Fn(..)` sugar: an elided lifetime of an input is a
                // higher-ranked one; the output's is the inputs' one
                // lifetime, as in a function.
                let inputs: Vec<String> = inputs
                    .iter()
                    .map(|ty| self.ty_with(ty, &mut |line| Some(line.fresh_higher())))
                    .collect();
                let mut used = Vec::new();
                for input in &inputs {
                    collect_lifetimes(input, &mut used);
                }
                used.sort();
                used.dedup();
                let single = (used.len() == 1).then(|| used[0].clone());
                let output = output
                    .as_ref()
                    .map(|output| {
                        let single = single.clone();
                        format!(
                            " -> {}",
                            self.ty_with(output, &mut |line| single
                                .clone()
                                .or_else(|| Some(line.fresh_higher())))
                        )
                    })
                    .unwrap_or_default();
                format!("({}){output}", inputs.join(", "))
            }
            GenericArgs::ReturnTypeNotation => "(..)".to_owned(),
        }
    }

    fn term(&mut self, term: &Term) -> String {
        match term {
            Term::Type(ty) => self.ty(ty),
            Term::Constant(constant) => self.const_text(&constant.expr),
        }
    }

    /// A trait path with its `for<..>` list (`params`) and a prefix
    /// (`?`), the list written from the higher-ranked lifetimes the path
    /// uses, in order of use.
    /// `since`: the higher-ranked lifetimes made after this count belong
    /// to the list (those of an enclosing `for<..>` do not).
    fn higher_ranked(
        &mut self,
        trait_: &Path,
        params: &[GenericParamDef],
        prefix: &str,
        since: Option<usize>,
    ) -> String {
        let since = since.unwrap_or(self.fresh);
        let scope = self.higher.len();
        self.enter_higher(params);
        let path = self.path(trait_);
        self.higher.truncate(scope);
        with_for_list(&format!("{prefix}{path}"), since)
    }

    /// A bound: `Ord`, `?Sized`, `'l0`, `for<'l1> Fn(&'l1 T0)`.
    fn bound(&mut self, bound: &GenericBound, since: Option<usize>) -> String {
        match bound {
            GenericBound::TraitBound {
                trait_,
                generic_params,
                modifier,
            } => {
                let prefix = match modifier {
                    TraitBoundModifier::None => "",
                    TraitBoundModifier::Maybe => "?",
                    TraitBoundModifier::MaybeConst => "~const ",
                };
                self.higher_ranked(trait_, generic_params, prefix, since)
            }
            GenericBound::Outlives(lifetime) => self.lifetime(lifetime),
            GenericBound::Use(_) => "use<..>".to_owned(),
        }
    }

    /// The line, its parameters named, its bounds after `where`, sorted.
    pub fn finish(self) -> String {
        let mut names = self.fixed.clone();
        let mut counters = [0usize; 3];
        for canonical in names.values() {
            let index = match canonical.chars().next() {
                Some('\'') => 1,
                Some('T') => 0,
                _ => 2,
            };
            counters[index] += 1;
        }
        let mut rename = |text: &str, names: &mut BTreeMap<String, String>| -> String {
            let mut out = String::new();
            let mut rest = text;
            while let Some(start) = rest.find(OPEN) {
                out.push_str(&rest[..start]);
                let after = &rest[start + OPEN.len_utf8()..];
                let Some(end) = after.find(CLOSE) else {
                    out.push_str(after);
                    return out;
                };
                let token = &rest[start..start + OPEN.len_utf8() + end + CLOSE.len_utf8()];
                let canonical = names.entry(token.to_owned()).or_insert_with(|| {
                    let (index, prefix) = match after.chars().next() {
                        Some('L') => (1, "'l"),
                        Some('T') => (0, "T"),
                        _ => (2, "C"),
                    };
                    counters[index] += 1;
                    format!("{prefix}{}", counters[index] - 1)
                });
                out.push_str(canonical);
                rest = &after[end + CLOSE.len_utf8()..];
            }
            out.push_str(rest);
            out
        };
        let line = rename(&self.text, &mut names);
        let implied: HashSet<String> = self
            .implied
            .iter()
            .map(|(subject, lifetime)| format!("{subject}: {lifetime}"))
            .collect();
        let mut bounds: Vec<String> = self
            .bounds
            .iter()
            .filter(|bound| !implied.contains(*bound))
            .map(|bound| rename(bound, &mut names))
            .collect();
        bounds.sort();
        bounds.dedup();
        let mut line = line;
        if !bounds.is_empty() {
            let _ = write!(line, " where {}", bounds.join(", "));
        }
        line
    }
}

/// The type parameters and the named lifetimes a type mentions.
fn components(ty: &Type) -> (Vec<String>, Vec<String>) {
    fn walk(value: &serde_json::Value, generics: &mut Vec<String>, lifetimes: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, inner) in map {
                    match (key.as_str(), inner) {
                        ("generic", serde_json::Value::String(name)) => generics.push(name.clone()),
                        ("lifetime", serde_json::Value::String(name))
                            if name.starts_with('\'') && name != "'_" && name != "'static" =>
                        {
                            lifetimes.push(name.clone());
                        }
                        _ => walk(inner, generics, lifetimes),
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, generics, lifetimes);
                }
            }
            _ => {}
        }
    }
    let (mut generics, mut lifetimes) = (Vec::new(), Vec::new());
    if let Ok(value) = serde_json::to_value(ty) {
        walk(&value, &mut generics, &mut lifetimes);
    }
    (generics, lifetimes)
}

/// Whether every argument list of `args` is empty.
fn args_are_empty(args: &GenericArgs) -> bool {
    match args {
        GenericArgs::AngleBracketed { args, constraints } => {
            args.is_empty() && constraints.is_empty()
        }
        GenericArgs::Parenthesized { .. } | GenericArgs::ReturnTypeNotation => false,
    }
}

type Bindings = (BTreeMap<String, Type>, BTreeMap<String, String>);

/// The parameters of an impl's type (`pattern`, such as `Iter<'a, K>`)
/// bound to the arguments of `actual` (`Iter<'s, String>`), when `actual`
/// is an instance of it.
fn unify(pattern: &Type, actual: &Type) -> Option<Bindings> {
    let mut bindings: Bindings = (BTreeMap::new(), BTreeMap::new());
    fn walk(pattern: &Type, actual: &Type, bindings: &mut Bindings) -> bool {
        match (pattern, actual) {
            (Type::Generic(name), _) => match bindings.0.get(name) {
                Some(bound) => bound == actual,
                None => {
                    bindings.0.insert(name.clone(), actual.clone());
                    true
                }
            },
            (Type::ResolvedPath(left), Type::ResolvedPath(right)) => {
                if left.id != right.id {
                    return false;
                }
                let (Some(left), Some(right)) = (left.args.as_deref(), right.args.as_deref())
                else {
                    return left.args.is_none() && right.args.is_none();
                };
                match (left, right) {
                    (
                        GenericArgs::AngleBracketed { args: left, .. },
                        GenericArgs::AngleBracketed { args: right, .. },
                    ) => {
                        left.len() == right.len()
                            && left.iter().zip(right).all(|pair| match pair {
                                (GenericArg::Lifetime(l), GenericArg::Lifetime(r)) => {
                                    bindings.1.insert(l.clone(), r.clone());
                                    true
                                }
                                (GenericArg::Type(l), GenericArg::Type(r)) => walk(l, r, bindings),
                                (l, r) => l == r,
                            })
                    }
                    (left, right) => left == right,
                }
            }
            (
                Type::BorrowedRef {
                    lifetime: left_lifetime,
                    is_mutable: left_mutable,
                    type_: left,
                },
                Type::BorrowedRef {
                    lifetime: right_lifetime,
                    is_mutable: right_mutable,
                    type_: right,
                },
            ) => {
                if left_mutable != right_mutable {
                    return false;
                }
                if let (Some(l), Some(r)) = (left_lifetime, right_lifetime) {
                    bindings.1.insert(l.clone(), r.clone());
                }
                walk(left, right, bindings)
            }
            (left, right) => left == right,
        }
    }
    walk(pattern, actual, &mut bindings).then_some(bindings)
}

/// The number of a higher-ranked raw lifetime.
fn higher_number(raw_lifetime: &str) -> Option<usize> {
    raw_lifetime
        .strip_prefix(&format!("{OPEN}L{HIGHER}"))?
        .strip_suffix(CLOSE)?
        .parse()
        .ok()
}

/// Whether a raw lifetime is higher-ranked.
fn is_higher(raw_lifetime: &str) -> bool {
    higher_number(raw_lifetime).is_some()
}

/// `text` behind the `for<..>` list of the higher-ranked lifetimes made
/// after `since` that it uses, in order of first use (nothing when it uses
/// none).
fn with_for_list(text: &str, since: usize) -> String {
    let mut used = Vec::new();
    collect_lifetimes(text, &mut used);
    let mut higher: Vec<String> = Vec::new();
    for lifetime in used {
        if higher_number(&lifetime).is_some_and(|number| number > since)
            && !higher.contains(&lifetime)
        {
            higher.push(lifetime);
        }
    }
    if higher.is_empty() {
        text.to_owned()
    } else {
        format!("for<{}> {text}", higher.join(", "))
    }
}

/// The raw lifetime names in `text`, in order.
fn collect_lifetimes(text: &str, into: &mut Vec<String>) {
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len_utf8()..];
        let Some(end) = after.find(CLOSE) else { return };
        if after.starts_with('L') {
            into.push(rest[start..start + OPEN.len_utf8() + end + CLOSE.len_utf8()].to_owned());
        }
        rest = &after[end + CLOSE.len_utf8()..];
    }
}

/// A `macro_rules!` macro as outside code calls it: its name and the
/// matchers of its arms, with metavariables unnamed (`$:ty`).
pub fn macro_line(name: &str, source: &str) -> String {
    use proc_macro2::{TokenStream, TokenTree};
    let Ok(tokens) = source.parse::<TokenStream>() else {
        return format!(
            "macro {name} {{ {} }}",
            source.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    };
    // `macro_rules! NAME { ARMS }`: the last group holds the arms.
    let Some(TokenTree::Group(body)) = tokens
        .into_iter()
        .filter(|tree| matches!(tree, TokenTree::Group(_)))
        .last()
    else {
        return format!("macro {name}");
    };
    let mut matchers = Vec::new();
    let mut expect_matcher = true;
    for tree in body.stream() {
        match tree {
            TokenTree::Group(group) if expect_matcher => {
                matchers.push(unnamed(group.stream()).to_string());
                expect_matcher = false;
            }
            TokenTree::Punct(punct) if punct.as_char() == ';' => expect_matcher = true,
            _ => {}
        }
    }
    format!(
        "macro {name} {{ {} }}",
        matchers
            .iter()
            .map(|matcher| format!("({matcher})"))
            .collect::<Vec<_>>()
            .join(" | ")
    )
}

/// A matcher with every metavariable's name dropped: `$a:ty` and `$b:ty`
/// match the same input.
fn unnamed(stream: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Group, TokenTree};
    let mut out = Vec::new();
    let mut after_dollar = false;
    for tree in stream {
        match tree {
            TokenTree::Punct(punct) if punct.as_char() == '$' => {
                after_dollar = true;
                out.push(TokenTree::Punct(punct));
                continue;
            }
            TokenTree::Ident(_) if after_dollar => {}
            TokenTree::Group(group) => {
                let mut copy = Group::new(group.delimiter(), unnamed(group.stream()));
                copy.set_span(group.span());
                out.push(TokenTree::Group(copy));
            }
            other => out.push(other),
        }
        after_dollar = false;
    }
    out.into_iter().collect()
}
