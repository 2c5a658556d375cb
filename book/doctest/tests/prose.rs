//! The prose of the chapters and of the quizzes: chapter references that
//! cannot drift from the sidebar, and no grading words.
//!
//! mdBook numbers the sidebar, primers included, so "chapter 3" or "one
//! chapter later" in the text soon names the wrong page. A chapter is
//! named by its title or by a link, and a relative reference ("the next
//! chapter") is only allowed in a paragraph that links the page it means.
//! The grading's own words (case names, `public_surface`, the manifest)
//! belong to the appendix *Exercises and grading*, not to the lessons.

use std::path::{Path, PathBuf};

/// Appendices: they may speak of cases and of the grading.
const APPENDICES: &[&str] = &[
    "grading.md",
    "instructors.md",
    "teaching.md",
    "measurements.md",
];

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every chapter (not an appendix) and every quiz, with its text.
fn texts() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    for (dir, ext) in [("src", "md"), ("quizzes", "toml")] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(book().join(dir))
            .expect("a book folder")
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|e| e == ext))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "SUMMARY.md" || APPENDICES.contains(&name.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a readable file");
            texts.push((format!("book/{dir}/{name}"), text));
        }
    }
    texts
}

/// The words of `text`, lower case, with their line numbers.
fn words(text: &str) -> Vec<(usize, String)> {
    let mut words = Vec::new();
    for (number, line) in text.lines().enumerate() {
        for word in line.split(|c: char| !c.is_ascii_alphanumeric() && c != '-') {
            if !word.is_empty() {
                words.push((number + 1, word.to_ascii_lowercase()));
            }
        }
    }
    words
}

const NUMBERS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "first", "second",
    "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
];
const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
];
const RELATIVE: &[&str] = &["last", "next", "previous", "preceding", "following"];
const DIRECTIONS: &[&str] = &["later", "earlier", "before", "after", "ago", "on"];

/// The chapter references of `text` that depend on where a page sits in
/// the sidebar, as `line: words`.
fn drifting_references(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    // Paragraphs, so that a relative reference may be anchored by a link.
    let mut line_offset = 0;
    for paragraph in text.split("\n\n") {
        let linked = paragraph.contains(".md)") || paragraph.contains(".md#");
        let words = words(paragraph);
        for (at, (line, word)) in words.iter().enumerate() {
            let line = line + line_offset;
            let next = words.get(at + 1).map(|(_, w)| w.as_str()).unwrap_or("");
            let after = words.get(at + 2).map(|(_, w)| w.as_str()).unwrap_or("");
            let chapter = |w: &str| matches!(w, "chapter" | "chapters" | "primer" | "primers");
            if chapter(word) && next.chars().all(|c| c.is_ascii_digit()) && !next.is_empty() {
                found.push(format!(
                    "{line}: `{word} {next}`: a number the sidebar does not keep"
                ));
            }
            if NUMBERS.contains(&word.as_str()) && chapter(next) && DIRECTIONS.contains(&after) {
                found.push(format!("{line}: `{word} {next} {after}`: counts pages"));
            }
            if ORDINALS.contains(&word.as_str()) && chapter(next) && !DIRECTIONS.contains(&after) {
                found.push(format!(
                    "{line}: `{word} {next}`: an ordinal the sidebar does not keep"
                ));
            }
            if RELATIVE.contains(&word.as_str()) && chapter(next) && !linked {
                found.push(format!(
                    "{line}: `{word} {next}` with no link in its paragraph: name the page, or link it"
                ));
            }
        }
        line_offset += paragraph.lines().count() + 1;
    }
    found
}

/// The names of the grading's cases, from every exercise's manifest.
fn case_names() -> Vec<String> {
    let exercises = book().join("../exercises");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(exercises).expect("exercises").flatten() {
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("grading/manifest.toml"))
        else {
            continue;
        };
        for line in manifest.lines() {
            if let Some(file) = line.trim().strip_prefix("file = \"") {
                let file = file.trim_end_matches('"');
                let stem = file.rsplit('/').next().unwrap_or(file);
                names.push(stem.trim_end_matches(".rs").to_owned());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

#[test]
fn chapter_references_do_not_drift() {
    let mut problems = Vec::new();
    for (file, text) in texts() {
        for found in drifting_references(&text) {
            problems.push(format!("{file}:{found}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_grading_words_in_the_lessons() {
    let cases = case_names();
    assert!(cases.len() > 50, "the manifests name the cases: {cases:?}");
    let mut problems = Vec::new();
    for (file, text) in texts() {
        for (number, line) in text.lines().enumerate() {
            if file.ends_with(".toml") && line.starts_with('#') {
                continue; // a comment for the quiz's maintainers
            }
            let lower = line.to_ascii_lowercase();
            for word in [
                "public_surface",
                "manifest.toml",
                "grading case",
                "the case `",
            ] {
                if lower.contains(word) {
                    problems.push(format!("{file}:{}: `{word}`", number + 1));
                }
            }
            for case in &cases {
                if line.contains(&format!("`{case}`")) || line.contains(&format!("/{case}`")) {
                    problems.push(format!("{file}:{}: the case name `{case}`", number + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The rules catch what they are about, and let a linked or named
/// reference through.
#[test]
fn references_are_judged() {
    assert_eq!(drifting_references("As in chapter 3, ...").len(), 1);
    assert_eq!(
        drifting_references("The same idea, one chapter later, ...").len(),
        1
    );
    assert_eq!(drifting_references("from the second chapter on").len(), 1);
    assert_eq!(drifting_references("The last chapter's token.").len(), 1);
    assert!(drifting_references("[The last chapter](lock-order.md) ended.").is_empty());
    assert!(
        drifting_references("The chapter \"An ordered tree\" and one chapter each.").is_empty()
    );
    assert!(drifting_references("Six chapters applied one method.").is_empty());
}
