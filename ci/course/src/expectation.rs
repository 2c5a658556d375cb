//! What a compile-fail case expects of the compiler, written in the case
//! file itself as annotations in the style of ui_test and rustc's own UI
//! tests, so that the expectation sits next to the code that triggers it.
//!
//! **Invariant**: an expectation is read from the case file only, never
//! from the code under test or from a compiler's output, so nothing the
//! learner writes can change what a case expects.
//!
//! ```text
//! let n = Node { key: 1 };   //~ ERROR E0451       an E0451 on this line
//!                            //~^ ERROR E0451      ... on the line above (^^ two above)
//!                            //~v ERROR E0451      ... on the line below
//!                            //~| ALLOW E0063      ... on the line of the previous one,
//!                                                   tolerated but not required
//! //~? ERROR E0277 "Rc<String>"                    on any line of this file, and its
//!                                                   message must mention `Rc<String>`
//! //~ ERROR E0451|E0616                             either code
//! //~ ERROR E0451|"private field"                   E0451, or an error (with any
//!                                                   code, or none) that says this
//! //~ ERROR "borrowed"                              no code, but this word
//! ```
//!
//! A case passes when every `ERROR` annotation is matched by at least one
//! error the compiler reports, and every error the compiler reports matches
//! an `ERROR` or an `ALLOW` annotation (see the grading engine). Counting
//! "at least one" rather than "exactly one" keeps a case stable when a
//! compiler release merges two errors on a line into one, or splits one.

use std::fmt;

/// Where an expected error must point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Its primary span starts on this line of the case file (1-based).
    Line(u32),
    /// Anywhere in the case file: for errors whose line moves between
    /// compiler releases, such as one reported inside a derive's output.
    AnyLine,
}

/// One annotation: an error the case expects, or one it tolerates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedError {
    /// Where the error must point.
    pub place: Place,
    /// The error codes it may have (`E0451`), or words its text may
    /// contain instead of having one of them (`"private field"`); both
    /// empty means any code, or none.
    pub codes: Vec<String>,
    /// The words that may stand in for one of `codes` (any one of them).
    pub instead_of_code: Vec<String>,
    /// Words its message must contain (all of them), as written in the case.
    pub keywords: Vec<String>,
    /// `true` for `ERROR` (the case fails without it), `false` for `ALLOW`.
    pub required: bool,
    /// The line of the case file the annotation is written on.
    pub written_on: u32,
}

impl ExpectedError {
    /// Whether an error with this code, on this line, whose text is `text`
    /// (its message, labels and notes), fits the annotation.
    pub fn fits(&self, code: Option<&str>, line: u32, text: &str) -> bool {
        let place_fits = match self.place {
            Place::Line(expected) => expected == line,
            Place::AnyLine => true,
        };
        let code_fits = (self.codes.is_empty() && self.instead_of_code.is_empty())
            || code.is_some_and(|code| self.codes.iter().any(|c| c == code))
            || self
                .instead_of_code
                .iter()
                .any(|word| text.contains(word.as_str()));
        place_fits
            && code_fits
            && self
                .keywords
                .iter()
                .all(|word| text.contains(word.as_str()))
    }
}

impl fmt::Display for ExpectedError {
    /// `E0451 at line 12`, `E0277 mentioning "Rc<String>" on any line`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut alternatives: Vec<String> = self.codes.clone();
        alternatives.extend(
            self.instead_of_code
                .iter()
                .map(|word| format!("an error saying \"{word}\"")),
        );
        if alternatives.is_empty() {
            f.write_str("an error")?;
        } else {
            f.write_str(&alternatives.join(" or "))?;
        }
        for word in &self.keywords {
            write!(f, " mentioning \"{word}\"")?;
        }
        match self.place {
            Place::Line(line) => write!(f, " at line {line}"),
            Place::AnyLine => f.write_str(" on any line"),
        }
    }
}

/// Everything a compile-fail case expects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expectations {
    /// The annotations, in the order they are written.
    pub errors: Vec<ExpectedError>,
}

