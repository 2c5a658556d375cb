//! The crate that is graded is the crate that runs.
//!
//! **Invariant**: the crate whose public items the `surface` case lists
//! (rustdoc's JSON: rustdoc compiles with `cfg(doc)` set, and always with
//! debug assertions on), and the crate Miri interprets for the cases
//! marked `miri` (with `cfg(miri)` set), are the crate every case and
//! every user compiles: the compiler's expansion of the crate is the same
//! with `--cfg miri` and without, and its items (every item at any depth,
//! bodies left out, and the functions, constants and statics that code
//! outside the crate cannot name left out: a private `check_invariant`
//! kept for debug builds changes nothing outside code can use, while what
//! such a function's body holds, an `impl` say, still counts) are the same
//! with `--cfg doc` and debug assertions on (rustdoc's view) as in the
//! build the cases use (debug assertions off), or the crate is refused,
//! with the first place they differ named. So an item under
//! `#[cfg(not(doc))]` (a `keys_mut` rustdoc never sees) or
//! `#[cfg(not(debug_assertions))]`, one under `#[cfg(doc)]` (an arm of a
//! macro only rustdoc sees), a `#[cfg(miri)]` that takes the undefined
//! behaviour out of what Miri runs, a `cfg_attr(doc, ...)` or a
//! `cfg!(miri)` cannot make what is graded differ from what is used,
//! however a macro spells it. A `debug_assert!` in a body is allowed: it
//! changes no item (and the cases run without it, as release builds do).

use quote::ToTokens;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// How two expansions are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// Text for text.
    Exact,
    /// Item for item, at every depth, without bodies.
    Items,
}

/// One view of the crate that must match the build the cases use.
#[derive(Debug, Clone, Copy)]
pub struct View {
    /// The step of the deciding job that expands the crate this way.
    pub step: &'static str,
    /// What the step adds to rustc's command line.
    pub flags: &'static [&'static str],
    /// The setting, as a learner writes it (`cfg(doc)`).
    pub setting: &'static str,
    /// Who sees the crate this way, for the reason.
    pub who: &'static str,
    /// How the two are compared.
    pub compare: Compare,
}

/// The views compared with the plain build.
pub const VIEWS: [View; 2] = [
    // What rustdoc sees: `cfg(doc)`, and debug assertions on whatever the
    // profile says. Bodies do not count: rustdoc lists items, and a
    // `debug_assert!` changes a body only.
    View {
        step: "expand-doc",
        flags: &["--cfg", "doc", "-C", "debug-assertions=on"],
        setting: "cfg(doc)",
        who: "rustdoc, which lists your public items (with `cfg(doc)` and debug assertions on),",
        compare: Compare::Items,
    },
    // What Miri runs: the same build, with `cfg(miri)`, bodies included.
    View {
        step: "expand-miri",
        flags: &["--cfg", "miri"],
        setting: "cfg(miri)",
        who: "Miri, which runs the cases that check your `unsafe` code,",
        compare: Compare::Exact,
    },
];

/// Why a crate is refused, or nothing when its two expansions (`plain`,
/// the build the cases use, and `other`, the view's) match as the view
/// says.
pub fn differs(plain: &str, other: &str, view: &View) -> Option<String> {
    let (plain, other) = match view.compare {
        Compare::Exact => (plain.to_owned(), other.to_owned()),
        Compare::Items => match (items(plain), items(other)) {
            (Ok(plain), Ok(other)) => (plain, other),
            (Err(why), _) | (_, Err(why)) => {
                return Some(format!("its expansion could not be read: {why}"));
            }
        },
    };
    if plain == other {
        return None;
    }
    let plain_lines: Vec<&str> = plain.lines().collect();
    let other_lines: Vec<&str> = other.lines().collect();
    let first = plain_lines
        .iter()
        .zip(&other_lines)
        .position(|(left, right)| left != right)
        .unwrap_or(plain_lines.len().min(other_lines.len()));
    let show = |lines: &[&str]| {
        lines
            .get(first)
            .map(|line| line.trim())
            .filter(|line| !line.is_empty())
            .map(|line| {
                let mut line = line.to_owned();
                if line.chars().count() > 120 {
                    line = line.chars().take(117).collect::<String>() + "...";
                }
                format!("`{line}`")
            })
            .unwrap_or_else(|| "nothing".to_owned())
    };
    Some(format!(
        "compiled for the cases, it has {} where {} sees {}",
        show(&plain_lines),
        view.who,
        show(&other_lines)
    ))
}

/// Every item of an expanded crate, at any depth, one per line, with the
/// bodies of functions and the values of constants left out.
fn items(expansion: &str) -> Result<String, String> {
    crate::bounded::with_file(expansion, |file| {
        let mut found = Vec::new();
        let mut walker = Items { found: &mut found };
        walker.visit_file(file);
        found.join("\n")
    })
}

struct Items<'a> {
    found: &'a mut Vec<String>,
}

impl<'ast> Visit<'ast> for Items<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !unnameable_value(item) {
            let mut shell = item.clone();
            Bodiless.visit_item_mut(&mut shell);
            // An inherent impl left with nothing outside code can name
            // adds nothing either.
            let adds_nothing = matches!(&shell, syn::Item::Impl(block)
                if block.trait_.is_none() && block.items.is_empty());
            if !adds_nothing {
                self.found
                    .push(shell.to_token_stream().to_string().replace('\n', " "));
            }
        }
        // What it holds counts either way (an `impl` in a function's body
        // is the crate's).
        syn::visit::visit_item(self, item);
    }
}

