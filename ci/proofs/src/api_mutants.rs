//! API mutants: wrong solutions written mechanically from a reference
//! solution, each a plausible mistake about a public item's contract,
//! beside the body mutants of cargo-mutants.
//!
//! Each operator rewrites one place of one file of the solution:
//!
//! * `decouple-lifetime`: a function whose result borrows from an argument
//!   returns it with a lifetime of the caller's choosing instead (the
//!   original body kept, the result transmuted);
//! * `other-type-argument`: a function's result names another level or
//!   state than the reference's (`LockToken<'_, L>` becomes
//!   `LockToken<'_, Unlocked>`);
//! * `copy-to-other-state`: a method of one state's impl is copied onto
//!   every other state of the same type;
//! * `seal-provides`: a crate-private trait gets a provided function that
//!   makes one of the crate's guarded types;
//! * `deref-to-field`: a type gets `Deref` (and `DerefMut`) to one of its
//!   private fields;
//! * `extra-macro-arm`: an exported macro gets one more arm;
//! * `widen-bound`: one bound of an impl or function is dropped;
//! * `shift-comparison`: one `<`, `<=`, `>` or `>=` becomes its neighbour;
//! * `set-len-first`: a `set_len` moves to the start of its block.
//!
//! The signature operators are the public surface's to catch; the others,
//! the behaviour cases' (and Miri's). A mutant that does not compile is
//! unviable, and tells nothing.

use proc_macro2::{LineColumn, Span};
use quote::{ToTokens, format_ident, quote};
use std::path::{Path, PathBuf};
use syn::spanned::Spanned;
use syn::visit::Visit;

/// One mutant: one file of the solution with one place rewritten.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// `OPERATOR FILE:LINE WHAT`, unique within the solution.
    pub name: String,
    /// The operator.
    pub operator: &'static str,
    /// The file, relative to the solution's crate.
    pub file: PathBuf,
    /// The file's new text.
    pub text: String,
}

/// Every API mutant of the solution crate at `solution` (its `src/`).
pub fn generate(solution: &Path) -> Vec<Mutant> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(solution.join("src"))
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "rs"))
        .map(|entry| entry.path().to_path_buf())
        .collect();
    files.sort();
    let parsed: Vec<(PathBuf, String, syn::File)> = files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let file = syn::parse_file(&text).ok()?;
            let relative = path.strip_prefix(solution).ok()?.to_path_buf();
            Some((relative, text, file))
        })
        .collect();
    let crate_facts = Facts::of(&parsed);
    let mut mutants = Vec::new();
    for (relative, text, file) in &parsed {
        let mut found = Finder {
            text,
            file: relative,
            facts: &crate_facts,
            mutants: Vec::new(),
            impl_stack: Vec::new(),
        };
        found.visit_file(file);
        mutants.extend(found.mutants);
    }
    let mut seen = std::collections::BTreeSet::new();
    mutants.retain(|mutant| seen.insert(mutant.name.clone()));
    mutants
}

/// What the operators need to know of the whole crate.
#[derive(Debug, Default)]
struct Facts {
    /// Unit structs and empty enums: levels and states.
    markers: Vec<String>,
    /// Public structs with a private field, and their generics' arity
    /// (types that only the crate can make).
    guarded: Vec<(String, usize, usize)>,
    /// Crate-private traits that a public trait has as a supertrait.
    seals: Vec<String>,
    /// For each generic type of the crate, the concrete marker arguments
    /// its inherent impls are written for (`Socket` → Unbound, Bound...).
    states: Vec<(String, Vec<String>)>,
}