impl Expectations {
    /// The annotations the case cannot pass without.
    pub fn required(&self) -> impl Iterator<Item = &ExpectedError> {
        self.errors.iter().filter(|error| error.required)
    }

    /// Reads every `//~` annotation of a case file's text.
    pub fn parse(text: &str) -> Result<Expectations, AnnotationError> {
        let mut errors: Vec<ExpectedError> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let written_on = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let Some(start) = line.find("//~") else {
                continue;
            };
            let problem = |what: String| AnnotationError {
                line: written_on,
                problem: what,
            };
            let rest = &line[start + 3..];
            let (place, rest) = parse_place(rest, written_on, errors.last())
                .ok_or_else(|| problem("`//~|` needs an annotation before it".to_owned()))?;
            let place = place.map_err(problem)?;
            let rest = rest.trim_start();
            let (required, rest) = if let Some(rest) = rest.strip_prefix("ERROR") {
                (true, rest)
            } else if let Some(rest) = rest.strip_prefix("ALLOW") {
                (false, rest)
            } else {
                return Err(problem(
                    "an annotation says `ERROR` or `ALLOW` after its place".to_owned(),
                ));
            };
            let (codes, instead_of_code, keywords) = parse_matcher(rest).map_err(problem)?;
            if codes.is_empty() && instead_of_code.is_empty() && keywords.is_empty() {
                return Err(problem(
                    "an annotation names an error code, a quoted word, or both".to_owned(),
                ));
            }
            errors.push(ExpectedError {
                place,
                codes,
                instead_of_code,
                keywords,
                required,
                written_on,
            });
        }
        Ok(Expectations { errors })
    }
}

/// `^`, `^^`, `v`, `|`, `?` or nothing, then the rest of the annotation.
/// `None` when `|` has no annotation before it.
fn parse_place<'a>(
    rest: &'a str,
    line: u32,
    previous: Option<&ExpectedError>,
) -> Option<(Result<Place, String>, &'a str)> {
    let ups = rest.chars().take_while(|&c| c == '^').count();
    let downs = rest.chars().take_while(|&c| c == 'v').count();
    if ups > 0 {
        let place = line
            .checked_sub(ups as u32)
            .filter(|&target| target > 0)
            .map(Place::Line)
            .ok_or_else(|| "`^` points above the first line".to_owned());
        return Some((place, &rest[ups..]));
    }
    if downs > 0 && rest[downs..].starts_with(' ') {
        return Some((Ok(Place::Line(line + downs as u32)), &rest[downs..]));
    }
    if let Some(rest) = rest.strip_prefix('|') {
        return Some((Ok(previous?.place), rest));
    }
    if let Some(rest) = rest.strip_prefix('?') {
        return Some((Ok(Place::AnyLine), rest));
    }
    Some((Ok(Place::Line(line)), rest))
}

/// `E0451|E0616|"words" "other words"` into codes, the words that may
/// stand in for them, and the words every fitting error must contain.
type Matcher = (Vec<String>, Vec<String>, Vec<String>);

fn parse_matcher(text: &str) -> Result<Matcher, String> {
    let mut codes = Vec::new();
    let mut instead = Vec::new();
    let mut keywords = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        // One item: alternatives joined by `|`, each a code or a quoted word.
        let mut alternatives: Vec<Result<String, String>> = Vec::new();
        loop {
            if let Some(quoted) = rest.strip_prefix('"') {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| "a quoted word has no closing `\"`".to_owned())?;
                if end == 0 {
                    return Err("a quoted word is empty".to_owned());
                }
                alternatives.push(Err(quoted[..end].to_owned()));
                rest = &quoted[end + 1..];
            } else {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '|')
                    .unwrap_or(rest.len());
                let code = &rest[..end];
                let valid = code.len() == 5
                    && code.starts_with('E')
                    && code[1..].chars().all(|c| c.is_ascii_digit());
                if !valid {
                    return Err(format!(
                        "`{code}` is not an error code such as E0451 (quote words: \"word\")"
                    ));
                }
                alternatives.push(Ok(code.to_owned()));
                rest = &rest[end..];
            }
            match rest.strip_prefix('|') {
                Some(after) => rest = after,
                None => break,
            }
        }
        rest = rest.trim_start();
        if let [Err(word)] = alternatives.as_slice() {
            keywords.push(word.clone());
            continue;
        }
        if !codes.is_empty() || !instead.is_empty() {
            return Err("an annotation has one list of codes (join them with `|`)".to_owned());
        }
        for alternative in alternatives {
            match alternative {
                Ok(code) => codes.push(code),
                Err(word) => instead.push(word),
            }
        }
    }
    Ok((codes, instead, keywords))
}

