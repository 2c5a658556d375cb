//! A quiz file of the book (`book/quizzes/NAME.toml`, mdbook-quiz 0.5's
//! format), read into what the check needs, and the rules a quiz follows
//! before anything is compiled.
//!
//! A chapter's quiz may be one file, `NAME.toml`, or one file per section,
//! `NAME.SECTION.toml`, each included right after the section it tests.
//! `NAME` (the part before the first dot) says whose crate the programs
//! use: an exercise's, `course` for all of them, or `primer-NAME` for std
//! only. The rules on a whole quiz (how many questions, as many programs
//! that compile as that do not) apply to each page's quizzes together.
//!
//! mdbook-quiz ignores keys it does not know, so the course keeps the part
//! of the answer key that the reader must not see in one such key: a
//! Tracing question whose program does not compile has
//! `answer.annotation`, a `//~` annotation in the syntax of the grading
//! cases (`ci/course/src/expectation.rs`), for its line
//! `answer.lineNumber`, and, when the compiler reports errors on other
//! lines too, `answer.moreAnnotations`, such as `["7: //~ ALLOW E0119"]`.
//! The check appends each to its line and compiles the result, so the
//! program the reader sees and the program the compiler judges differ only
//! by those comments.
//!
//! A Tracing question that does not compile belongs to a multipart group
//! with exactly one "why" question after it: a MultipleChoice question
//! whose prompt shows the same program, and whose every choice starts with
//! the line it blames (`Line 5, E0451: ...`). The check ties the correct
//! choice, and only it, to an error the compiler reports.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// One quiz file.
#[derive(Debug, Clone)]
pub struct Quiz {
    /// Its path.
    pub path: PathBuf,
    /// Its file stem: `NAME` or `NAME.SECTION`, where `NAME` is the
    /// exercise whose crate it uses, `course`, or `primer-NAME`.
    pub name: String,
    /// Its questions, in order.
    pub questions: Vec<Question>,
    /// The shared text of each multipart group.
    pub multipart: BTreeMap<String, String>,
}

/// One question.
#[derive(Debug, Clone)]
pub struct Question {
    /// Its position in the file, from 0.
    pub index: usize,
    /// Its title as the reader sees it: `3`, or `2a` and `2b` in a group.
    pub title: String,
    /// Its `id` (empty when missing, which is a problem).
    pub id: String,
    /// Its multipart group.
    pub multipart: Option<String>,
    /// The explanation shown with the answers.
    pub context: String,
    /// What kind of question, with its prompt and answer.
    pub kind: Kind,
}

/// The kinds of question mdbook-quiz has.
#[derive(Debug, Clone)]
pub enum Kind {
    /// "Does this program compile? If it does, what does it print?"
    Tracing {
        /// The program, exactly as the reader sees it.
        program: String,
        /// The answer.
        answer: Tracing,
    },
    /// Choose among answers.
    MultipleChoice {
        /// The prompt (Markdown).
        prompt: String,
        /// The correct choices.
        answers: Vec<String>,
        /// The wrong choices.
        distractors: Vec<String>,
    },
    /// Type the answer.
    ShortAnswer {
        /// The prompt (Markdown).
        prompt: String,
    },
}

/// The answer of a Tracing question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tracing {
    /// It compiles, runs, succeeds and prints this.
    Compiles {
        /// Its standard output (compared trimmed, as mdbook-quiz does).
        stdout: String,
    },
    /// The compiler rejects it, for the reason the annotation names, at
    /// this line.
    Rejected {
        /// `answer.lineNumber`, from 1.
        line: u32,
        /// `answer.annotation`, such as `//~ ERROR E0451`.
        annotation: String,
        /// `answer.moreAnnotations`: annotations for other lines.
        more: Vec<(u32, String)>,
    },
}

/// What a "why" choice claims: the line the compiler points at, and the
/// error code it gives there (none for an error without a code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The line, from 1.
    pub line: u32,
    /// The code, such as `E0451`.
    pub code: Option<String>,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.code {
            Some(code) => write!(f, "{code} at line {}", self.line),
            None => write!(f, "an error without a code at line {}", self.line),
        }
    }
}

