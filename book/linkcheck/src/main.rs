//! `xsafe-book-linkcheck BOOK_DIR [--site-url PREFIX] [--report FILE]`
//!
//! Checks every internal link and anchor of the book that mdBook built in
//! `BOOK_DIR` and exits with 1 if one is broken. External links are not
//! fetched: they are counted, and listed in `FILE` when `--report` is given.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut book = None;
    let mut site_prefix = String::from("/");
    let mut report_file = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--site-url" => site_prefix = args.next().unwrap_or_default(),
            "--report" => report_file = args.next().map(PathBuf::from),
            _ if book.is_none() => book = Some(PathBuf::from(arg)),
            other => {
                eprintln!("unexpected argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(book) = book else {
        eprintln!("usage: xsafe-book-linkcheck BOOK_DIR [--site-url PREFIX] [--report FILE]");
        return ExitCode::from(2);
    };
    let pages = match xsafe_book_linkcheck::read_pages(&book) {
        Ok(pages) if !pages.is_empty() => pages,
        Ok(_) => {
            eprintln!("no HTML pages in {}: build the book first", book.display());
            return ExitCode::from(2);
        }
        Err(error) => {
            eprintln!("cannot read {}: {error}", book.display());
            return ExitCode::from(2);
        }
    };
    let report =
        xsafe_book_linkcheck::check(&pages, &site_prefix, |file| book.join(file).is_file());
    if let Some(path) = &report_file {
        let mut text = String::from("# External links of the book (not checked offline)\n\n");
        for (url, on) in &report.external {
            let on: Vec<_> = on.iter().map(|p| p.display().to_string()).collect();
            let _ = writeln!(text, "{url}\t{}", on.join(" "));
        }
        if let Err(error) = std::fs::write(path, text) {
            eprintln!("cannot write {}: {error}", path.display());
            return ExitCode::from(2);
        }
    }
    for problem in &report.problems {
        println!(
            "{}: {}: {}",
            problem.page.display(),
            problem.link,
            problem.why
        );
    }
    let listed = report_file.map_or(String::new(), |path| {
        format!(", listed in {}", path.display())
    });
    println!(
        "{} pages, {} internal links and anchors checked, {} broken; {} external links not checked{listed}",
        report.pages,
        report.internal_links,
        report.problems.len(),
        report.external.len(),
    );
    if report.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
