//! The derive's corpus (`send-marker`'s `enforcement/derive_corpus_*`
//! cases) is checked in as its generator writes it: regenerate with
//! `cargo run -p xsafe-grading-proofs --bin corpus -- --write`.

use xsafe_grading_proofs::{corpus, course_root};

#[test]
fn checked_in_corpus_is_current() {
    let root = course_root();
    for (path, text) in corpus::files() {
        let current =
            std::fs::read_to_string(root.join(path)).unwrap_or_else(|err| panic!("{path}: {err}"));
        assert!(
            current == text,
            "{path} differs from what ci/proofs/src/corpus.rs writes: run `cargo run -p xsafe-grading-proofs --bin corpus -- --write`"
        );
    }
}

/// Two runs write the same text: nothing in the generator depends on the
/// machine, the time or a hash's order.
#[test]
fn corpus_is_deterministic() {
    assert_eq!(corpus::files(), corpus::files());
}

/// The kinds of `syn::Type` a field's type can take on stable Rust, with
/// why a kind is left out of the corpus when it is.
const LEFT_OUT: &[(&str, &str)] = &[
    (
        "bare fn",
        "a function pointer is `Send` in std, but the exercise does not ask for its impl: a grade cannot count on either answer",
    ),
    (
        "impl trait / infer / never / verbatim",
        "not allowed as a field's type on stable Rust",
    ),
];

/// What `syn` calls the outermost layer of `ty`.
fn kind(ty: &syn::Type) -> &'static str {
    match ty {
        syn::Type::Array(_) => "array",
        syn::Type::BareFn(_) => "bare fn",
        syn::Type::Group(_) => "group",
        syn::Type::Macro(_) => "macro",
        syn::Type::Paren(_) => "paren",
        syn::Type::Path(path) if path.qself.is_some() => "qualified path",
        syn::Type::Path(_) => "path",
        syn::Type::Ptr(_) => "ptr",
        syn::Type::Reference(_) => "reference",
        syn::Type::Slice(_) => "slice",
        syn::Type::TraitObject(_) => "trait object",
        syn::Type::Tuple(_) => "tuple",
        _ => "impl trait / infer / never / verbatim",
    }
}

/// Every kind of type met inside the fields of a derived item, and whether
/// the item is one the derive must refuse.
#[derive(Default)]
struct Kinds {
    rejected: std::collections::BTreeSet<&'static str>,
    accepted: std::collections::BTreeSet<&'static str>,
    refusing: bool,
}

impl<'ast> syn::visit::Visit<'ast> for Kinds {
    fn visit_type(&mut self, ty: &'ast syn::Type) {
        if self.refusing {
            self.rejected.insert(kind(ty));
        } else {
            self.accepted.insert(kind(ty));
        }
        syn::visit::visit_type(self, ty);
    }
}

/// A derived item of the corpus: its name and its fields' types.
fn derived_items(file: &syn::File) -> Vec<(String, Vec<syn::Type>)> {
    fn walk(items: &[syn::Item], out: &mut Vec<(String, Vec<syn::Type>)>) {
        for item in items {
            let (attrs, name, types): (&[syn::Attribute], String, Vec<syn::Type>) = match item {
                syn::Item::Struct(item) => (
                    &item.attrs,
                    item.ident.to_string(),
                    item.fields.iter().map(|field| field.ty.clone()).collect(),
                ),
                syn::Item::Enum(item) => (
                    &item.attrs,
                    item.ident.to_string(),
                    item.variants
                        .iter()
                        .flat_map(|variant| variant.fields.iter().map(|field| field.ty.clone()))
                        .collect(),
                ),
                syn::Item::Mod(module) => {
                    if let Some((_, items)) = &module.content {
                        walk(items, out);
                    }
                    continue;
                }
                _ => continue,
            };
            let derived = attrs.iter().any(|attr| {
                attr.path().is_ident("derive")
                    && quote::ToTokens::to_token_stream(attr)
                        .to_string()
                        .contains("Sendable")
            });
            if derived {
                out.push((name, types));
            }
        }
    }
    let mut out = Vec::new();
    walk(&file.items, &mut out);
    out
}

/// The derive is graded on every kind of type a field can have in Rust's
/// grammar, as `syn` parses it: each appears in a type the derive must
/// refuse and in one it must accept (inside the fields, at any depth), or
/// is on [`LEFT_OUT`] with its reason. A type from a `macro_rules!`
/// `$t:ty` reaches the derive as a group, which no source text shows, so
/// that kind counts when a macro with a `:ty` fragment derives the trait,
/// for a refused and an accepted type. Fails if a table of the generator
/// loses a kind.
#[test]
fn corpus_covers_the_field_type_grammar() {
    use syn::visit::Visit as _;
    let mut kinds = Kinds::default();
    let mut groups = (false, false);
    for (path, text) in corpus::files() {
        let file = syn::parse_file(&text).unwrap_or_else(|err| panic!("{path}: {err}"));
        let refusing_file = path == corpus::REJECTS;
        for (name, types) in derived_items(&file) {
            // In the rejected corpus, `RNN` types are refused and their
            // `RNNGood` twins accepted; the accepted corpus refuses none.
            kinds.refusing = refusing_file && name.starts_with('R') && !name.ends_with("Good");
            for ty in &types {
                kinds.visit_type(ty);
            }
        }
        for item in &file.items {
            if let syn::Item::Macro(mac) = item
                && mac.mac.path.is_ident("macro_rules")
            {
                let body = mac.mac.tokens.to_string();
                if body.contains(": ty") && body.contains("derive (Sendable)") {
                    // Each call names the type it defines first: `RNN` is
                    // refused, `RNNGood` accepted.
                    let name = mac
                        .ident
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    for call in text.split(&format!("{name}!(")).skip(1) {
                        let defined = call.split(',').next().unwrap_or_default().trim();
                        if defined.ends_with("Good") {
                            groups.1 = true;
                        } else if refusing_file {
                            groups.0 = true;
                        }
                    }
                }
            }
        }
    }
    if groups.0 {
        kinds.rejected.insert("group");
    }
    if groups.1 {
        kinds.accepted.insert("group");
    }
    let all = [
        "array",
        "bare fn",
        "group",
        "macro",
        "paren",
        "qualified path",
        "path",
        "ptr",
        "reference",
        "slice",
        "trait object",
        "tuple",
        "impl trait / infer / never / verbatim",
    ];
    let left_out: Vec<&str> = LEFT_OUT.iter().map(|(kind, _)| *kind).collect();
    let mut missing = Vec::new();
    for kind in all {
        if left_out.contains(&kind) {
            assert!(
                !kinds.rejected.contains(kind) && !kinds.accepted.contains(kind),
                "{kind} is in the corpus and on LEFT_OUT: take it off the list"
            );
            continue;
        }
        if !kinds.rejected.contains(kind) {
            missing.push(format!("{kind} (in a refused type)"));
        }
        // A raw pointer is never `Sendable`: no accepted type can hold one.
        if kind != "ptr" && !kinds.accepted.contains(kind) {
            missing.push(format!("{kind} (in an accepted type)"));
        }
    }
    assert!(
        missing.is_empty(),
        "the derive's corpus has no field type of these kinds: {missing:?}"
    );
}