impl Claim {
    /// Reads `Line 5, E0451: ...`: the number after `Line` that starts
    /// the choice, and the first error code written in it.
    pub fn read(choice: &str) -> Option<Claim> {
        let rest = choice.trim_start().strip_prefix("Line ")?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let line = digits.parse().ok()?;
        Some(Claim {
            line,
            code: first_error_code(choice),
        })
    }
}

/// The first `E` followed by four digits that stands alone as a word.
pub fn first_error_code(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|at| {
        let word = bytes.get(at..at + 5)?;
        let alone_before = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        let alone_after = bytes
            .get(at + 5)
            .is_none_or(|next| !next.is_ascii_alphanumeric());
        (word[0] == b'E' && word[1..].iter().all(u8::is_ascii_digit) && alone_before && alone_after)
            .then(|| text[at..at + 5].to_owned())
    })
}

/// A problem with a quiz: a rule it breaks, or an answer the compiler
/// contradicts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The quiz file.
    pub quiz: PathBuf,
    /// The question, as `2a (id ordered-tree/node-literal)`, if the
    /// problem is one question's.
    pub question: Option<String>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.question {
            Some(question) => write!(
                f,
                "{}, question {question}: {}",
                self.quiz.display(),
                self.what
            ),
            None => write!(f, "{}: {}", self.quiz.display(), self.what),
        }
    }
}

impl Question {
    /// `2a (id ordered-tree/node-literal)`.
    pub fn label(&self) -> String {
        if self.id.is_empty() {
            self.title.clone()
        } else {
            format!("{} (id {})", self.title, self.id)
        }
    }

    /// The program of a Tracing question.
    pub fn program(&self) -> Option<&str> {
        match &self.kind {
            Kind::Tracing { program, .. } => Some(program),
            _ => None,
        }
    }

    /// The answer of a Tracing question.
    pub fn tracing(&self) -> Option<&Tracing> {
        match &self.kind {
            Kind::Tracing { answer, .. } => Some(answer),
            _ => None,
        }
    }
}

impl Quiz {
    /// Whose crate its programs use: the part of its name before the
    /// first dot (`send-marker` for `send-marker.spawn`).
    pub fn base(&self) -> &str {
        self.name.split('.').next().unwrap_or(&self.name)
    }

    /// Whether it is one section's quiz (`NAME.SECTION`), which is
    /// counted with the other quizzes of its page.
    pub fn is_section(&self) -> bool {
        self.name.contains('.')
    }

    /// A problem of this quiz, about `question` if given.
    pub fn problem(&self, question: Option<&Question>, what: impl Into<String>) -> Problem {
        Problem {
            quiz: self.path.clone(),
            question: question.map(Question::label),
            what: what.into(),
        }
    }

    /// Reads a quiz file. A file that is not a quiz is one problem.
    pub fn read(path: &Path) -> Result<Quiz, Problem> {
        let problem = |what: String| Problem {
            quiz: path.to_path_buf(),
            question: None,
            what,
        };
        let text = std::fs::read_to_string(path).map_err(|err| problem(format!("{err}")))?;
        let name = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        Quiz::parse(path, &name, &text).map_err(problem)
    }

