//! The check catches an answer key that lies, in each way it can lie, and
//! names the question; it does not accuse a right answer. The quiz in
//! `tests/fixtures/lying` is compiled against `solutions/ordered-tree`,
//! as the chapter's quiz is.

use std::path::Path;
use xsafe_book_quiz::{Options, check, course_root};

#[test]
fn every_lie_is_named_and_no_right_answer_is() {
    let root = course_root();
    let options = Options {
        quizzes: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lying"),
        // Its own folder: the fixture's binaries must not replace the
        // book's, which have the same names.
        work: root.join("target/quiz-fixtures"),
        chapters: false,
    };
    let checked = check(&root, &options).expect("the check runs");
    let problems: Vec<String> = checked.problems.iter().map(ToString::to_string).collect();
    let about = |id: &str| -> Vec<&String> {
        problems
            .iter()
            .filter(|problem| problem.contains(&format!("(id {id})")))
            .collect()
    };
    let expect = |id: &str, words: &str| {
        assert!(
            about(id).iter().any(|problem| problem.contains(words)),
            "no problem of {id} says {words:?}; the problems:\n{}",
            problems.join("\n")
        );
    };
    // A program said to be rejected compiles.
    expect(
        "lying/compiles",
        "but expected E0451 at line 4, but the program compiled",
    );
    // The annotation names the wrong code.
    expect(
        "lying/wrong-code",
        "expected E0616 at line 4; got E0451 at line 4",
    );
    // The "why" question's correct choice names the wrong code, and one of
    // its wrong choices is what the compiler says.
    expect(
        "lying/wrong-why-why",
        "its correct choice blames E0616 at line 4, but the compiler reports E0451 at line 4",
    );
    expect(
        "lying/wrong-why-why",
        "the wrong choice `Line 4, E0451: private fields` blames E0451 at line 4, which is what the compiler reports",
    );
    // Wrong output, a panic, and a program said to compile that does not.
    expect(
        "lying/stdout",
        "the answer says the program prints \"3\", but it prints \"2\"",
    );
    expect("lying/panics", "fails when it runs");
    expect(
        "lying/rejected",
        "the answer says the program compiles, but the compiler rejects it: E0308 at line 5",
    );
    // Right answers, and the right "why" of a wrong annotation, are not accused.
    for id in [
        "lying/honest",
        "lying/honest-why",
        "lying/wrong-why",
        "lying/wrong-code-why",
    ] {
        assert!(about(id).is_empty(), "{id} is right, yet: {:?}", about(id));
    }
    // The fixture has 11 questions: a quiz has at most 8.
    assert!(
        problems
            .iter()
            .any(|problem| problem.contains("11 questions")),
        "{problems:#?}"
    );
    // The verdicts handed to mdbook-quiz's validator are the compiler's.
    let verdict = |program: &str| checked.verdicts.of(program).map(|verdict| verdict.compiled);
    assert_eq!(
        verdict(
            "use ordered_tree::OrderedSet;\n\nfn main() {\n    let set: OrderedSet<i32> = [2, 1].into_iter().collect();\n    println!(\"{}\", set.len());\n}\n"
        ),
        Some(true)
    );
    assert_eq!(checked.verdicts.len(), 7, "one verdict per program");
}

/// The book's own quizzes follow the rules that need no compiler: their
/// size, ids, "why" questions that show the same program and blame one
/// line each, an explanation for every wrong choice. (`ci/test.sh` runs the
/// whole check, which compiles them: `xsafe-book-quiz check`.)
#[test]
fn the_books_quizzes_follow_the_rules() {
    let dir = course_root().join("book/quizzes");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("book/quizzes")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 7,
        "a quiz per chapter and the course's: {files:?}"
    );
    let mut problems = Vec::new();
    for file in &files {
        match xsafe_book_quiz::quiz::Quiz::read(file) {
            Ok(quiz) => problems.extend(xsafe_book_quiz::quiz::lint(&quiz)),
            Err(problem) => problems.push(problem),
        }
    }
    let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