/// Whether `visibility` lets code outside the crate name the item: `pub`
/// (`pub(crate)`, `pub(super)`, `pub(in ...)` and private do not).
fn outside_can_name(visibility: &syn::Visibility) -> bool {
    matches!(visibility, syn::Visibility::Public(_))
}

/// Whether `item` is a function, constant or static that code outside the
/// crate cannot name: it adds nothing to what outside code can use.
fn unnameable_value(item: &syn::Item) -> bool {
    match item {
        syn::Item::Fn(function) => !outside_can_name(&function.vis),
        syn::Item::Const(constant) => !outside_can_name(&constant.vis),
        syn::Item::Static(statik) => !outside_can_name(&statik.vis),
        _ => false,
    }
}

/// Empties what items hold: bodies, values, nested items (each of which
/// is listed on its own).
struct Bodiless;

impl VisitMut for Bodiless {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        block.stmts.clear();
    }

    /// An inherent impl without its functions and constants that outside
    /// code cannot name; a trait impl whole (its items are the trait's).
    fn visit_item_impl_mut(&mut self, block: &mut syn::ItemImpl) {
        if block.trait_.is_none() {
            block.items.retain(|item| match item {
                syn::ImplItem::Fn(function) => outside_can_name(&function.vis),
                syn::ImplItem::Const(constant) => outside_can_name(&constant.vis),
                _ => true,
            });
        }
        syn::visit_mut::visit_item_impl_mut(self, block);
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        *expr = syn::parse_quote!(());
    }

    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut module.content {
            items.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal expansions pass; a difference is named by its first line on
    /// each side, an item only one side has included.
    #[test]
    fn names_the_first_difference() {
        let doc = &VIEWS[0];
        assert_eq!(differs("pub fn a() {}\n", "pub fn a() {}\n", doc), None);
        assert_eq!(
            differs("pub fn a() {}\n", "pub fn a() {}\n", &VIEWS[1]),
            None
        );
        let why = differs(
            "pub fn a() {}\npub fn keys_mut() {}\npub fn b() {}\n",
            "pub fn a() {}\npub fn b() {}\n",
            doc,
        )
        .expect("they differ");
        assert!(why.contains("keys_mut"), "{why}");
        let why = differs("pub fn a() { x() }\n", "pub fn a() { y() }\n", &VIEWS[1])
            .expect("Miri's bodies count");
        assert!(why.contains("`pub fn a() { x() }`"), "{why}");
        let why = differs(
            "pub fn a() {}\n",
            "pub fn a() {}\npub fn only_doc() {}\n",
            &VIEWS[1],
        )
        .expect("they differ");
        assert!(why.contains("has nothing"), "{why}");
    }

    /// Rustdoc's view may hold functions, constants and statics outside
    /// code cannot name that the cases' build lacks (a checker kept for
    /// debug builds); a public one, a type, or an impl it holds, not.
    #[test]
    fn only_what_outside_code_can_name_counts() {
        let doc = &VIEWS[0];
        let plain = "pub struct S;\nimpl S { pub fn f(&self) {} }\n";
        for debug_only in [
            "pub struct S;\nimpl S { pub fn f(&self) {} }\nfn check_invariant(s: &S) { assert!(true) }\n",
            "pub struct S;\nimpl S { pub fn f(&self) {} fn check(&self) {} pub(crate) const N: u8 = 1; }\n",
            "pub struct S;\nimpl S { pub fn f(&self) {} }\npub(crate) fn check() {}\nstatic SEEN: u8 = 0;\n",
            "pub struct S;\nimpl S { pub fn f(&self) {} }\nimpl S { fn check(&self) {} }\n",
        ] {
            assert_eq!(differs(plain, debug_only, doc), None, "{debug_only}");
        }
        for seen_outside in [
            "pub struct S;\nimpl S { pub fn f(&self) {} }\npub fn keys_mut() {}\n",
            "pub struct S;\nimpl S { pub fn f(&self) {} pub fn keys_mut(&self) {} }\n",
            "pub struct S;\nimpl S { pub fn f(&self) {} }\nfn check() { impl Clone for S { fn clone(&self) -> S { S } } }\n",
            "pub struct S;\nimpl S { pub fn f(&self) {} }\nstruct Hidden;\n",
        ] {
            assert!(
                differs(plain, seen_outside, doc).is_some(),
                "{seen_outside}"
            );
        }
    }

    /// Item for item: a body that differs (a `debug_assert!`) passes; an
    /// item that one side lacks, at any depth, does not.
    #[test]
    fn items_compare_without_bodies() {
        let debug = &VIEWS[0];
        let on = "pub fn f(x: u8) -> u8 { if true { if !(x < 9) { panic!() } } x }";
        let off = "pub fn f(x: u8) -> u8 { if false { if !(x < 9) { panic!() } } x }";
        assert_eq!(differs(off, on, debug), None);
        let hidden_off = "pub struct S; pub fn f() { impl S { pub fn keys_mut(&self) {} } }";
        let hidden_on = "pub struct S; pub fn f() { }";
        let why = differs(hidden_off, hidden_on, debug).expect("they differ");
        assert!(why.contains("keys_mut"), "{why}");
    }
}