impl Facts {
    fn of(files: &[(PathBuf, String, syn::File)]) -> Facts {
        let mut facts = Facts::default();
        let mut public_supertraits = Vec::new();
        let mut private_traits = Vec::new();
        let mut all_items: Vec<&syn::Item> = Vec::new();
        for (_, _, file) in files {
            collect_items(&file.items, &mut all_items);
        }
        for item in &all_items {
            match item {
                syn::Item::Struct(item) => {
                    if matches!(item.fields, syn::Fields::Unit) {
                        facts.markers.push(item.ident.to_string());
                    }
                    let private_field = item
                        .fields
                        .iter()
                        .any(|field| !matches!(field.vis, syn::Visibility::Public(_)));
                    if matches!(item.vis, syn::Visibility::Public(_)) && private_field {
                        facts.guarded.push((
                            item.ident.to_string(),
                            item.generics.lifetimes().count(),
                            item.generics.type_params().count(),
                        ));
                    }
                }
                syn::Item::Enum(item) if item.variants.is_empty() => {
                    facts.markers.push(item.ident.to_string());
                }
                syn::Item::Trait(item) => {
                    if matches!(item.vis, syn::Visibility::Public(_)) {
                        for bound in &item.supertraits {
                            if let syn::TypeParamBound::Trait(bound) = bound
                                && let Some(last) = bound.path.segments.last()
                            {
                                public_supertraits.push(last.ident.to_string());
                            }
                        }
                    }
                    private_traits.push(item.ident.to_string());
                }
                syn::Item::Impl(item) if item.trait_.is_none() => {
                    if let syn::Type::Path(path) = item.self_ty.as_ref()
                        && let Some(last) = path.path.segments.last()
                        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
                    {
                        for arg in &args.args {
                            if let syn::GenericArgument::Type(syn::Type::Path(arg)) = arg
                                && let Some(name) = arg.path.get_ident()
                            {
                                let entry = match facts
                                    .states
                                    .iter_mut()
                                    .find(|(ty, _)| last.ident == ty)
                                {
                                    Some(entry) => entry,
                                    None => {
                                        facts.states.push((last.ident.to_string(), Vec::new()));
                                        facts.states.last_mut().expect("just pushed")
                                    }
                                };
                                if !entry.1.contains(&name.to_string()) {
                                    entry.1.push(name.to_string());
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        facts.seals = private_traits
            .into_iter()
            .filter(|name| public_supertraits.contains(name))
            .collect();
        // A type whose inherent impls are written for two or more of the
        // crate's own types is a typestate: its states are levels too.
        let local: Vec<String> = all_items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Struct(item) => Some(item.ident.to_string()),
                syn::Item::Enum(item) => Some(item.ident.to_string()),
                _ => None,
            })
            .collect();
        facts.states.retain(|(_, states)| {
            states.len() > 1 && states.iter().all(|state| local.contains(state))
        });
        for (_, states) in &facts.states {
            facts.markers.extend(states.iter().cloned());
        }
        facts.markers.sort();
        facts.markers.dedup();
        facts
    }
}

pub(crate) fn collect_items<'a>(items: &'a [syn::Item], into: &mut Vec<&'a syn::Item>) {
    for item in items {
        into.push(item);
        if let syn::Item::Mod(module) = item
            && let Some((_, inner)) = &module.content
        {
            collect_items(inner, into);
        }
    }
}

/// The byte offset of a line and column (`proc-macro2`: 1-based lines,
/// 0-based columns in characters).
pub(crate) fn offset(text: &str, at: LineColumn) -> usize {
    let mut line_start = 0;
    for _ in 1..at.line {
        match text[line_start..].find('\n') {
            Some(end) => line_start += end + 1,
            None => return text.len(),
        }
    }
    text[line_start..]
        .char_indices()
        .nth(at.column)
        .map_or(text.len(), |(index, _)| line_start + index)
}

pub(crate) fn range(text: &str, span: Span) -> std::ops::Range<usize> {
    offset(text, span.start())..offset(text, span.end())
}

struct Finder<'a> {
    text: &'a str,
    file: &'a Path,
    facts: &'a Facts,
    mutants: Vec<Mutant>,
    /// The impls around the item being visited.
    impl_stack: Vec<&'a syn::ItemImpl>,
}

impl<'a> Finder<'a> {
    fn line(&self, span: Span) -> usize {
        span.start().line
    }

    fn push(&mut self, operator: &'static str, span: Span, what: &str, text: String) {
        self.mutants.push(Mutant {
            name: format!(
                "{operator} {}:{} {what}",
                self.file.display(),
                self.line(span)
            ),
            operator,
            file: self.file.to_path_buf(),
            text,
        });
    }

    /// The text with `edits` (byte ranges and their replacements) applied.
    fn edited(&self, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut out = self.text.to_owned();
        for (range, replacement) in edits {
            if range.start <= range.end && range.end <= out.len() {
                out.replace_range(range, &replacement);
            }
        }
        out
    }

    /// A wrapper mutant of a public function: the original renamed and
    /// made private, and a public function with `signature` that calls it
    /// and turns its result into the new result type bit for bit.
    fn wrap(
        &mut self,
        operator: &'static str,
        function: &syn::ImplItemFn,
        signature: syn::Signature,
        what: &str,
    ) {
        let Some(args) = forwarded(&function.sig) else {
            return;
        };
        let original = format_ident!("__xsafe_original_{}", function.sig.ident);
        let in_impl = !self.impl_stack.is_empty();
        let call = if in_impl {
            quote!(Self::#original(#(#args),*))
        } else {
            quote!(#original(#(#args),*))
        };
        let attrs = &function.attrs;
        let vis = &function.vis;
        let wrapper = quote! {
            #(#attrs)*
            #[allow(clippy::all)]
            #vis #signature {
                let original = #call;
                // SAFETY: none; this is a wrong solution on purpose.
                let result = unsafe { ::core::mem::transmute_copy(&original) };
                ::core::mem::forget(original);
                result
            }
        };
        let mut edits = vec![(
            range(self.text, function.sig.ident.span()),
            original.to_string(),
        )];
        if !matches!(function.vis, syn::Visibility::Inherited) {
            edits.push((range(self.text, function.vis.span()), String::new()));
        }
        let end = range(self.text, function.span()).end;
        edits.push((end..end, format!("\n{wrapper}\n")));
        let text = self.edited(edits);
        self.push(operator, function.sig.ident.span(), what, text);
    }
}

/// The names a function's parameters are bound to, when every pattern is
/// a plain name (`self` first when there is a receiver).
fn forwarded(signature: &syn::Signature) -> Option<Vec<proc_macro2::TokenStream>> {
    signature
        .inputs
        .iter()
        .map(|input| match input {
            syn::FnArg::Receiver(_) => Some(quote!(self)),
            syn::FnArg::Typed(typed) => match typed.pat.as_ref() {
                syn::Pat::Ident(ident) => {
                    let name = &ident.ident;
                    Some(quote!(#name))
                }
                _ => None,
            },
        })
        .collect()
}

/// Whether a type holds a lifetime or a reference.
fn borrows(ty: &syn::Type) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_lifetime(&mut self, _: &'ast syn::Lifetime) {
            self.0 = true;
        }
        fn visit_type_reference(&mut self, _: &'ast syn::TypeReference) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_type(ty);
    finder.0
}

/// `ty` with every lifetime (named or elided) made `'__xsafe_any`.
fn decoupled(ty: &syn::Type) -> syn::Type {
    use syn::visit_mut::VisitMut;
    struct Any;
    impl VisitMut for Any {
        fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
            if lifetime.ident != "static" {
                *lifetime = syn::Lifetime::new("'__xsafe_any", lifetime.span());
            }
        }
        fn visit_type_reference_mut(&mut self, reference: &mut syn::TypeReference) {
            reference.lifetime = Some(syn::Lifetime::new("'__xsafe_any", Span::call_site()));
            syn::visit_mut::visit_type_reference_mut(self, reference);
        }
    }
    let mut ty = ty.clone();
    Any.visit_type_mut(&mut ty);
    ty
}

/// The type arguments of `ty`'s paths that are markers (levels, states)
/// or generic parameters, with where they are.
fn marker_arguments(ty: &syn::Type, markers: &[String], params: &[String]) -> Vec<String> {
    struct Finder<'b> {
        markers: &'b [String],
        params: &'b [String],
        found: Vec<String>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_angle_bracketed_generic_arguments(
            &mut self,
            args: &'ast syn::AngleBracketedGenericArguments,
        ) {
            for arg in &args.args {
                if let syn::GenericArgument::Type(syn::Type::Path(path)) = arg
                    && let Some(name) = path.path.get_ident()
                {
                    let name = name.to_string();
                    if self.markers.contains(&name) || self.params.contains(&name) {
                        self.found.push(name);
                    }
                }
            }
            syn::visit::visit_angle_bracketed_generic_arguments(self, args);
        }
    }
    let mut finder = Finder {
        markers,
        params,
        found: Vec::new(),
    };
    finder.visit_type(ty);
    finder.found
}

/// `ty` with the type argument `from` replaced by `to` everywhere.
fn with_argument(ty: &syn::Type, from: &str, to: &str) -> syn::Type {
    use syn::visit_mut::VisitMut;
    struct Swap<'b>(&'b str, &'b str);
    impl VisitMut for Swap<'_> {
        fn visit_generic_argument_mut(&mut self, arg: &mut syn::GenericArgument) {
            if let syn::GenericArgument::Type(syn::Type::Path(path)) = arg
                && path.path.is_ident(self.0)
            {
                let to = format_ident!("{}", self.1);
                *arg = syn::parse_quote!(#to);
                return;
            }
            syn::visit_mut::visit_generic_argument_mut(self, arg);
        }
    }
    let mut ty = ty.clone();
    Swap(from, to).visit_type_mut(&mut ty);
    ty
}

impl<'a> Visit<'a> for Finder<'a> {
    fn visit_item_impl(&mut self, item: &'a syn::ItemImpl) {
        self.impl_stack.push(item);
        self.widen_bounds(item);
        if item.trait_.is_none() {
            self.copy_to_other_states(item);
        }
        syn::visit::visit_item_impl(self, item);
        self.impl_stack.pop();
    }

    fn visit_impl_item_fn(&mut self, function: &'a syn::ImplItemFn) {
        if matches!(function.vis, syn::Visibility::Public(_))
            && self
                .impl_stack
                .last()
                .is_some_and(|item| item.trait_.is_none())
        {
            self.signature_mutants(function);
        }
        syn::visit::visit_impl_item_fn(self, function);
    }

    fn visit_item_fn(&mut self, function: &'a syn::ItemFn) {
        if matches!(function.vis, syn::Visibility::Public(_)) {
            let as_method = syn::ImplItemFn {
                attrs: function.attrs.clone(),
                vis: function.vis.clone(),
                defaultness: None,
                sig: function.sig.clone(),
                block: (*function.block).clone(),
            };
            // Spans of the copy are the original's.
            let saved = std::mem::take(&mut self.impl_stack);
            self.signature_mutants_free(function, &as_method);
            self.impl_stack = saved;
        }
        syn::visit::visit_item_fn(self, function);
    }

    fn visit_item_trait(&mut self, item: &'a syn::ItemTrait) {
        if self.facts.seals.contains(&item.ident.to_string()) {
            self.seal_provides(item);
        }
        syn::visit::visit_item_trait(self, item);
    }

    fn visit_item_struct(&mut self, item: &'a syn::ItemStruct) {
        self.deref_to_field(item);
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_macro(&mut self, item: &'a syn::ItemMacro) {
        let exported = item
            .attrs
            .iter()
            .any(|attr| attr.path().is_ident("macro_export"));
        if exported
            && item.mac.path.is_ident("macro_rules")
            && let Some(name) = &item.ident
        {
            let body = range(self.text, item.mac.delimiter.span().open());
            let at = body.end;
            let text = self.edited(vec![(
                at..at,
                "\n    (@xsafe_extra $($tokens:tt)*) => {};\n".to_owned(),
            )]);
            self.push("extra-macro-arm", item.span(), &name.to_string(), text);
        }
        syn::visit::visit_item_macro(self, item);
    }

    fn visit_expr_binary(&mut self, expr: &'a syn::ExprBinary) {
        let swap = match expr.op {
            syn::BinOp::Lt(_) => Some("<="),
            syn::BinOp::Le(_) => Some("<"),
            syn::BinOp::Gt(_) => Some(">="),
            syn::BinOp::Ge(_) => Some(">"),
            _ => None,
        };
        if let Some(swap) = swap {
            let op = range(self.text, expr.op.span());
            let from = self.text[op.clone()].to_owned();
            let text = self.edited(vec![(op, swap.to_owned())]);
            self.push(
                "shift-comparison",
                expr.op.span(),
                &format!(
                    "{from} to {swap} in `{}`",
                    one_line(&expr.to_token_stream().to_string())
                ),
                text,
            );
        }
        syn::visit::visit_expr_binary(self, expr);
    }

    fn visit_block(&mut self, block: &'a syn::Block) {
        for (index, stmt) in block.stmts.iter().enumerate() {
            if index == 0 {
                continue;
            }
            let text = stmt.to_token_stream().to_string();
            if text.contains("set_len") {
                let whole = range(self.text, stmt.span());
                let start = range(self.text, block.stmts[0].span()).start;
                let moved = self.text[whole.clone()].to_owned();
                let edited = self.edited(vec![
                    (whole, String::new()),
                    (start..start, format!("{moved}\n")),
                ]);
                self.push(
                    "set-len-first",
                    stmt.span(),
                    "set_len before the writes",
                    edited,
                );
            }
        }
        syn::visit::visit_block(self, block);
    }
}

pub(crate) fn one_line(text: &str) -> String {
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

impl<'a> Finder<'a> {
    fn signature_mutants(&mut self, function: &syn::ImplItemFn) {
        let syn::ReturnType::Type(_, output) = &function.sig.output else {
            return;
        };
        let name = function.sig.ident.to_string();
        if borrows(output) {
            let mut signature = function.sig.clone();
            signature.output =
                syn::ReturnType::Type(Default::default(), Box::new(decoupled(output)));
            signature
                .generics
                .params
                .insert(0, syn::parse_quote!('__xsafe_any));
            self.wrap(
                "decouple-lifetime",
                function,
                signature,
                &format!("{name}'s result borrows nothing"),
            );
        }
        let params: Vec<String> = self
            .impl_stack
            .last()
            .map(|item| {
                item.generics
                    .type_params()
                    .chain(function.sig.generics.type_params())
                    .map(|param| param.ident.to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut seen = Vec::new();
        for from in marker_arguments(output, &self.facts.markers, &params) {
            if seen.contains(&from) {
                continue;
            }
            seen.push(from.clone());
            for to in self.facts.markers.clone() {
                if to == from {
                    continue;
                }
                let mut signature = function.sig.clone();
                signature.output = syn::ReturnType::Type(
                    Default::default(),
                    Box::new(with_argument(output, &from, &to)),
                );
                self.wrap(
                    "other-type-argument",
                    function,
                    signature,
                    &format!("{name} returns {to} for {from}"),
                );
            }
        }
    }

    fn signature_mutants_free(&mut self, function: &syn::ItemFn, as_method: &syn::ImplItemFn) {
        let _ = function;
        self.signature_mutants(as_method);
    }

    /// One bound at a time dropped from an impl's generics or where clause.
    fn widen_bounds(&mut self, item: &syn::ItemImpl) {
        let generics = &item.generics;
        let Some(lt) = generics.lt_token else {
            return;
        };
        let mut variants = Vec::new();
        for (index, param) in generics.params.iter().enumerate() {
            if let syn::GenericParam::Type(param) = param {
                for bound in 0..param.bounds.len() {
                    let mut changed = generics.clone();
                    if let syn::GenericParam::Type(param) = &mut changed.params[index] {
                        let bounds: Vec<_> = param.bounds.iter().cloned().collect();
                        param.bounds = bounds
                            .into_iter()
                            .enumerate()
                            .filter(|(at, _)| *at != bound)
                            .map(|(_, bound)| bound)
                            .collect();
                    }
                    variants.push((
                        changed,
                        format!(
                            "{}: drops {}",
                            param.ident,
                            one_line(&param.bounds[bound].to_token_stream().to_string())
                        ),
                    ));
                }
            }
        }
        if let Some(where_clause) = &generics.where_clause {
            for (index, predicate) in where_clause.predicates.iter().enumerate() {
                if let syn::WherePredicate::Type(predicate) = predicate {
                    for bound in 0..predicate.bounds.len() {
                        let mut changed = generics.clone();
                        if let Some(where_clause) = &mut changed.where_clause
                            && let syn::WherePredicate::Type(changed_predicate) =
                                &mut where_clause.predicates[index]
                        {
                            let bounds: Vec<_> = changed_predicate.bounds.iter().cloned().collect();
                            changed_predicate.bounds = bounds
                                .into_iter()
                                .enumerate()
                                .filter(|(at, _)| *at != bound)
                                .map(|(_, bound)| bound)
                                .collect();
                        }
                        variants.push((
                            changed,
                            format!(
                                "where {}: drops {}",
                                one_line(&predicate.bounded_ty.to_token_stream().to_string()),
                                one_line(&predicate.bounds[bound].to_token_stream().to_string())
                            ),
                        ));
                    }
                }
            }
        }
        let Some(gt) = generics.gt_token else { return };
        let params_range = offset(self.text, lt.span.start())..offset(self.text, gt.span.end());
        let where_range = generics
            .where_clause
            .as_ref()
            .map(|where_clause| range(self.text, where_clause.span()));
        for (changed, what) in variants {
            let (impl_generics, _, where_clause) = changed.split_for_impl();
            let mut edits = vec![(
                params_range.clone(),
                impl_generics.to_token_stream().to_string(),
            )];
            if let Some(where_range) = &where_range {
                edits.push((
                    where_range.clone(),
                    where_clause.to_token_stream().to_string(),
                ));
            }
            let text = self.edited(edits);
            let header = one_line(&item.self_ty.to_token_stream().to_string());
            self.push(
                "widen-bound",
                item.span(),
                &format!("impl for {header}, {what}"),
                text,
            );
        }
    }

    /// Each method of a state's impl copied onto the other states.
    fn copy_to_other_states(&mut self, item: &syn::ItemImpl) {
        let syn::Type::Path(path) = item.self_ty.as_ref() else {
            return;
        };
        let Some(last) = path.path.segments.last() else {
            return;
        };
        let Some((_, states)) = self.facts.states.iter().find(|(ty, _)| last.ident == ty) else {
            return;
        };
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return;
        };
        let Some(this) = args.args.iter().find_map(|arg| match arg {
            syn::GenericArgument::Type(syn::Type::Path(arg)) => {
                arg.path.get_ident().map(ToString::to_string)
            }
            _ => None,
        }) else {
            return;
        };
        for method in &item.items {
            let syn::ImplItem::Fn(method) = method else {
                continue;
            };
            if !matches!(method.vis, syn::Visibility::Public(_)) {
                continue;
            }
            for other in states {
                if *other == this {
                    continue;
                }
                let ty = with_argument(&item.self_ty, &this, other);
                let sig = &method.sig;
                let copy = quote! {
                    impl #ty {
                        #[allow(unused_variables, clippy::all)]
                        pub #sig { unimplemented!() }
                    }
                };
                let end = self.text.len();
                let text = self.edited(vec![(end..end, format!("\n{copy}\n"))]);
                self.push(
                    "copy-to-other-state",
                    method.sig.ident.span(),
                    &format!("{} of {this} onto {other}", method.sig.ident),
                    text,
                );
            }
        }
    }

    /// A provided function on a seal that makes a guarded type.
    fn seal_provides(&mut self, item: &syn::ItemTrait) {
        for (guarded, lifetimes, types) in &self.facts.guarded {
            if *types > 1 {
                continue;
            }
            let name = format_ident!("{}", guarded);
            let mut args: Vec<proc_macro2::TokenStream> =
                (0..*lifetimes).map(|_| quote!('static)).collect();
            if *types == 1 {
                args.push(quote!(Self));
            }
            let ty = if args.is_empty() {
                quote!(crate::#name)
            } else {
                quote!(crate::#name<#(#args),*>)
            };
            let function = quote! {
                #[allow(clippy::all)]
                fn xsafe_forge() -> #ty where Self: Sized {
                    // SAFETY: none; this is a wrong solution on purpose.
                    unsafe { ::core::mem::zeroed() }
                }
            };
            let body = range(self.text, item.brace_token.span.open());
            let text = self.edited(vec![(body.end..body.end, format!("\n{function}\n"))]);
            self.push(
                "seal-provides",
                item.span(),
                &format!("{} makes a {guarded}", item.ident),
                text,
            );
        }
    }

    /// `Deref` and `DerefMut` to a private field of a public struct.
    fn deref_to_field(&mut self, item: &syn::ItemStruct) {
        if !matches!(item.vis, syn::Visibility::Public(_)) {
            return;
        }
        let syn::Fields::Named(fields) = &item.fields else {
            return;
        };
        let (impl_generics, type_generics, where_clause) = item.generics.split_for_impl();
        let name = &item.ident;
        for field in &fields.named {
            if matches!(field.vis, syn::Visibility::Public(_)) {
                continue;
            }
            let Some(field_name) = &field.ident else {
                continue;
            };
            let ty = &field.ty;
            let text_of_type = ty.to_token_stream().to_string();
            if text_of_type.contains("PhantomData") {
                continue;
            }
            let deref = quote! {
                impl #impl_generics ::core::ops::Deref for #name #type_generics #where_clause {
                    type Target = #ty;
                    fn deref(&self) -> &#ty { &self.#field_name }
                }
                impl #impl_generics ::core::ops::DerefMut for #name #type_generics #where_clause {
                    fn deref_mut(&mut self) -> &mut #ty { &mut self.#field_name }
                }
            };
            let end = range(self.text, item.span()).end;
            let text = self.edited(vec![(end..end, format!("\n{deref}\n"))]);
            self.push(
                "deref-to-field",
                item.span(),
                &format!("{name} derefs to {field_name}"),
                text,
            );
        }
    }
}

/// A survivor the exercise accepts, with why (`solutions/NAME/mutants.toml`).
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Justified {
    /// The mutant's name, as [`Mutant::name`].
    pub mutant: String,
    /// Why it may keep full marks: it changes nothing the exercise
    /// promises.
    pub why: String,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct JustifiedFile {
    #[serde(default)]
    survivor: Vec<Justified>,
}

/// The survivors an exercise accepts, from `solutions/NAME/mutants.toml`
/// (none when the file is missing).
pub fn justified(solution: &Path) -> Result<Vec<Justified>, String> {
    let path = solution.join("mutants.toml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    toml::from_str::<JustifiedFile>(&text)
        .map(|file| file.survivor)
        .map_err(|err| format!("{}: {err}", path.display()))
}

/// How one mutant was graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It does not compile.
    Unviable,
    /// Some case failed: these.
    Caught(Vec<String>),
    /// Full marks.
    Survived,
}

/// Every API mutant of an exercise's solution and of the crates inside it
/// (a learner's derive crate), with their files relative to the solution.
pub fn of_exercise(solution: &Path) -> Vec<Mutant> {
    let mut mutants = generate(solution);
    if let Ok(entries) = std::fs::read_dir(solution) {
        let mut inner: Vec<PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.join("Cargo.toml").is_file())
            .collect();
        inner.sort();
        for package in inner {
            let Ok(prefix) = package.strip_prefix(solution) else {
                continue;
            };
            for mut mutant in generate(&package) {
                mutant.file = prefix.join(&mutant.file);
                mutant.name = mutant
                    .name
                    .replacen(' ', &format!(" {}/", prefix.display()), 1);
                mutants.push(mutant);
            }
        }
    }
    mutants
}

/// Every `step`-th mutant, starting with the first: a sample that keeps
/// every operator's kinds spread over the files.
pub fn sample(mutants: Vec<Mutant>, count: usize) -> Vec<Mutant> {
    if count == 0 || mutants.len() <= count {
        return mutants;
    }
    let step = mutants.len().div_ceil(count);
    mutants.into_iter().step_by(step).collect()
}

/// The generated part of an exercise's ROUTES.md: the counts of the last
/// pass, and its survivors with why each may keep full marks.
pub fn routes_section(
    date: &str,
    toolchain: &str,
    results: &[(Mutant, Outcome)],
    justified: &[Justified],
) -> String {
    use std::fmt::Write as _;
    let mut by_operator: std::collections::BTreeMap<&str, [usize; 4]> = Default::default();
    for (mutant, outcome) in results {
        let counts = by_operator.entry(mutant.operator).or_default();
        counts[0] += 1;
        match outcome {
            Outcome::Unviable => {}
            Outcome::Caught(_) => {
                counts[1] += 1;
                counts[2] += 1;
            }
            Outcome::Survived => counts[1] += 1,
        }
        if *outcome == Outcome::Survived && justified.iter().any(|j| j.mutant == mutant.name) {
            counts[3] += 1;
        }
    }
    let mut text = String::new();
    let _ = writeln!(text, "{ROUTES_START}");
    let _ = writeln!(
        text,
        "## API mutation pass\n\nWritten by `cargo run -p xsafe-grading-proofs --bin api-mutants -- EXERCISE --write` ({date}, {toolchain}). Each mutant is a wrong solution made mechanically from the reference (see `ci/proofs/src/api_mutants.rs`); every viable one must lose points, or be justified below.\n"
    );
    let _ = writeln!(
        text,
        "| operator | generated | viable | caught | justified survivors |"
    );
    let _ = writeln!(text, "| --- | ---: | ---: | ---: | ---: |");
    let mut total = [0usize; 4];
    for (operator, counts) in &by_operator {
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
    let survivors: Vec<&Mutant> = results
        .iter()
        .filter(|(_, outcome)| *outcome == Outcome::Survived)
        .map(|(mutant, _)| mutant)
        .collect();
    if !survivors.is_empty() {
        let _ = writeln!(text, "\nSurvivors:\n");
        for mutant in survivors {
            let why = justified
                .iter()
                .find(|j| j.mutant == mutant.name)
                .map_or("NOT JUSTIFIED: a hole in the grading", |j| j.why.as_str());
            let _ = writeln!(text, "- `{}`: {why}", mutant.name);
        }
    }
    let _ = writeln!(text, "{ROUTES_END}");
    text
}

/// The markers around the generated section of ROUTES.md.
pub const ROUTES_START: &str = "<!-- api-mutants: generated, do not edit by hand -->";
/// See [`ROUTES_START`].
pub const ROUTES_END: &str = "<!-- end of api-mutants -->";

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

    /// Each operator writes its mutant where it applies, and every mutant
    /// is still Rust that parses.
    #[test]
    fn operators_write_parsable_mutants() {
        let dir = std::env::temp_dir().join(format!("xsafe-api-mutants-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).expect("scratch");
        std::fs::write(
            dir.join("src/lib.rs"),
            r#"
pub struct Unlocked;
pub struct Locked;
pub struct Token<S> { state: std::marker::PhantomData<S> }
impl Token<Unlocked> {
    pub fn lock(self) -> Token<Locked> { Token { state: std::marker::PhantomData } }
}
impl Token<Locked> {
    pub fn unlock(self) -> Token<Unlocked> { Token { state: std::marker::PhantomData } }
}
pub struct Set<T> { items: Vec<T> }
impl<T: Ord> Set<T> {
    pub fn first(&self) -> Option<&T> { self.items.first() }
    pub fn small(&self, limit: usize) -> bool { self.items.len() < limit }
}
pub trait Marker: sealed::Seal {}
mod sealed { pub trait Seal {} }
#[macro_export]
macro_rules! edge { ($a:ty) => {}; }
"#,
        )
        .expect("source");
        let mutants = generate(&dir);
        let operators: std::collections::BTreeSet<&str> =
            mutants.iter().map(|mutant| mutant.operator).collect();
        for operator in [
            "decouple-lifetime",
            "other-type-argument",
            "copy-to-other-state",
            "seal-provides",
            "deref-to-field",
            "extra-macro-arm",
            "widen-bound",
            "shift-comparison",
        ] {
            assert!(
                operators.contains(operator),
                "no {operator} mutant: {operators:?}"
            );
        }
        for mutant in &mutants {
            syn::parse_file(&mutant.text).unwrap_or_else(|err| {
                panic!("{} does not parse: {err}\n{}", mutant.name, mutant.text)
            });
        }
        let decoupled = mutants
            .iter()
            .find(|mutant| mutant.operator == "decouple-lifetime")
            .expect("a decoupled lifetime");
        assert!(
            decoupled.text.contains("'__xsafe_any"),
            "{}",
            decoupled.text
        );
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
