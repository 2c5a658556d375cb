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
            if let Check::Refused(why) = &block.check {
                problems.push(format!("{file}:{}: ```{}: {why}", block.line, block.info));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "unchecked code blocks:\n{}",
        problems.join("\n")
    );
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