    /// Parses a quiz's text.
    pub fn parse(path: &Path, name: &str, text: &str) -> Result<Quiz, String> {
        let raw: RawQuiz = toml::from_str(text).map_err(|err| format!("not a quiz: {err}"))?;
        let titles = titles(&raw.questions);
        let mut questions = Vec::new();
        for (index, (question, title)) in raw.questions.into_iter().zip(titles).enumerate() {
            let kind = match question.kind.as_str() {
                "Tracing" => {
                    let program = question.prompt.program.unwrap_or_default();
                    let answer = if question.answer.does_compile.unwrap_or(false) {
                        if question.answer.line_number.is_some()
                            || question.answer.annotation.is_some()
                            || question.answer.more_annotations.is_some()
                        {
                            return Err(format!(
                                "question {title}: a program that compiles has no `lineNumber` or annotations"
                            ));
                        }
                        Tracing::Compiles {
                            stdout: question.answer.stdout.ok_or_else(|| {
                                format!(
                                    "question {title}: a program that compiles needs `answer.stdout`"
                                )
                            })?,
                        }
                    } else {
                        if question.answer.stdout.is_some() {
                            return Err(format!(
                                "question {title}: a program that does not compile has no `stdout`"
                            ));
                        }
                        Tracing::Rejected {
                            line: question.answer.line_number.ok_or_else(|| {
                                format!(
                                    "question {title}: a program that does not compile needs `answer.lineNumber`, the line the compiler points at"
                                )
                            })?,
                            annotation: question.answer.annotation.ok_or_else(|| {
                                format!(
                                    "question {title}: a program that does not compile needs `answer.annotation`, such as \"//~ ERROR E0451\""
                                )
                            })?,
                            more: question
                                .answer
                                .more_annotations
                                .unwrap_or_default()
                                .iter()
                                .map(|entry| {
                                    entry
                                        .split_once(':')
                                        .and_then(|(line, annotation)| {
                                            Some((line.trim().parse().ok()?, annotation.trim().to_owned()))
                                        })
                                        .ok_or_else(|| {
                                            format!(
                                                "question {title}: `{entry}` in `moreAnnotations` is not `LINE: //~ ...`"
                                            )
                                        })
                                })
                                .collect::<Result<_, _>>()?,
                        }
                    };
                    Kind::Tracing { program, answer }
                }
                "MultipleChoice" => Kind::MultipleChoice {
                    prompt: question.prompt.prompt.unwrap_or_default(),
                    answers: match question.answer.answer {
                        Some(Answer::One(answer)) => vec![answer],
                        Some(Answer::Many(answers)) => answers,
                        None => Vec::new(),
                    },
                    distractors: question.prompt.distractors.unwrap_or_default(),
                },
                "ShortAnswer" => Kind::ShortAnswer {
                    prompt: question.prompt.prompt.unwrap_or_default(),
                },
                other => return Err(format!("question {title}: unknown type `{other}`")),
            };
            questions.push(Question {
                index,
                title,
                id: question.id.unwrap_or_default(),
                multipart: question.multipart,
                context: question.context.unwrap_or_default(),
                kind,
            });
        }
        Ok(Quiz {
            path: path.to_path_buf(),
            name: name.to_owned(),
            questions,
            multipart: raw.multipart,
        })
    }

    /// The "why" question that follows a rejected Tracing question: the
    /// next question, when it is a MultipleChoice question of the same
    /// multipart group.
    pub fn follow_up(&self, question: &Question) -> Option<&Question> {
        let next = self.questions.get(question.index + 1)?;
        (next.multipart.is_some()
            && next.multipart == question.multipart
            && matches!(next.kind, Kind::MultipleChoice { .. }))
        .then_some(next)
    }

    /// Whether `question` is the "why" question of the one before it.
    pub fn is_follow_up(&self, question: &Question) -> bool {
        question
            .index
            .checked_sub(1)
            .and_then(|before| self.questions.get(before))
            .is_some_and(|before| {
                matches!(before.tracing(), Some(Tracing::Rejected { .. }))
                    && self
                        .follow_up(before)
                        .is_some_and(|after| after.index == question.index)
            })
    }
}

/// The titles mdbook-quiz shows: consecutive questions of one multipart
/// group share a number and get letters.
fn titles(questions: &[RawQuestion]) -> Vec<String> {
    let mut titles = Vec::new();
    let mut number = 0;
    let mut letter = 0;
    let mut group: Option<&str> = None;
    for question in questions {
        match (&question.multipart, group) {
            (Some(part), Some(current)) if part == current => letter += 1,
            _ => {
                number += 1;
                letter = 0;
            }
        }
        group = question.multipart.as_deref();
        titles.push(match group {
            Some(_) => format!("{number}{}", char::from(b'a' + letter.min(25) as u8)),
            None => number.to_string(),
        });
    }
    titles
}

