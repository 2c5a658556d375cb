//! The verdict of a compile-fail case, from the compiler's structured
//! diagnostics.
//!
//! **Invariant**: a compile-fail case passes only when the compiler,
//! compiling the case against the crate under test in a build where no
//! learner code runs, reports every error the case's `//~ ERROR`
//! annotations require, each error it reports points into the case file
//! (directly or through the macro call there that produced it) and fits
//! an annotation, and the case did not compile. The verdict reads codes,
//! lines and message words from cargo's JSON; rendered text is only shown.

use crate::build::is_error;
use crate::outcome::{CaseOutcome, Status};
use cargo_metadata::diagnostic::{Diagnostic, DiagnosticLevel, DiagnosticSpan};
use std::path::Path;
use xsafe_course::Expectations;

/// One error the compiler reported for a case, reduced to what the
/// verdict reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedError {
    /// Its code, such as `E0451`.
    pub code: Option<String>,
    /// The line of the case file it points at, or `None` when it points
    /// outside the case file.
    pub line: Option<u32>,
    /// Where it points when that is outside the case file (`file:line`).
    pub elsewhere: Option<String>,
    /// Its message, labels and notes: what keywords are looked for in.
    pub text: String,
}

impl ReportedError {
    /// Reads one diagnostic of a case compiled from `case_file`;
    /// relative file names are relative to `workspace`.
    pub fn read(diagnostic: &Diagnostic, case_file: &Path, workspace: &Path) -> ReportedError {
        let in_case = |span: &DiagnosticSpan| {
            let file = Path::new(&span.file_name);
            let file = if file.is_absolute() {
                file.to_path_buf()
            } else {
                workspace.join(file)
            };
            file == case_file
                || file
                    .canonicalize()
                    .is_ok_and(|file| case_file.canonicalize().is_ok_and(|case| case == file))
        };
        let primary = diagnostic
            .spans
            .iter()
            .find(|span| span.is_primary)
            .or(diagnostic.spans.first());
        // The span itself, then the macro calls it was expanded from,
        // innermost first: the first one in the case file is where the
        // case's code caused the error.
        let mut line = None;
        let mut next = primary;
        while let Some(span) = next {
            if in_case(span) {
                line = u32::try_from(span.line_start).ok();
                break;
            }
            next = span.expansion.as_ref().map(|expansion| &expansion.span);
        }
        let elsewhere = match (line, primary) {
            (None, Some(span)) => Some(format!("{}:{}", span.file_name, span.line_start)),
            (None, None) => Some("no place in any file".to_owned()),
            _ => None,
        };
        let mut text = String::new();
        collect_text(diagnostic, &mut text);
        ReportedError {
            code: diagnostic.code.as_ref().map(|code| code.code.clone()),
            line,
            elsewhere,
            text,
        }
    }

    /// `E0308 at line 5`, `an error without a code in src/lib.rs:3`.
    pub fn describe(&self) -> String {
        let code = self.code.as_deref().unwrap_or("an error without a code");
        match (self.line, &self.elsewhere) {
            (Some(line), _) => format!("{code} at line {line}"),
            (None, Some(place)) => format!("{code} in {place}, outside the case file"),
            (None, None) => code.to_owned(),
        }
    }
}

/// A diagnostic's message, its spans' labels and its children's, one per
/// line: the words a case's keywords are looked for in. The quoted source
/// lines are left out: they would always contain the case's own words.
fn collect_text(diagnostic: &Diagnostic, text: &mut String) {
    text.push_str(&diagnostic.message);
    text.push('\n');
    for span in &diagnostic.spans {
        if let Some(label) = &span.label {
            text.push_str(label);
            text.push('\n');
        }
    }
    for child in &diagnostic.children {
        collect_text(child, text);
    }
}

