//! Parsing learner bytes without trusting their shape.
//!
//! **Invariant**: every parse of learner bytes in the grader's own process
//! (a crate's expansion, a macro crate's source) ends with a syntax tree or
//! a reason, never with a crash: the text is first read into tokens (which
//! `proc-macro2` does without recursion), refused when its brackets nest
//! deeper than [`MAX_DEPTH`], and only then parsed by `syn`, on a thread of
//! its own whose stack is sized for that depth. A panic in the parser is a
//! reason too. No learner code runs here; this bounds what its text costs.

use proc_macro2::{TokenStream, TokenTree};

/// How deep brackets may nest in learner code. rustc compiles deeper
/// code, but no solution of the course's exercises nests a tenth as deep;
/// the bound keeps `syn`'s recursive parser within its stack.
pub const MAX_DEPTH: usize = 256;

/// The stack of the parsing thread: room for `MAX_DEPTH` levels of `syn`'s
/// recursion in a debug build, many times over.
const STACK_BYTES: usize = 512 << 20;

/// How deep the brackets of `tokens` nest, walked without recursion.
pub fn depth(tokens: &TokenStream) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(proc_macro2::token_stream::IntoIter, usize)> =
        vec![(tokens.clone().into_iter(), 0)];
    while let Some((mut iter, level)) = stack.pop() {
        deepest = deepest.max(level);
        if let Some(tree) = iter.next() {
            stack.push((iter, level));
            if let TokenTree::Group(group) = tree {
                stack.push((group.stream().into_iter(), level + 1));
            }
        }
    }
    deepest
}

/// What `use_file` makes of `text` parsed as a file of Rust, or why it was
/// not parsed: it does not read as tokens, nests deeper than
/// [`MAX_DEPTH`], does not parse, or the parser failed. The parse and
/// `use_file` run on the parsing thread (a syntax tree cannot leave it).
pub fn with_file<R: Send + 'static>(
    text: &str,
    use_file: impl FnOnce(&syn::File) -> R + Send + 'static,
) -> Result<R, String> {
    let tokens: TokenStream = text
        .parse()
        .map_err(|err| format!("it does not read as Rust tokens ({err})"))?;
    let deepest = depth(&tokens);
    if deepest > MAX_DEPTH {
        return Err(format!(
            "its brackets nest {deepest} deep, more than the {MAX_DEPTH} the grader reads"
        ));
    }
    drop(tokens);
    let owned = text.to_owned();
    let parser = std::thread::Builder::new()
        .name("xsafe-parse".to_owned())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            syn::parse_file(&owned)
                .map(|file| use_file(&file))
                .map_err(|err| err.to_string())
        })
        .map_err(|err| format!("the parser could not start ({err})"))?;
    match parser.join() {
        Ok(parsed) => parsed,
        Err(_) => Err("the parser failed on it".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Code as deep as rustc compiles (1,000 parentheses, and a million in
    /// a 2 MiB file) is refused with a reason; ordinary code parses.
    #[test]
    fn deep_code_is_a_reason_not_a_crash() {
        let deep = format!(
            "fn f() -> u8 {{ {}1{} }}",
            "(".repeat(1000),
            ")".repeat(1000)
        );
        let why = with_file(&deep, |_| ()).expect_err("too deep");
        assert!(why.contains("nest 1001 deep"), "{why}");
        let deeper = format!(
            "const X: () = {}{};",
            "[".repeat(1 << 20),
            "]".repeat(1 << 20)
        );
        assert!(with_file(&deeper, |_| ()).is_err());
        let fine = format!("fn f() -> u8 {{ {}1{} }}", "(".repeat(100), ")".repeat(100));
        assert_eq!(with_file(&fine, |file| file.items.len()), Ok(1));
        assert!(with_file("fn (", |_| ()).is_err());
    }
}