#[derive(Deserialize)]
struct RawQuiz {
    questions: Vec<RawQuestion>,
    #[serde(default)]
    multipart: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct RawQuestion {
    #[serde(rename = "type")]
    kind: String,
    id: Option<String>,
    multipart: Option<String>,
    prompt: RawPrompt,
    answer: RawAnswer,
    context: Option<String>,
}

#[derive(Deserialize)]
struct RawPrompt {
    program: Option<String>,
    prompt: Option<String>,
    distractors: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawAnswer {
    does_compile: Option<bool>,
    stdout: Option<String>,
    line_number: Option<u32>,
    annotation: Option<String>,
    more_annotations: Option<Vec<String>>,
    answer: Option<Answer>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Answer {
    One(String),
    Many(Vec<String>),
}

/// How many questions a quiz may have: a chapter's quiz 5 to 8, the
/// course's (its closing chapter's) up to 12. Each part of a multipart
/// group counts, as in the quiz's header. A page's section quizzes count
/// together.
pub fn question_range(quiz: &Quiz) -> std::ops::RangeInclusive<usize> {
    if quiz.base() == COURSE_QUIZ {
        5..=12
    } else {
        5..=8
    }
}

/// The file stem of the quiz across the whole course.
pub const COURSE_QUIZ: &str = "course";

/// The rules on a whole quiz, for the quizzes one page includes: as many
/// questions as `question_range` allows, and the programs that compile
/// and those that do not equal in number. `quizzes` is not
/// empty; problems are reported on the first.
pub fn lint_together(page: &str, quizzes: &[&Quiz]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(first) = quizzes.first() else {
        return problems;
    };
    let range = question_range(first);
    let questions: usize = quizzes.iter().map(|quiz| quiz.questions.len()).sum();
    let (mut rejected, mut compiled) = (0_usize, 0_usize);
    for question in quizzes.iter().flat_map(|quiz| &quiz.questions) {
        match question.tracing() {
            Some(Tracing::Rejected { .. }) => rejected += 1,
            Some(Tracing::Compiles { .. }) => compiled += 1,
            None => {}
        }
    }
    let whose = if quizzes.len() == 1 && !first.is_section() {
        String::new()
    } else if quizzes.len() == 1 {
        format!(" (the only quiz of {page})")
    } else {
        format!(" (the {} quizzes of {page} together)", quizzes.len())
    };
    if !range.contains(&questions) {
        problems.push(first.problem(
            None,
            format!(
                "{questions} questions{whose}; a quiz of this kind has {} to {}",
                range.start(),
                range.end()
            ),
        ));
    }
    // As many programs compile as do not, so that "it does not
    // compile" is not a safe guess.
    if rejected != compiled {
        problems.push(first.problem(
            None,
            format!(
                "{compiled} programs compile and {rejected} do not{whose}: make the two equal, so that neither answer is a safe guess"
            ),
        ));
    }
    problems
}

/// Everything wrong with a quiz that shows before compiling anything. A
/// section's quiz is counted with the rest of its page (`lint_together`).
pub fn lint(quiz: &Quiz) -> Vec<Problem> {
    let mut problems = Vec::new();
    if !quiz.is_section() {
        problems.extend(lint_together(&format!("{}.toml", quiz.name), &[quiz]));
    }
    // Every answer is judged by the compiler: each question is a program
    // (a Tracing question) or the "why" question of a rejected one.
    for question in &quiz.questions {
        if question.program().is_none() && !quiz.is_follow_up(question) {
            problems.push(quiz.problem(
                Some(question),
                "no program backs its answer: a question is a Tracing question, or the \"why\" question right after a program that does not compile, so that the check judges every answer",
            ));
        }
    }
    for group in quiz.multipart.keys() {
        if !quiz
            .questions
            .iter()
            .any(|question| question.multipart.as_deref() == Some(group))
        {
            problems.push(quiz.problem(None, format!("multipart `{group}` has no question")));
        }
    }
    for question in &quiz.questions {
        let mut problem = |what: String| problems.push(quiz.problem(Some(question), what));
        if question.id.trim().is_empty() {
            problem("no `id`: mdbook-quiz would write a random one into the file".to_owned());
        }
        if question.context.trim().is_empty() {
            problem("no `context`: every question explains its answer".to_owned());
        }
        if let Some(group) = &question.multipart
            && !quiz.multipart.contains_key(group)
        {
            problem(format!(
                "its multipart group `{group}` is not in `[multipart]`"
            ));
        }
        match &question.kind {
            Kind::Tracing { program, answer } => {
                for what in program_problems(program) {
                    problem(what);
                }
                if let Tracing::Rejected {
                    line,
                    annotation,
                    more,
                } = answer
                {
                    let lines = program.lines().count();
                    if *line == 0 || *line as usize > lines {
                        problem(format!(
                            "`lineNumber` is {line}, but the program has {lines} lines"
                        ));
                    }
                    let mut annotated_lines = vec![*line];
                    for (other, annotation) in more {
                        if *other == 0 || *other as usize > lines {
                            problem(format!(
                                "`moreAnnotations` names line {other}, but the program has {lines} lines"
                            ));
                        }
                        if annotated_lines.contains(other) {
                            problem(format!(
                                "two annotations for line {other}: a line holds one"
                            ));
                        }
                        annotated_lines.push(*other);
                        if !annotation.starts_with("//~ ") {
                            problem(format!(
                                "`{annotation}` in `moreAnnotations` is a `//~ ERROR` or `//~ ALLOW` annotation for its line"
                            ));
                        }
                    }
                    let valid = annotation
                        .strip_prefix("//~ ")
                        .is_some_and(|rest| rest.trim_start().starts_with("ERROR"));
                    if !valid {
                        problem(format!(
                            "`annotation` is `{annotation}`; it is a `//~ ERROR ...` annotation for the line `lineNumber`"
                        ));
                    }
                    match quiz.follow_up(question) {
                        None => problem(
                            "a program that does not compile is followed by its \"why\" question: a MultipleChoice question of the same multipart group"
                                .to_owned(),
                        ),
                        Some(why) => {
                            for what in follow_up_problems(program, why) {
                                problems.push(quiz.problem(Some(why), what));
                            }
                        }
                    }
                }
            }
            Kind::MultipleChoice {
                prompt,
                answers,
                distractors,
            } => {
                if answers.is_empty() || distractors.is_empty() {
                    problem("a multiple-choice question has an answer and distractors".to_owned());
                }
                let bullets = question
                    .context
                    .lines()
                    .filter(|line| {
                        let line = line.trim_start();
                        line.starts_with("- ") || line.starts_with("* ")
                    })
                    .count();
                if bullets < distractors.len() {
                    problem(format!(
                        "its context has {bullets} list items for {} wrong choices: each wrong choice gets its explanation",
                        distractors.len()
                    ));
                }
                for block in rust_blocks(prompt) {
                    for what in program_problems(&block) {
                        problem(format!("a code block of the prompt: {what}"));
                    }
                }
            }
            Kind::ShortAnswer { .. } => {}
        }
    }
    problems
}

/// The rules of the "why" question that follows a rejected program.
fn follow_up_problems(program: &str, why: &Question) -> Vec<String> {
    let mut problems = Vec::new();
    let Kind::MultipleChoice {
        prompt,
        answers,
        distractors,
    } = &why.kind
    else {
        return problems;
    };
    if !rust_blocks(prompt)
        .iter()
        .any(|block| block.trim_end() == program.trim_end())
    {
        problems.push(
            "its prompt shows the program of the question before it, unchanged, in a ```rust block"
                .to_owned(),
        );
    }
    if answers.len() != 1 {
        problems.push("it has exactly one correct choice".to_owned());
    }
    for choice in answers.iter().chain(distractors) {
        if Claim::read(choice).is_none() {
            problems.push(format!(
                "the choice `{choice}` does not start with the line it blames (`Line 5, E0451: ...`)"
            ));
        }
    }
    let context = why.context.to_lowercase();
    for choice in distractors {
        if let Some(claim) = Claim::read(choice) {
            let named = match &claim.code {
                Some(code) => context.contains(&code.to_lowercase()),
                None => context.contains(&format!("line {}", claim.line)),
            };
            if !named {
                problems.push(format!(
                    "its context does not explain the wrong choice `{choice}` (it names neither its code nor its line)"
                ));
            }
        }
    }
    problems
}

/// What would make a program render or compile other than as written.
fn program_problems(program: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if program.trim().is_empty() {
        problems.push("the program is empty".to_owned());
        return problems;
    }
    if program.starts_with(char::is_whitespace) {
        problems.push(
            "the program starts with white space: mdbook-quiz trims it, and the line numbers would move"
                .to_owned(),
        );
    }
    if program.contains("//~") {
        problems.push(
            "the program contains `//~`: annotations go in `answer.annotation`, where the reader does not see them"
                .to_owned(),
        );
    }
    for marker in ["`[", "]`"] {
        if program.contains(marker) {
            problems.push(format!(
                "the program contains `{marker}`, which mdbook-quiz draws as a highlight mark"
            ));
        }
    }
    if let Some(entity) = entity_hazard(program) {
        problems.push(format!(
            "the program contains `&{entity}`, which the browser would show as an HTML character (mdbook-quiz escapes only `<` and `>`)"
        ));
    }
    problems
}

/// The HTML character references that a browser decodes even without
/// their `;` (the HTML standard's legacy names).
const LEGACY_ENTITIES: &[&str] = &[
    "AElig", "AMP", "Aacute", "Acirc", "Agrave", "Aring", "Atilde", "Auml", "COPY", "Ccedil",
    "ETH", "Eacute", "Ecirc", "Egrave", "Euml", "GT", "Iacute", "Icirc", "Igrave", "Iuml", "LT",
    "Ntilde", "Oacute", "Ocirc", "Ograve", "Oslash", "Otilde", "Ouml", "QUOT", "REG", "THORN",
    "Uacute", "Ucirc", "Ugrave", "Uuml", "Yacute", "aacute", "acirc", "acute", "aelig", "agrave",
    "amp", "aring", "atilde", "auml", "brvbar", "ccedil", "cedil", "cent", "copy", "curren", "deg",
    "divide", "eacute", "ecirc", "egrave", "eth", "euml", "frac12", "frac14", "frac34", "gt",
    "iacute", "icirc", "iexcl", "igrave", "iquest", "iuml", "laquo", "lt", "macr", "micro",
    "middot", "nbsp", "not", "ntilde", "oacute", "ocirc", "ograve", "ordf", "ordm", "oslash",
    "otilde", "ouml", "para", "plusmn", "pound", "quot", "raquo", "reg", "sect", "shy", "sup1",
    "sup2", "sup3", "szlig", "thorn", "times", "uacute", "ucirc", "ugrave", "uml", "uuml",
    "yacute", "yen", "yuml",
];

/// The first `&name` in `text` that a browser would decode as a character.
fn entity_hazard(text: &str) -> Option<&'static str> {
    text.match_indices('&').find_map(|(at, _)| {
        let after = &text[at + 1..];
        LEGACY_ENTITIES
            .iter()
            .copied()
            .filter(|name| after.starts_with(name))
            .max_by_key(|name| name.len())
    })
}

/// The code of every ```` ```rust ```` block of a Markdown text.
pub fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in markdown.lines() {
        let fence = line.trim_start();
        match &mut current {
            None => {
                if let Some(info) = fence.strip_prefix("```")
                    && info.split(',').next().map(str::trim) == Some("rust")
                {
                    current = Some(Vec::new());
                }
            }
            Some(lines) => {
                if fence.starts_with("```") {
                    let mut code = lines.join("\n");
                    code.push('\n');
                    blocks.push(code);
                    current = None;
                } else {
                    lines.push(line);
                }
            }
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiz(text: &str) -> Quiz {
        Quiz::parse(Path::new("q.toml"), "ordered-tree", text).expect("a quiz")
    }

    const GOOD: &str = r#"
[multipart]
literal = "One program, two questions."

[[questions]]
id = "t/literal"
multipart = "literal"
type = "Tracing"
prompt.program = """
fn main() {
    let x: u8 = "no";
}
"""
answer.doesCompile = false
answer.lineNumber = 2
answer.annotation = "//~ ERROR E0308"
context = "A `&str` is not a `u8`."

[[questions]]
id = "t/literal-why"
multipart = "literal"
type = "MultipleChoice"
prompt.prompt = """
Where and why?

```rust
fn main() {
    let x: u8 = "no";
}
```
"""
prompt.distractors = ["Line 1, E0601: no `main`"]
answer.answer = "Line 2, E0308: mismatched types"
context = """
Line 2 assigns text to a number.
- E0601 would mean there is no `main`, and there is one.
"""

[[questions]]
id = "t/prints"
type = "Tracing"
prompt.program = """
fn main() {
    println!("hi");
}
"""
answer.doesCompile = true
answer.stdout = "hi"
context = "It prints."
"#;

    /// Titles follow mdbook-quiz's numbering: parts of one group share a
    /// number and get letters; the rest are numbered on.
    #[test]
    fn titles_and_answers() {
        let quiz = quiz(GOOD);
        let titles: Vec<&str> = quiz.questions.iter().map(|q| q.title.as_str()).collect();
        assert_eq!(titles, ["1a", "1b", "2"]);
        assert_eq!(
            quiz.questions[0].tracing(),
            Some(&Tracing::Rejected {
                line: 2,
                annotation: "//~ ERROR E0308".to_owned(),
                more: Vec::new(),
            })
        );
        assert_eq!(quiz.follow_up(&quiz.questions[0]).map(|q| q.index), Some(1));
        assert!(quiz.is_follow_up(&quiz.questions[1]));
        assert!(!quiz.is_follow_up(&quiz.questions[2]));
    }

    /// A well-formed quiz breaks no rule but its size (3 questions).
    #[test]
    fn a_good_quiz_only_lacks_questions() {
        let problems = lint(&quiz(GOOD));
        let what: Vec<&str> = problems.iter().map(|p| p.what.as_str()).collect();
        assert_eq!(what, ["3 questions; a quiz of this kind has 5 to 8"]);
    }

    /// Each rule catches what it is about: a missing id, a follow-up whose
    /// program differs, a choice without its line, a wrong choice the
    /// context does not explain, an annotation in the program.
    #[test]
    fn rules() {
        let broken = GOOD
            .replace("id = \"t/prints\"\n", "")
            .replace(
                "    let x: u8 = \"no\";\n}\n```",
                "    let x: u8 = \"yes\";\n}\n```",
            )
            .replace("\"Line 1, E0601: no `main`\"", "\"E0599: no method\"")
            .replace("println!(\"hi\");", "println!(\"hi\"); //~ ERROR E0000");
        let problems = lint(&quiz(&broken));
        let what: Vec<String> = problems.iter().map(ToString::to_string).collect();
        let has = |part: &str| what.iter().any(|line| line.contains(part));
        assert!(has("question 2: no `id`"), "{what:#?}");
        assert!(
            has("question 1b (id t/literal-why): its prompt shows the program"),
            "{what:#?}"
        );
        assert!(has("does not start with the line it blames"), "{what:#?}");
        assert!(has("contains `//~`"), "{what:#?}");
        let unexplained = GOOD.replace("- E0601 would mean", "- It would mean");
        let problems = lint(&quiz(&unexplained));
        assert!(
            problems
                .iter()
                .any(|p| p.what.contains("does not explain the wrong choice")),
            "{problems:#?}"
        );
    }

    /// A question with no program is refused, and so is a quiz whose
    /// programs mostly compile or mostly do not.
    #[test]
    fn every_answer_is_backed_by_a_program() {
        let free = format!(
            "{GOOD}\n[[questions]]\nid = \"t/free\"\ntype = \"MultipleChoice\"\nprompt.prompt = \"Which?\"\nprompt.distractors = [\"b\"]\nanswer.answer = \"a\"\ncontext = \"\"\"\nBecause.\n- Not b.\n\"\"\"\n"
        );
        let problems = lint(&quiz(&free));
        assert!(
            problems
                .iter()
                .any(|p| p.question.as_deref() == Some("3 (id t/free)")
                    && p.what.contains("no program backs its answer")),
            "{problems:#?}"
        );
        let lopsided = GOOD.replace(
            "answer.doesCompile = true\nanswer.stdout = \"hi\"\n",
            "answer.doesCompile = false\nanswer.lineNumber = 2\nanswer.annotation = \"//~ ERROR E0425\"\n",
        );
        let lopsided = format!(
            "{lopsided}{}",
            &GOOD[GOOD.find("[[questions]]").unwrap()
                ..GOOD.find("[[questions]]\nid = \"t/prints\"").unwrap()]
                .replace("t/literal", "t/again")
        );
        let problems = lint(&quiz(&lopsided));
        assert!(
            problems
                .iter()
                .any(|p| p.what.contains("0 programs compile and 3 do not")),
            "{problems:#?}"
        );
    }

    /// A section's quiz is not counted alone: its page's quizzes are
    /// counted together, so three small quizzes make one chapter's quiz.
    #[test]
    fn section_quizzes_count_together() {
        let section = |name: &str| Quiz::parse(Path::new("q.toml"), name, GOOD).expect("a quiz");
        let one = section("ordered-tree.enforcement");
        assert!(one.is_section());
        assert_eq!(one.base(), "ordered-tree");
        assert!(lint(&one).is_empty(), "{:#?}", lint(&one));
        let alone = lint_together("book/src/ordered-tree.md", &[&one]);
        let what: Vec<&str> = alone.iter().map(|p| p.what.as_str()).collect();
        assert_eq!(
            what,
            [
                "3 questions (the only quiz of book/src/ordered-tree.md); a quiz of this kind has 5 to 8"
            ]
        );
        let two = section("ordered-tree.consumption");
        assert!(lint_together("book/src/ordered-tree.md", &[&one, &two]).is_empty());
        let three = section("ordered-tree.more");
        let lopsided = lint_together("book/src/ordered-tree.md", &[&one, &two, &three]);
        assert!(
            lopsided.iter().any(|p| p.what.contains("9 questions")),
            "{lopsided:#?}"
        );
    }

    /// A rejected program must say where and why; a compiling one, what
    /// it prints.
    #[test]
    fn answers_are_complete() {
        let no_line = GOOD.replace("answer.lineNumber = 2\n", "");
        assert!(
            Quiz::parse(Path::new("q.toml"), "x", &no_line)
                .is_err_and(|err| err.contains("lineNumber"))
        );
        let no_stdout = GOOD.replace("answer.stdout = \"hi\"\n", "");
        assert!(
            Quiz::parse(Path::new("q.toml"), "x", &no_stdout)
                .is_err_and(|err| err.contains("stdout"))
        );
    }

    /// Claims read the line and the first stand-alone error code.
    #[test]
    fn claims() {
        assert_eq!(
            Claim::read("Line 12, E0451: private"),
            Some(Claim {
                line: 12,
                code: Some("E0451".to_owned())
            })
        );
        assert_eq!(
            Claim::read("Line 3: lifetime may not live long enough"),
            Some(Claim {
                line: 3,
                code: None
            })
        );
        assert_eq!(Claim::read("E0451 on line 3"), None);
        assert_eq!(
            first_error_code("XE0451 E04512 (E0599)"),
            Some("E0599".to_owned())
        );
    }

    /// `&param` would show as `¶m`; `&mut` and `&self` are safe.
    #[test]
    fn entities() {
        assert_eq!(entity_hazard("f(&params)"), Some("para"));
        assert_eq!(entity_hazard("f(&notes, &copy)"), Some("not"));
        assert_eq!(entity_hazard("g(&mut x, &self, &items)"), None);
    }
}