/// The verdict of a compile-fail case.
///
/// `diagnostics` are the compiler's messages for the case's target;
/// `compiled` says whether the target was built. `show` turns paths in the
/// rendered diagnostics into the paths the reader knows.
pub fn verdict(
    expectations: &Expectations,
    diagnostics: &[&Diagnostic],
    compiled: bool,
    case_file: &Path,
    workspace: &Path,
    show: &dyn Fn(&str) -> String,
) -> CaseOutcome {
    let rendered: String = diagnostics
        .iter()
        .filter(|diagnostic| is_error(diagnostic))
        .filter_map(|diagnostic| diagnostic.rendered.as_deref())
        .map(show)
        .collect::<Vec<_>>()
        .join("\n");
    if diagnostics
        .iter()
        .any(|diagnostic| diagnostic.level == DiagnosticLevel::Ice)
    {
        return CaseOutcome::new(
            Status::Stopped(
                "the compiler crashed on this case (an internal compiler error)".to_owned(),
            ),
            rendered,
        );
    }
    let expected: Vec<String> = expectations.required().map(ToString::to_string).collect();
    if compiled {
        return CaseOutcome::new(
            Status::Failed(format!(
                "expected {}, but the program compiled",
                expected.join(" and ")
            )),
            String::new(),
        );
    }
    let errors: Vec<ReportedError> = diagnostics
        .iter()
        .filter(|diagnostic| is_error(diagnostic))
        .map(|diagnostic| ReportedError::read(diagnostic, case_file, workspace))
        .collect();
    let fits = |annotation: &xsafe_course::ExpectedError, error: &ReportedError| {
        error
            .line
            .is_some_and(|line| annotation.fits(error.code.as_deref(), line, &error.text))
    };
    let missing: Vec<String> = expectations
        .required()
        .filter(|annotation| !errors.iter().any(|error| fits(annotation, error)))
        .map(ToString::to_string)
        .collect();
    let unexpected: Vec<String> = errors
        .iter()
        .filter(|error| {
            !expectations
                .errors
                .iter()
                .any(|annotation| fits(annotation, error))
        })
        .map(ReportedError::describe)
        .collect();
    if missing.is_empty() && unexpected.is_empty() {
        return CaseOutcome::passed();
    }
    let got = if errors.is_empty() {
        "no error".to_owned()
    } else {
        let mut got: Vec<String> = errors.iter().take(3).map(ReportedError::describe).collect();
        if errors.len() > 3 {
            got.push(format!("{} more", errors.len() - 3));
        }
        got.join(", ")
    };
    let reason = if missing.is_empty() {
        format!(
            "rejected for another reason too: {} (the case expects {})",
            unexpected.join(", "),
            expected.join(" and ")
        )
    } else {
        format!("expected {}; got {got}", missing.join(" and "))
    };
    CaseOutcome::new(Status::Failed(reason), rendered)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(json: &str) -> Diagnostic {
        serde_json::from_str(json).expect("a diagnostic")
    }

    fn error(code: &str, file: &str, line: u32, message: &str) -> Diagnostic {
        diagnostic(&format!(
            r#"{{"message":"{message}","code":{{"code":"{code}","explanation":null}},"level":"error","spans":[{{"file_name":"{file}","byte_start":0,"byte_end":1,"line_start":{line},"line_end":{line},"column_start":1,"column_end":2,"is_primary":true,"text":[],"label":"private field","suggested_replacement":null,"suggestion_applicability":null,"expansion":null}}],"children":[],"rendered":"error[{code}]: {message}"}}"#
        ))
    }

    fn judge(annotations: &str, errors: &[Diagnostic], compiled: bool) -> Status {
        let expectations = Expectations::parse(annotations).expect("annotations");
        let refs: Vec<&Diagnostic> = errors.iter().collect();
        verdict(
            &expectations,
            &refs,
            compiled,
            Path::new("/c/case.rs"),
            Path::new("/w"),
            &|text| text.to_owned(),
        )
        .status
    }

    /// The expected error passes; the same error on another line, with
    /// another code, or in another file does not; neither does a program
    /// that compiled.
    #[test]
    fn verdicts() {
        let ann = "a\nb //~ ERROR E0451\n";
        assert_eq!(
            judge(ann, &[error("E0451", "/c/case.rs", 2, "private")], false),
            Status::Passed
        );
        let failed = |status: Status| matches!(status, Status::Failed(_));
        assert!(failed(judge(
            ann,
            &[error("E0451", "/c/case.rs", 3, "x")],
            false
        )));
        assert!(failed(judge(
            ann,
            &[error("E0308", "/c/case.rs", 2, "x")],
            false
        )));
        assert!(failed(judge(
            ann,
            &[error("E0451", "/c/lib.rs", 2, "x")],
            false
        )));
        assert_eq!(
            judge(ann, &[], true),
            Status::Failed("expected E0451 at line 2, but the program compiled".to_owned())
        );
    }

    /// An error beside the expected one fails the case unless an `ALLOW`
    /// annotation tolerates it; a relative file name is read from the
    /// workspace; two errors fitting one annotation are fine.
    #[test]
    fn extra_errors() {
        let two = [
            error("E0451", "/c/case.rs", 2, "private"),
            error("E0063", "/c/case.rs", 2, "missing"),
        ];
        assert_eq!(
            judge("\nb //~ ERROR E0451\n", &two, false),
            Status::Failed(
                "rejected for another reason too: E0063 at line 2 (the case expects E0451 at line 2)"
                    .to_owned()
            )
        );
        assert_eq!(
            judge("\nb //~ ERROR E0451\n//~^ ALLOW E0063\n", &two, false),
            Status::Passed
        );
        let relative = [
            error("E0451", "../c/case.rs", 2, "a"),
            error("E0451", "/c/case.rs", 2, "b"),
        ];
        // `/w/../c/case.rs` is not canonical here, so it does not count.
        assert!(matches!(
            judge("\nb //~ ERROR E0451\n", &relative, false),
            Status::Failed(_)
        ));
    }

    /// Keywords are looked for in the message and labels, never in the
    /// quoted source.
    #[test]
    fn keywords() {
        let errors = [error(
            "E0277",
            "/c/case.rs",
            5,
            "`Rc<String>` cannot be sent",
        )];
        assert_eq!(
            judge("//~? ERROR E0277 \"Rc<String>\"\n", &errors, false),
            Status::Passed
        );
        assert!(matches!(
            judge("//~? ERROR E0277 \"Cell\"\n", &errors, false),
            Status::Failed(_)
        ));
        assert_eq!(
            judge("//~? ERROR E0277 \"private field\"\n", &errors, false),
            Status::Passed,
            "span labels count"
        );
    }

    /// An error inside a macro's expansion counts at the macro call in the
    /// case file.
    #[test]
    fn macro_expansions() {
        let inner = r#"{"message":"conflicting implementations","code":{"code":"E0119","explanation":null},"level":"error","spans":[{"file_name":"/src/lib.rs","byte_start":0,"byte_end":1,"line_start":40,"line_end":40,"column_start":1,"column_end":2,"is_primary":true,"text":[],"label":null,"suggested_replacement":null,"suggestion_applicability":null,"expansion":{"span":{"file_name":"/c/case.rs","byte_start":0,"byte_end":1,"line_start":7,"line_end":7,"column_start":1,"column_end":2,"is_primary":false,"text":[],"label":null,"suggested_replacement":null,"suggestion_applicability":null,"expansion":null},"macro_decl_name":"impl_lock_after!","def_site_span":null}}],"children":[],"rendered":null}"#;
        assert_eq!(
            judge(
                "\n\n\n\n\n\nx //~ ERROR E0119\n",
                &[diagnostic(inner)],
                false
            ),
            Status::Passed
        );
    }
}
