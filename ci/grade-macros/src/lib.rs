//! `behaviour_cases!()`: the behaviour cases of an exercise, as tests.
//!
//! Used as the whole body of an exercise's `tests/behaviour.rs`. It reads
//! `grading/manifest.toml` of the crate being compiled and, for every case
//! with `expect = "pass"`, includes the case file as a module
//! `STEP::CASE`, so that its `#[test]` functions run as
//! `STEP::CASE::TEST_NAME`. Helpers shared by the cases, if the exercise has
//! them in `grading/cases/support.rs`, become the module `crate::support`. All behaviour cases are compiled into one test
//! binary and run in parallel, which is much faster than building one
//! program per case.
//!
//! The manifest is parsed here with a minimal model of its own (only the
//! fields this macro needs), because a proc-macro crate cannot share types
//! with the crates that use it.

use proc_macro::TokenStream;
use quote::{format_ident, quote};
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Manifest {
    #[serde(rename = "case", default)]
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    file: PathBuf,
    step: String,
    expect: String,
}

/// Expands to one module per step, holding one module per behaviour case.
#[proc_macro]
pub fn behaviour_cases(input: TokenStream) -> TokenStream {
    if !input.is_empty() {
        return compile_error("behaviour_cases!() takes no arguments");
    }
    let Some(crate_dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return compile_error("CARGO_MANIFEST_DIR is not set: build this with cargo");
    };
    let grading = crate_dir.join("grading");
    let manifest_path = grading.join("manifest.toml");
    let text = match std::fs::read_to_string(&manifest_path) {
        Ok(text) => text,
        Err(err) => {
            return compile_error(&format!("cannot read {}: {err}", manifest_path.display()));
        }
    };
    let manifest: Manifest = match toml::from_str(&text) {
        Ok(manifest) => manifest,
        Err(err) => {
            return compile_error(&format!("{} is not valid: {err}", manifest_path.display()));
        }
    };

    let mut steps: Vec<(String, Vec<proc_macro2::TokenStream>)> = Vec::new();
    for case in manifest.cases.iter().filter(|case| case.expect == "pass") {
        let path = grading.join("cases").join(&case.file);
        let Some(stem) = case.file.file_stem().and_then(|stem| stem.to_str()) else {
            return compile_error(&format!("case {} has no file name", case.file.display()));
        };
        let Ok(module) = syn_ident(stem) else {
            return compile_error(&format!("case file name `{stem}` is not a Rust identifier"));
        };
        let path = path.to_string_lossy().into_owned();
        let item = quote! {
            #[path = #path]
            pub mod #module;
        };
        match steps.iter_mut().find(|(step, _)| *step == case.step) {
            Some((_, items)) => items.push(item),
            None => steps.push((case.step.clone(), vec![item])),
        }
    }

    let support_path = grading.join("cases").join("support.rs");
    let support = support_path.is_file().then(|| {
        let path = support_path.to_string_lossy().into_owned();
        quote! {
            #[path = #path]
            pub mod support;
        }
    });
    let manifest_path = manifest_path.to_string_lossy().into_owned();
    let modules = steps.into_iter().map(|(step, items)| {
        let step = syn_ident(&step).unwrap_or_else(|()| format_ident!("invalid_step_name"));
        quote! {
            pub mod #step {
                #(#items)*
            }
        }
    });
    quote! {
        // Rebuild the tests when the manifest changes.
        const _: &str = include_str!(#manifest_path);
        #support
        #(#modules)*
    }
    .into()
}

fn syn_ident(name: &str) -> Result<proc_macro2::Ident, ()> {
    let valid = name
        .chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok(format_ident!("{}", name))
    } else {
        Err(())
    }
}

fn compile_error(message: &str) -> TokenStream {
    quote!(compile_error!(#message);).into()
}
