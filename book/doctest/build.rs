//! Splits the book's Rust blocks between the two tools that check them:
//!
//! * skeptic compiles and runs the self-contained blocks (`rust`,
//!   `rust,should_panic`, `rust,no_run`), alone, as the playground would.
//!   It is given a copy of each chapter in which the other blocks are turned
//!   into `text`: skeptic has no `compile_fail`, and it cannot link a crate
//!   whose library name differs from its package name, as the course's
//!   solution crates' do.
//! * rustdoc checks the rest, from a file per chapter that holds only them
//!   (see `src/lib.rs`): every `rust,compile_fail,E....` block, with its
//!   error codes, every `rust,noplayground` block, which uses the
//!   course's crates and must compile and run, and the runnable blocks that
//!   use the crates.io crates the book's tests depend on (`syn`, `quote`),
//!   whose builds rustdoc gets from cargo.

#[path = "src/blocks.rs"]
mod blocks;

use blocks::Check;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let book_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
    println!("cargo:rerun-if-changed={}", book_src.display());
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let skeptic_dir = out_dir.join("skeptic");
    let rustdoc_dir = out_dir.join("rustdoc");
    for dir in [&skeptic_dir, &rustdoc_dir] {
        std::fs::create_dir_all(dir).expect("cannot create a folder in OUT_DIR");
    }

    let mut chapters: Vec<PathBuf> = std::fs::read_dir(&book_src)
        .expect("cannot read book/src")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .filter(|path| path.file_name().is_some_and(|name| name != "SUMMARY.md"))
        .collect();
    chapters.sort();

    let mut skeptic_inputs = Vec::new();
    let mut includes = String::new();
    for chapter in &chapters {
        let text = std::fs::read_to_string(chapter).expect("cannot read a chapter");
        let file_name = chapter.file_name().expect("a chapter has a file name");
        let stem = chapter
            .file_stem()
            .expect("a chapter has a name")
            .to_string_lossy();

        let mut for_skeptic = text.clone();
        let mut for_rustdoc = format!(
            "The blocks of `{}` that rustdoc checks.\n\n",
            file_name.to_string_lossy()
        );
        let mut rustdoc_blocks = 0;
        // Replace fences back to front, so earlier byte ranges stay valid.
        for block in blocks::blocks(&text).iter().rev() {
            if matches!(block.check, Check::Standalone | Check::NotRust) {
                continue;
            }
            for_skeptic.replace_range(block.fence.clone(), "```text");
        }
        for block in blocks::blocks(&text) {
            if let Check::CompileFail(_) | Check::WithCourseCrates | Check::WithDependencies =
                block.check
            {
                rustdoc_blocks += 1;
                let info = block.info.replace(",noplayground", "");
                let _ = write!(
                    for_rustdoc,
                    "From line {}:\n\n```{info}\n{}```\n\n",
                    block.line, block.code
                );
            }
        }

        let copy = skeptic_dir.join(file_name);
        std::fs::write(&copy, for_skeptic).expect("cannot write to OUT_DIR");
        skeptic_inputs.push(copy);
        if rustdoc_blocks > 0 {
            let doc = rustdoc_dir.join(file_name);
            std::fs::write(&doc, for_rustdoc).expect("cannot write to OUT_DIR");
            let item = stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
            let _ = writeln!(
                includes,
                "#[doc = include_str!({:?})]\n#[allow(non_camel_case_types)]\npub struct Chapter_{item};",
                doc.display().to_string()
            );
        }
    }
    std::fs::write(out_dir.join("rustdoc.rs"), includes).expect("cannot write to OUT_DIR");
    // skeptic writes nothing for a book with no chapter yet; the test target
    // includes the file all the same.
    let skeptic_tests = out_dir.join("skeptic-tests.rs");
    if !skeptic_tests.exists() {
        std::fs::write(&skeptic_tests, "").expect("cannot write to OUT_DIR");
    }
    skeptic::generate_doc_tests(&skeptic_inputs);
}
