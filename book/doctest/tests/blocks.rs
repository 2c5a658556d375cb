//! Every code block of the book is either checked or plainly not Rust.

#[path = "../src/blocks.rs"]
#[allow(dead_code)]
mod blocks;

use blocks::{blocks, check_of, Check};
use std::path::Path;

/// No chapter has a block that neither skeptic nor rustdoc would check
/// (`ignore`, an unknown language or attribute, `compile_fail` without its
/// error code), and every chapter SUMMARY.md lists exists.
#[test]
fn every_block_is_checked() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("SUMMARY.md");
    let mut problems = Vec::new();
    for line in summary.lines() {
        let Some((_, rest)) = line.split_once("](") else {
            continue;
        };
        let Some((file, _)) = rest.split_once(')') else {
            continue;
        };
        let chapter = src.join(file);
        let Ok(text) = std::fs::read_to_string(&chapter) else {
            problems.push(format!("SUMMARY.md lists {file}, which does not exist"));
            continue;
        };
        for block in blocks(&text) {
            match &block.check {
                Check::Refused(why) => {
                    problems.push(format!("{file}:{}: ```{}: {why}", block.line, block.info))
                }
                Check::Included(specs) => {
                    for spec in specs {
                        if let Err(why) = included_file_is_compiled(&src, spec) {
                            problems.push(format!(
                                "{file}:{}: {{{{#include {spec}}}}}: {why}",
                                block.line
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    assert!(
        problems.is_empty(),
        "unchecked code blocks:\n{}",
        problems.join("\n")
    );
}

/// A block that includes `spec` (`PATH` or `PATH:ANCHOR`, relative to
/// `book/src`) shows code that cargo compiles: a `.rs` file of a crate that
/// is a member of the workspace, holding the anchor if one is named.
fn included_file_is_compiled(src: &Path, spec: &str) -> Result<(), String> {
    let (path, anchor) = match spec.rsplit_once(':') {
        Some((path, anchor))
            if anchor
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            (path, Some(anchor))
        }
        _ => (spec, None),
    };
    let file = src.join(path);
    let text = std::fs::read_to_string(&file).map_err(|err| format!("cannot read it: {err}"))?;
    if !path.ends_with(".rs") {
        return Err("only Rust files of a workspace crate may be included in a Rust block".into());
    }
    if let Some(anchor) = anchor {
        for marker in [format!("ANCHOR: {anchor}"), format!("ANCHOR_END: {anchor}")] {
            if !text.contains(&marker) {
                return Err(format!("the file has no `{marker}`"));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().map_err(|err| err.to_string())?;
    let file = file.canonicalize().map_err(|err| err.to_string())?;
    let crate_dir = file
        .ancestors()
        .skip(1)
        .find(|dir| dir.join("Cargo.toml").is_file())
        .ok_or("the file is in no crate")?;
    let relative = crate_dir
        .strip_prefix(&root)
        .map_err(|_| "the file is outside the course".to_string())?
        .to_string_lossy()
        .into_owned();
    let workspace =
        std::fs::read_to_string(root.join("Cargo.toml")).map_err(|err| err.to_string())?;
    let members = workspace
        .split_once("default-members = [")
        .ok_or("the workspace has no default-members")?
        .1
        .split_once(']')
        .ok_or("default-members is not a list")?
        .0;
    let member = members.lines().any(|line| {
        let pattern = line.trim().trim_end_matches(',').trim_matches('"');
        pattern == relative
            || pattern
                .strip_suffix("/*")
                .is_some_and(|parent| Path::new(&relative).parent() == Some(Path::new(parent)))
    });
    if member {
        Ok(())
    } else {
        Err(format!(
            "{relative} is not among the workspace's default members, which `cargo test` compiles"
        ))
    }
}

/// Included files: a real file of a default member passes, anything else
/// is refused with a reason.
#[test]
fn included_files_are_checked() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
    assert_eq!(
        included_file_is_compiled(&src, "../primer-derive/src/lib.rs:expand"),
        Ok(())
    );
    assert!(included_file_is_compiled(&src, "../primer-derive/src/lib.rs:nowhere").is_err());
    assert!(included_file_is_compiled(&src, "../primer-derive/src/missing.rs").is_err());
    assert!(included_file_is_compiled(&src, "../primer-derive/Cargo.toml").is_err());
    assert!(included_file_is_compiled(&src, "../../exercises/ordered-tree/src/lib.rs").is_err());
    assert_eq!(
        blocks::includes("{{#include ../a.rs:one}}\n{{#include ../b.rs}}\n"),
        Some(vec!["../a.rs:one".to_owned(), "../b.rs".to_owned()])
    );
    assert_eq!(blocks::includes("fn main() {}\n"), None);
    let chapter =
        "```rust,noplayground\n{{#include ../a.rs}}\n```\n\n```rust\n{{#include ../a.rs}}\n```\n";
    let found = blocks(chapter);
    assert_eq!(found[0].check, Check::Included(vec!["../a.rs".into()]));
    assert!(matches!(found[1].check, Check::Refused(_)));
}

/// The classification itself, on the info strings the book uses.
#[test]
fn info_strings_are_classified() {
    assert_eq!(check_of("rust"), Check::Standalone);
    assert_eq!(check_of("rust,noplayground"), Check::WithCourseCrates);
    assert_eq!(check_of("rust,should_panic"), Check::Standalone);
    assert_eq!(check_of("text"), Check::NotRust);
    assert_eq!(
        check_of("rust,compile_fail,E0451,E0616"),
        Check::CompileFail(vec!["E0451".into(), "E0616".into()])
    );
    assert!(matches!(check_of("rust,compile_fail"), Check::Refused(_)));
    assert!(matches!(check_of("rust,ignore"), Check::Refused(_)));
    assert!(matches!(check_of(""), Check::Refused(_)));
    assert!(matches!(check_of("rust,nonsense"), Check::Refused(_)));
}

/// Runnable blocks that use `syn` or `quote` go to rustdoc; a path that
/// merely ends in such a name does not count.
#[test]
fn blocks_with_dependencies_are_found() {
    let chapter = "```rust,editable\nuse quote::quote;\nfn main() {}\n```\n\n```rust\nmod my_syn { pub fn f() {} }\nfn main() { my_syn::f() }\n```\n";
    let found = blocks(chapter);
    assert_eq!(found[0].check, Check::WithDependencies);
    assert_eq!(found[1].check, Check::Standalone);
}

/// A block's code, line and fence are found where they are.
#[test]
fn blocks_are_located() {
    let chapter = "# T\n\ntext\n\n```rust,compile_fail,E0308\nlet x: u8 = \"\";\n```\n";
    let found = blocks(chapter);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].line, 5);
    assert_eq!(
        &chapter[found[0].fence.clone()],
        "```rust,compile_fail,E0308"
    );
    assert_eq!(found[0].code, "let x: u8 = \"\";\n");
}
