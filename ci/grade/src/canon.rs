//! Canonical signatures: each item of an API written as one line, the same
//! for two crates exactly when outside code can use the items the same
//! way, whatever names the crates gave their generic parameters and
//! lifetimes and whether they elided lifetimes.
//!
//! * Type parameters become `T0`, `T1`, ... and lifetimes `'l0`, `'l1`,
//!   ...: for types and traits in the order they are declared (callers name
//!   them by position), for functions and impls in the order they first
//!   appear in the line (callers never name them).
//! * Elided lifetimes are made explicit by the elision rules before they
//!   are named: an elided input lifetime is a fresh one; an elided output
//!   lifetime is `self`'s when the receiver is a reference, else the one
//!   lifetime of the inputs.
//! * Bounds are gathered from the generics of the item and of its impl,
//!   inline or in `where` clauses, and written sorted after `where`.
//! * Paths are written by their last segment with their arguments
//!   (`Option<&'l0 T0>`), so the same type written through another path
//!   reads the same.

use rustdoc_types::{
    Crate, FunctionPointer, GenericArg, GenericArgs, GenericBound, GenericParamDefKind, Generics,
    Path, Term, TraitBoundModifier, Type, WherePredicate,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Marker brackets around a name to rename in a raw line.
const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

/// The line being written for one item, with its parameters' names still
/// raw (between markers) until [`Line::finish`] names them.
pub struct Line<'a> {
    krate: &'a Crate,
    text: String,
    bounds: Vec<String>,
    /// Names already fixed (declared order), raw name → canonical.
    fixed: BTreeMap<String, String>,
    fresh: usize,
    /// Whether an `impl Trait` is a parameter (in a function's inputs) or
    /// an opaque type (in its output).
    impl_trait_is_parameter: bool,
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

impl<'a> Line<'a> {
    /// A line that starts with `text` (`fn `, `impl `, ...).
    pub fn new(krate: &'a Crate, text: &str) -> Line<'a> {
        Line {
            krate,
            text: text.to_owned(),
            bounds: Vec::new(),
            fixed: BTreeMap::new(),
            fresh: 0,
            impl_trait_is_parameter: false,
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
                        let bound = self.bound(bound);
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
                WherePredicate::BoundPredicate { type_, bounds, .. } => {
                    let subject = self.ty(type_);
                    for bound in bounds {
                        let bound = self.bound(bound);
                        self.bounds.push(format!("{subject}: {bound}"));
                    }
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
        let mut parts: Vec<String> = bounds.iter().map(|bound| self.bound(bound)).collect();
        parts.sort();
        if !parts.is_empty() {
            let _ = write!(self.text, ": {}", parts.join(" + "));
        }
    }

    /// Writes a type.
    pub fn push_type(&mut self, ty: &Type) {
        let text = self.ty(ty);
        self.text.push_str(&text);
    }

    /// Writes a path (a trait with its arguments) of an impl's header,
    /// where an elided lifetime is a fresh parameter.
    pub fn push_path(&mut self, path: &Path) {
        let text = self.path_with(path, &mut |line| Some(line.fresh_lifetime()));
        self.text.push_str(&text);
    }

    /// Writes the type of an impl's header (`Iter<'_, T>`), where an elided
    /// lifetime is a fresh parameter.
    pub fn push_self_type(&mut self, ty: &Type) {
        let text = self.ty_elided(ty);
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
                format!("&{lt} {}self", if *is_mutable { "mut " } else { "" })
            }
            other => {
                let text = self.ty_elided(other);
                format!("self: {text}")
            }
        }
    }

    fn fresh_lifetime(&mut self) -> String {
        self.fresh += 1;
        raw(Kind::Lifetime, &format!("'elided{}", self.fresh))
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
            name.to_owned()
        } else {
            raw(Kind::Lifetime, name)
        }
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
            Type::Generic(name) if name == "Self" => "Self".to_owned(),
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
                    .map(|poly| self.path_with(&poly.trait_, elided))
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
                    let bound = self.bound(bound);
                    self.bounds.push(format!("{param}: {bound}"));
                }
                param
            }
            Type::ImplTrait(bounds) => {
                let mut parts: Vec<String> = bounds.iter().map(|bound| self.bound(bound)).collect();
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

    fn function_pointer(&mut self, pointer: &FunctionPointer) -> String {
        let inputs: Vec<String> = pointer
            .sig
            .inputs
            .iter()
            .map(|(_, ty)| self.ty(ty))
            .collect();
        let output = pointer
            .sig
            .output
            .as_ref()
            .map(|output| format!(" -> {}", self.ty(output)))
            .unwrap_or_default();
        let unsafety = if pointer.header.is_unsafe {
            "unsafe "
        } else {
            ""
        };
        format!("{unsafety}fn({}){output}", inputs.join(", "))
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
        let name = self
            .krate
            .paths
            .get(&path.id)
            .and_then(|summary| summary.path.last().cloned())
            .unwrap_or_else(|| path.path.rsplit("::").next().unwrap_or_default().to_owned());
        let args = path
            .args
            .as_ref()
            .map(|args| self.args_with(args, elided))
            .unwrap_or_default();
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
                            let term = self.term(term);
                            shown.push(format!("{} = {term}", constraint.name));
                        }
                        rustdoc_types::AssocItemConstraintKind::Constraint(bounds) => {
                            let mut parts: Vec<String> =
                                bounds.iter().map(|bound| self.bound(bound)).collect();
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
                let inputs: Vec<String> =
                    inputs.iter().map(|ty| self.ty_with(ty, elided)).collect();
                let output = output
                    .as_ref()
                    .map(|output| format!(" -> {}", self.ty_with(output, elided)))
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

    /// A bound: `Ord`, `?Sized`, `'l0`, `for<'l1> Fn(&'l1 T0)`.
    fn bound(&mut self, bound: &GenericBound) -> String {
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
                let higher: Vec<String> = generic_params
                    .iter()
                    .filter(|param| matches!(param.kind, GenericParamDefKind::Lifetime { .. }))
                    .map(|param| raw(Kind::Lifetime, &param.name))
                    .collect();
                let higher = if higher.is_empty() {
                    String::new()
                } else {
                    format!("for<{}> ", higher.join(", "))
                };
                format!("{higher}{prefix}{}", self.path(trait_))
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
        let mut line = rename(&self.text, &mut names);
        let mut bounds: Vec<String> = self
            .bounds
            .iter()
            .map(|bound| rename(bound, &mut names))
            .collect();
        bounds.sort();
        bounds.dedup();
        if !bounds.is_empty() {
            let _ = write!(line, " where {}", bounds.join(", "));
        }
        line
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
