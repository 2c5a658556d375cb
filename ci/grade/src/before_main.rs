//! Learner code runs only when a case calls it.
//!
//! **Invariant**: a crate whose expansion holds a way to run code that no
//! case called, or to replace a symbol of the program it is linked into,
//! is refused before any of its code runs, with each such item named:
//! placement and linkage attributes (`#[link_section]`, `#[no_mangle]`,
//! `#[export_name]`, `#[used]`, `#[link]`, `#[link_name]`, `#[linkage]`),
//! the program's global hooks (`#[global_allocator]`, `#[panic_handler]`,
//! `#[alloc_error_handler]`, `#[naked]`), `extern` blocks, inline and
//! global assembly, and the crate attributes `no_main`, `no_core`,
//! `no_builtins` and `feature` (unstable features on a nightly), and every
//! attribute of the compiler's own (`rustc_*`, which `#[global_allocator]`
//! leaves behind in the expansion). What is left of the crate runs only
//! through its API, which the cases call.
//!
//! The expansion is the compiler's (`-Zunpretty=expanded`, in a build
//! where no learner code runs), so items that macros write and items
//! nested in function bodies or `const _` blocks are seen like any other.

use syn::visit::Visit;

/// Attributes that place code or data where the linker or the runtime
/// calls it, or replace a symbol.
const REFUSED_ATTRIBUTES: [&str; 11] = [
    "link_section",
    "no_mangle",
    "export_name",
    "used",
    "link",
    "link_name",
    "linkage",
    "global_allocator",
    "panic_handler",
    "alloc_error_handler",
    "naked",
];

/// Crate attributes that change what runs around `main` or what the
/// compiler accepts.
const REFUSED_CRATE_ATTRIBUTES: [&str; 4] = ["no_main", "no_core", "no_builtins", "feature"];

/// Macros that emit machine code the compiler does not check.
const REFUSED_MACROS: [&str; 3] = ["asm", "global_asm", "naked_asm"];

/// Every refused item of an expanded crate, as one line each
/// (`#[link_section] on static FORGE`), in source order; an empty list
/// when the crate may run.
pub fn refused(expansion: &str) -> Result<Vec<String>, String> {
    crate::bounded::with_file(expansion, |file| {
        let mut finder = Finder {
            found: Vec::new(),
            item: "the crate".to_owned(),
        };
        for attr in &file.attrs {
            let name = attribute_name(attr);
            // The compiler itself writes `#![feature(prelude_import)]` into
            // every expansion.
            let injected = name == "feature"
                && attr
                    .parse_args::<syn::Ident>()
                    .is_ok_and(|ident| ident == "prelude_import");
            if (REFUSED_CRATE_ATTRIBUTES.contains(&name.as_str()) || is_internal(&name))
                && !injected
            {
                finder.found.push(format!("#![{name}] on the crate"));
            }
        }
        finder.visit_file(file);
        finder.found
    })
    .map_err(|why| format!("the crate's expansion could not be read: {why}"))
}

/// Whether an attribute is one of the compiler's own (`rustc_*`), which
/// only std may use: `#[global_allocator]` expands into a static and
/// functions marked `#[rustc_std_internal_symbol]`, which the linker calls
/// without any case calling them.
fn is_internal(name: &str) -> bool {
    name.starts_with("rustc_")
}

/// An attribute's name, under `unsafe(...)`: `no_mangle` for both
/// `#[no_mangle]` and `#[unsafe(no_mangle)]`.
fn attribute_name(attr: &syn::Attribute) -> String {
    let path = attr.path();
    if path.is_ident("unsafe")
        && let Ok(inner) = attr.parse_args::<syn::Meta>()
    {
        return inner
            .path()
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
            .unwrap_or_default();
    }
    path.segments
        .last()
        .map(|segment| segment.ident.to_string())
        .unwrap_or_default()
}

struct Finder {
    found: Vec<String>,
    /// The item being visited, for messages.
    item: String,
}

impl Finder {
    fn check_attrs(&mut self, attrs: &[syn::Attribute], item: &str) {
        for attr in attrs {
            let name = attribute_name(attr);
            if REFUSED_ATTRIBUTES.contains(&name.as_str()) || is_internal(&name) {
                self.found.push(format!("#[{name}] on {item}"));
            }
        }
    }

    fn check_macro(&mut self, mac: &syn::Macro) {
        if let Some(last) = mac.path.segments.last()
            && REFUSED_MACROS.contains(&last.ident.to_string().as_str())
        {
            self.found.push(format!("{}! in {}", last.ident, self.item));
        }
        // A `macro_rules!` of the crate expands where a case calls it, in
        // a program whose expansion is not the crate's: what it would
        // write there is refused here, in its tokens.
        if mac.path.is_ident("macro_rules") {
            for what in refused_in_tokens(mac.tokens.clone()) {
                self.found.push(format!("{what} in {}", self.item));
            }
        }
    }
}