/// An annotation that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct AnnotationError {
    /// The line it is written on.
    pub line: u32,
    /// What is wrong with it.
    pub problem: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<ExpectedError> {
        Expectations::parse(text).expect("valid annotations").errors
    }

    /// Each place marker points where it says, and `|` reuses the place of
    /// the annotation before it.
    #[test]
    fn places() {
        let errors = parse(
            "fn main() {\n    let x = 1; //~ ERROR E0308\n    //~^ ERROR E0384\n    //~| ALLOW E0063\n    //~v ERROR E0425\n    y;\n}\n//~? ERROR E0277 \"Rc<u8>\"\n",
        );
        let places: Vec<Place> = errors.iter().map(|error| error.place).collect();
        assert_eq!(
            places,
            [
                Place::Line(2),
                Place::Line(2),
                Place::Line(2),
                Place::Line(6),
                Place::AnyLine
            ]
        );
        assert!(!errors[2].required, "ALLOW is tolerated, not required");
        assert_eq!(errors[4].keywords, ["Rc<u8>"]);
    }

    /// A quoted word among the codes stands in for a code: an error without
    /// a code that says it fits.
    #[test]
    fn words_instead_of_a_code() {
        let errors = parse("x //~ ERROR E0451|E0063|\"private field\"\n");
        let error = &errors[0];
        assert!(error.fits(Some("E0063"), 1, "missing fields"));
        assert!(error.fits(None, 1, "cannot construct `Node` due to private fields"));
        assert!(!error.fits(None, 1, "mismatched types"));
        assert!(!error.fits(Some("E0308"), 1, "mismatched types"));
        assert_eq!(
            error.to_string(),
            "E0451 or E0063 or an error saying \"private field\" at line 1"
        );
        assert!(Expectations::parse("//~ ERROR E0451 E0063\n").is_err());
    }

    /// Alternatives and several keywords are read; an error fits only when
    /// its code, line and every keyword fit.
    #[test]
    fn matching() {
        let errors = parse("x //~ ERROR E0451|E0616 \"private\" \"Node\"\n");
        let error = &errors[0];
        assert_eq!(error.codes, ["E0451", "E0616"]);
        assert!(error.fits(Some("E0616"), 1, "field `key` of struct `Node` is private"));
        assert!(!error.fits(Some("E0616"), 2, "field `key` of struct `Node` is private"));
        assert!(!error.fits(Some("E0308"), 1, "field `key` of struct `Node` is private"));
        assert!(!error.fits(Some("E0451"), 1, "field `key` is private"));
        assert!(!error.fits(None, 1, "private Node"));
        assert_eq!(
            error.to_string(),
            "E0451 or E0616 mentioning \"private\" mentioning \"Node\" at line 1"
        );
    }

    /// Broken annotations are errors with their line, never silently
    /// dropped: a typo must not turn a case into one that expects nothing.
    #[test]
    fn rejects_what_it_cannot_read() {
        for (text, line) in [
            ("a\n//~ EROR E0451\n", 2),
            ("//~ ERROR E451\n", 1),
            ("//~ ERROR\n", 1),
            ("//~| ERROR E0451\n", 1),
            ("//~^ ERROR E0451\n", 1),
            ("//~ ERROR \"open\n", 1),
        ] {
            let error = Expectations::parse(text).expect_err(text);
            assert_eq!(error.line, line, "{text:?}: {error}");
        }
    }
}
