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