/// What a token stream would write that the rules refuse: a refused or
/// compiler-internal attribute (`#[no_mangle]`, `#[unsafe(link_section = ..)]`,
/// `#[rustc_..]`), an `extern` block, a refused macro (`asm!`), at any
/// depth. For the bodies of `macro_rules!` and for what procedural macros
/// returned, which are checked before they are compiled anywhere.
pub fn refused_in_tokens(tokens: proc_macro2::TokenStream) -> Vec<String> {
    use proc_macro2::{Delimiter, TokenTree};
    let mut found = Vec::new();
    let mut stack = vec![tokens.into_iter().collect::<Vec<TokenTree>>()];
    while let Some(trees) = stack.pop() {
        for (at, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Punct(punct) if punct.as_char() == '#' => {
                    let mut next = at + 1;
                    if matches!(trees.get(next), Some(TokenTree::Punct(bang)) if bang.as_char() == '!')
                    {
                        next += 1;
                    }
                    if let Some(TokenTree::Group(group)) = trees.get(next)
                        && group.delimiter() == Delimiter::Bracket
                    {
                        let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                        let name = match inner.as_slice() {
                            [TokenTree::Ident(word), TokenTree::Group(args), ..]
                                if word == "unsafe" =>
                            {
                                args.stream()
                                    .into_iter()
                                    .next()
                                    .map(|tree| tree.to_string())
                            }
                            [TokenTree::Ident(word), ..] => Some(word.to_string()),
                            _ => None,
                        };
                        if let Some(name) = name
                            && (REFUSED_ATTRIBUTES.contains(&name.as_str()) || is_internal(&name))
                        {
                            found.push(format!("#[{name}]"));
                        }
                    }
                }
                TokenTree::Ident(word) if word == "extern" => {
                    let mut next = at + 1;
                    if matches!(trees.get(next), Some(TokenTree::Literal(_))) {
                        next += 1;
                    }
                    if matches!(trees.get(next), Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace)
                    {
                        found.push("an extern block".to_owned());
                    }
                }
                TokenTree::Ident(word)
                    if REFUSED_MACROS.contains(&word.to_string().as_str())
                        && matches!(trees.get(at + 1), Some(TokenTree::Punct(bang)) if bang.as_char() == '!') =>
                {
                    found.push(format!("{word}!"));
                }
                TokenTree::Group(group) => stack.push(group.stream().into_iter().collect()),
                _ => {}
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// `KIND NAME` of an item, for messages.
fn describe(item: &syn::Item) -> String {
    match item {
        syn::Item::Fn(item) => format!("fn {}", item.sig.ident),
        syn::Item::Static(item) => format!("static {}", item.ident),
        syn::Item::Const(item) => format!("const {}", item.ident),
        syn::Item::Struct(item) => format!("struct {}", item.ident),
        syn::Item::Enum(item) => format!("enum {}", item.ident),
        syn::Item::Mod(item) => format!("mod {}", item.ident),
        syn::Item::Trait(item) => format!("trait {}", item.ident),
        syn::Item::Impl(_) => "an impl".to_owned(),
        syn::Item::ForeignMod(_) => "an extern block".to_owned(),
        syn::Item::Type(item) => format!("type {}", item.ident),
        syn::Item::Union(item) => format!("union {}", item.ident),
        syn::Item::Macro(item) => match &item.ident {
            Some(name) => format!("macro_rules! {name}"),
            None => "a macro call".to_owned(),
        },
        _ => "an item".to_owned(),
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let described = describe(item);
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Fn(item) => &item.attrs,
            syn::Item::Static(item) => &item.attrs,
            syn::Item::Const(item) => &item.attrs,
            syn::Item::Struct(item) => &item.attrs,
            syn::Item::Enum(item) => &item.attrs,
            syn::Item::Mod(item) => &item.attrs,
            syn::Item::Trait(item) => &item.attrs,
            syn::Item::Impl(item) => &item.attrs,
            syn::Item::ForeignMod(item) => &item.attrs,
            syn::Item::Type(item) => &item.attrs,
            syn::Item::Union(item) => &item.attrs,
            syn::Item::Use(item) => &item.attrs,
            syn::Item::ExternCrate(item) => &item.attrs,
            syn::Item::Macro(item) => &item.attrs,
            _ => &[],
        };
        self.check_attrs(attrs, &described);
        if let syn::Item::ForeignMod(foreign) = item {
            let abi = foreign
                .abi
                .name
                .as_ref()
                .map(|name| format!(" {:?}", name.value()))
                .unwrap_or_default();
            self.found
                .push(format!("an extern{abi} block in {}", self.item));
        }
        let outer = std::mem::replace(&mut self.item, described);
        syn::visit::visit_item(self, item);
        self.item = outer;
    }

    fn visit_impl_item_fn(&mut self, function: &'ast syn::ImplItemFn) {
        let described = format!("fn {}", function.sig.ident);
        self.check_attrs(&function.attrs, &described);
        let outer = std::mem::replace(&mut self.item, described);
        syn::visit::visit_impl_item_fn(self, function);
        self.item = outer;
    }

    fn visit_trait_item_fn(&mut self, function: &'ast syn::TraitItemFn) {
        let described = format!("fn {}", function.sig.ident);
        self.check_attrs(&function.attrs, &described);
        let outer = std::mem::replace(&mut self.item, described);
        syn::visit::visit_trait_item_fn(self, function);
        self.item = outer;
    }

    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        self.check_attrs(&item.attrs, &format!("const {}", item.ident));
        syn::visit::visit_impl_item_const(self, item);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.check_macro(mac);
        syn::visit::visit_macro(self, mac);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way to run code before `main` or to replace a symbol is named,
    /// wherever it is written (nested in a function, in a `const _`, in an
    /// impl, under `unsafe(...)`); the compiler's own injected feature and
    /// ordinary code pass.
    #[test]
    fn names_every_way_around_the_cases() {
        let expansion = r#"
            #![feature(prelude_import)]
            #[prelude_import]
            use std::prelude::rust_2024::*;
            #[macro_use]
            extern crate std;
            #[used]
            #[unsafe(link_section = ".init_array")]
            static FORGE: extern "C" fn() = { extern "C" fn forge() {} forge };
            pub fn f() {
                #[unsafe(no_mangle)]
                extern "C" fn boom() {}
                unsafe { asm!("nop"); }
            }
            const _: () = {
                unsafe extern "C" { fn exit(code: i32) -> !; }
            };
            struct A;
            impl A { #[unsafe(export_name = "main")] pub extern "C" fn run() {} }
            #[global_allocator]
            static ALLOC: std::alloc::System = std::alloc::System;
            pub fn ordinary(used: u8) -> u8 { let no_mangle = used; no_mangle }
        "#;
        assert_eq!(
            refused(expansion).expect("parses"),
            [
                "#[used] on static FORGE",
                "#[link_section] on static FORGE",
                "#[no_mangle] on fn boom",
                "asm! in fn f",
                "an extern \"C\" block in const _",
                "#[export_name] on fn run",
                "#[global_allocator] on static ALLOC",
            ]
        );
        assert_eq!(
            refused("#![feature(never_type)]\nfn main() {}").expect("parses"),
            ["#![feature] on the crate"]
        );
    }

    /// A `macro_rules!` whose body would put a constructor into the
    /// program that calls it is refused by its tokens; one that writes
    /// ordinary impls is not.
    #[test]
    fn refuses_what_a_macro_would_write_elsewhere() {
        let expansion = r#"
            #[macro_export]
            macro_rules! impl_lock_after {
                ($a:ty => $b:ty) => {
                    unsafe impl $crate::LockAfter<$a> for $b {}
                    #[used]
                    #[unsafe(link_section = ".init_array")]
                    static FORGE: extern "C" fn() = { extern "C" fn forge() {} forge };
                };
            }
            macro_rules! fine { ($t:ty) => { impl Clone for $t { fn clone(&self) -> Self { *self } } }; }
        "#;
        let found = refused(expansion).expect("parses");
        assert_eq!(
            found,
            [
                "#[link_section] in macro_rules! impl_lock_after",
                "#[used] in macro_rules! impl_lock_after",
            ],
            "{found:?}"
        );
    }

    /// rustc's own expansion of a crate with a global allocator keeps no
    /// `#[global_allocator]`: it is refused by the `rustc_*` attributes it
    /// leaves behind. The same expansion without the allocator passes, and
    /// so does a crate whose expression nests as deep as the grader reads.
    #[test]
    fn refuses_what_rustc_expands_a_global_allocator_to() {
        let expand = |source: &str| {
            let dir = std::env::temp_dir().join(format!(
                "xsafe-before-main-{}-{:x}",
                std::process::id(),
                xsafe_case::Rng::new().u64(..)
            ));
            std::fs::create_dir_all(&dir).expect("scratch");
            let file = dir.join("lib.rs");
            std::fs::write(&file, source).expect("source");
            let output = std::process::Command::new("rustc")
                .env("RUSTC_BOOTSTRAP", "1")
                .args([
                    "--edition",
                    "2024",
                    "--crate-type",
                    "lib",
                    "-Zunpretty=expanded",
                ])
                .arg(&file)
                .output()
                .expect("rustc runs");
            let _ = std::fs::remove_dir_all(&dir);
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
            String::from_utf8_lossy(&output.stdout).into_owned()
        };
        let allocator = expand(
            "use std::alloc::{GlobalAlloc, Layout, System};\npub struct Forge;\nunsafe impl GlobalAlloc for Forge {\n    unsafe fn alloc(&self, layout: Layout) -> *mut u8 { unsafe { System.alloc(layout) } }\n    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) { unsafe { System.dealloc(ptr, layout) } }\n}\n#[global_allocator]\nstatic FORGE: Forge = Forge;\n",
        );
        assert!(!allocator.contains("#[global_allocator]"), "{allocator}");
        let found = refused(&allocator).expect("parses");
        assert!(
            found.iter().any(|item| item.starts_with("#[rustc_")),
            "{found:?}\n{allocator}"
        );
        let plain = expand(
            "pub fn f(x: &[u8]) -> Vec<String> { x.iter().map(|b| format!(\"{b}\")).collect() }\n#[derive(Debug, Clone, PartialEq)]\npub struct S(u8);\n",
        );
        assert_eq!(refused(&plain).expect("parses"), Vec::<String>::new());
    }
}
