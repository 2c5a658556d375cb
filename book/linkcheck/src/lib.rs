//! Checks the links inside a book that mdBook has built, offline.
//!
//! Every `href` and `src` of every HTML page is resolved against the page
//! (or against its `<base href>`, as 404.html has one): a link to another
//! page of the book must name a file that exists, and its `#fragment` an
//! `id` on that page. Links that leave the book (`https:`, `mailto:`, ...)
//! are not fetched; they are collected for a report.
//!
//! The scanner reads attributes with plain string search, which is enough
//! for the HTML mdBook writes (quoted attributes, no comments that hold
//! links), and has no dependencies.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// One attribute value found in a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attr {
    /// The attribute's name, such as `href`.
    pub name: String,
    /// Its value, with the entities mdBook writes decoded.
    pub value: String,
}

/// Every value of the attributes named `names`, in order, from `html`.
/// Values must be quoted with `"` or `'`, as mdBook writes them.
pub fn attributes(html: &str, names: &[&str]) -> Vec<Attr> {
    let mut found = Vec::new();
    let bytes = html.as_bytes();
    let mut at = 0;
    while let Some(offset) = html[at..].find('=') {
        let eq = at + offset;
        at = eq + 1;
        // The attribute name: the word just before `=`, after whitespace.
        let before = &html[..eq];
        let name_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &before[name_start..];
        if name_start == 0 || !bytes[name_start - 1].is_ascii_whitespace() {
            continue;
        }
        if !names.iter().any(|wanted| wanted.eq_ignore_ascii_case(name)) {
            continue;
        }
        let Some(&quote) = bytes.get(eq + 1) else {
            break;
        };
        if quote != b'"' && quote != b'\'' {
            continue;
        }
        let value_start = eq + 2;
        let Some(len) = html[value_start..].find(quote as char) else {
            break;
        };
        found.push(Attr {
            name: name.to_ascii_lowercase(),
            value: decode_entities(&html[value_start..value_start + len]),
        });
        at = value_start + len + 1;
    }
    found
}

/// Decodes the entities that appear in URLs and ids (`&amp;`, `&quot;`,
/// `&#39;`, `&lt;`, `&gt;`).
pub fn decode_entities(value: &str) -> String {
    value
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Decodes `%XX` escapes (anchors of headings with non-ASCII text).
pub fn percent_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok());
        if bytes[i] == b'%'
            && let Some(byte) = hex.and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What a link is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Leaves the book: `https://...`, `mailto:...`, `//host/...`.
    External(String),
    /// A file of the book (relative to the book's root, normalised) and an
    /// optional fragment.
    Internal {
        /// The target file, relative to the book's root.
        file: PathBuf,
        /// The `#fragment`, if any, percent-decoded.
        fragment: Option<String>,
    },
    /// Goes nowhere to check: `#`, `javascript:`, `data:`, an empty value.
    Ignored,
    /// A relative link that climbs out of the book's root.
    OutsideBook(String),
}

/// Classifies `value`, found on the page `page` (relative to the book's
/// root). `base` is the page's `<base href>` after the site's path prefix
/// was taken off (`Some("")` for the book's root), if it has one.
pub fn classify(value: &str, page: &Path, base: Option<&str>) -> Link {
    let value = value.trim();
    if value.is_empty() || value == "#" {
        return Link::Ignored;
    }
    if let Some(colon) = value.find(':') {
        let scheme = &value[..colon];
        if !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-' || c == '.')
        {
            return match scheme.to_ascii_lowercase().as_str() {
                "javascript" | "data" => Link::Ignored,
                _ => Link::External(value.to_owned()),
            };
        }
    }
    if value.starts_with("//") {
        return Link::External(value.to_owned());
    }
    let (rest, fragment) = match value.split_once('#') {
        Some((rest, fragment)) => (rest, Some(percent_decode(fragment))),
        None => (value, None),
    };
    let rest = rest.split_once('?').map_or(rest, |(path, _)| path);
    let start: PathBuf = match base {
        Some(base) => PathBuf::from(base),
        None => page.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let joined = if rest.is_empty() {
        // `#x` is this page (browsers resolve it against the base, which
        // mdBook only sets on 404.html, whose own ids it then names).
        page.to_path_buf()
    } else if let Some(absolute) = rest.strip_prefix('/') {
        PathBuf::from(absolute)
    } else {
        start.join(percent_decode(rest))
    };
    let mut file = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::Normal(name) => file.push(name),
            Component::CurDir => {}
            Component::ParentDir => {
                if !file.pop() {
                    return Link::OutsideBook(value.to_owned());
                }
            }
            Component::RootDir | Component::Prefix(_) => {}
        }
    }
    Link::Internal { file, fragment }
}

/// The path prefix under which the site is served, from mdBook's
/// `site-url` (`"/x-safe-rust/"`), used to read `<base href>`.
pub fn base_of(html: &str, site_prefix: &str) -> Option<String> {
    let at = html.find("<base ")?;
    let tag = &html[at..at + html[at..].find('>')?];
    let href = attributes(tag, &["href"]).into_iter().next()?.value;
    let path = href
        .strip_prefix(site_prefix)
        .or_else(|| href.strip_prefix('/'))?;
    Some(path.trim_end_matches('/').to_owned())
}

/// A broken link: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The page that has the link, relative to the book's root.
    pub page: PathBuf,
    /// The link as written.
    pub link: String,
    /// What is wrong with it.
    pub why: String,
}

/// What a check found.
#[derive(Debug, Default)]
pub struct Report {
    /// Broken internal links and anchors.
    pub problems: Vec<Problem>,
    /// External links, each with the pages that have it.
    pub external: BTreeMap<String, BTreeSet<PathBuf>>,
    /// How many pages and internal links were checked.
    pub pages: usize,
    /// How many internal links were checked.
    pub internal_links: usize,
}

/// The pages of a book: path relative to the root, and their text.
pub type Pages = BTreeMap<PathBuf, String>;

/// Reads every `.html` file under `root`.
pub fn read_pages(root: &Path) -> std::io::Result<Pages> {
    let mut pages = Pages::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "html") {
                let text = std::fs::read_to_string(&path)?;
                let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
                pages.insert(relative, text);
            }
        }
    }
    Ok(pages)
}

/// Checks every link of `pages`; `exists` says whether a non-HTML file
/// (an image, a stylesheet) is part of the book.
pub fn check(pages: &Pages, site_prefix: &str, exists: impl Fn(&Path) -> bool) -> Report {
    let ids: BTreeMap<&PathBuf, BTreeSet<String>> = pages
        .iter()
        .map(|(path, html)| {
            let ids = attributes(html, &["id"])
                .into_iter()
                .map(|attr| attr.value)
                .collect();
            (path, ids)
        })
        .collect();
    let mut report = Report {
        pages: pages.len(),
        ..Report::default()
    };
    for (page, html) in pages {
        let base = base_of(html, site_prefix);
        for attr in attributes(html, &["href", "src"]) {
            // An absolute path under the site's prefix is a file of the book.
            let value = match attr.value.strip_prefix(site_prefix) {
                Some(rest) if site_prefix.len() > 1 => format!("/{rest}"),
                _ => attr.value.clone(),
            };
            match classify(&value, page, base.as_deref()) {
                Link::Ignored => {}
                Link::External(url) => {
                    report.external.entry(url).or_default().insert(page.clone());
                }
                Link::OutsideBook(link) => report.problems.push(Problem {
                    page: page.clone(),
                    link,
                    why: "climbs out of the book".into(),
                }),
                Link::Internal { mut file, fragment } => {
                    report.internal_links += 1;
                    // A directory stands for its index page.
                    if file.as_os_str().is_empty()
                        || attr
                            .value
                            .split(['#', '?'])
                            .next()
                            .is_some_and(|path| path.ends_with('/'))
                    {
                        file.push("index.html");
                    }
                    let target_ids = ids.get(&file);
                    let found = target_ids.is_some() || exists(&file);
                    if !found {
                        report.problems.push(Problem {
                            page: page.clone(),
                            link: attr.value.clone(),
                            why: format!("no file {}", file.display()),
                        });
                        continue;
                    }
                    if let (Some(fragment), Some(target_ids)) = (fragment, target_ids)
                        && !fragment.is_empty()
                        && !target_ids.contains(&fragment)
                    {
                        report.problems.push(Problem {
                            page: page.clone(),
                            link: attr.value.clone(),
                            why: format!("no id \"{fragment}\" in {}", file.display()),
                        });
                    }
                }
            }
        }
    }
    report.problems.sort();
    report.problems.dedup();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, html: &str) -> (PathBuf, String) {
        (PathBuf::from(path), html.to_owned())
    }

    #[test]
    fn attributes_are_found_in_order_and_decoded() {
        let html =
            r#"<a class="x" href="a.html#b">x</a><img src='img/t.svg' alt="t"><p data-href="no">"#;
        let found = attributes(html, &["href", "src"]);
        assert_eq!(
            found,
            vec![
                Attr {
                    name: "href".into(),
                    value: "a.html#b".into()
                },
                Attr {
                    name: "src".into(),
                    value: "img/t.svg".into()
                },
            ]
        );
        let ids = attributes(
            r#"<h2 id="what-the-course-changed"><a href="?q=a&amp;b=c">"#,
            &["id", "href"],
        );
        assert_eq!(ids[0].value, "what-the-course-changed");
        assert_eq!(ids[1].value, "?q=a&b=c");
    }

    #[test]
    fn links_are_classified() {
        let here = Path::new("dir/page.html");
        assert_eq!(
            classify("https://lwn.net/x", here, None),
            Link::External("https://lwn.net/x".into())
        );
        assert_eq!(
            classify("mailto:a@b", here, None),
            Link::External("mailto:a@b".into())
        );
        assert_eq!(classify("javascript:void(0)", here, None), Link::Ignored);
        assert_eq!(classify("#", here, None), Link::Ignored);
        assert_eq!(
            classify("other.html#top", here, None),
            Link::Internal {
                file: "dir/other.html".into(),
                fragment: Some("top".into())
            }
        );
        assert_eq!(
            classify("#local", here, None),
            Link::Internal {
                file: "dir/page.html".into(),
                fragment: Some("local".into())
            }
        );
        assert_eq!(
            classify("../css/a.css?v=1", here, None),
            Link::Internal {
                file: "css/a.css".into(),
                fragment: None
            }
        );
        assert_eq!(
            classify("../../up.html", here, None),
            Link::OutsideBook("../../up.html".into())
        );
        // With `<base href="/x-safe-rust/">`, links resolve from the root.
        assert_eq!(
            classify("css/a.css", Path::new("404.html"), Some("")),
            Link::Internal {
                file: "css/a.css".into(),
                fragment: None
            }
        );
        assert_eq!(
            classify("a.html#caf%C3%A9", here, None),
            Link::Internal {
                file: "dir/a.html".into(),
                fragment: Some("café".into())
            }
        );
    }

    #[test]
    fn base_is_read_under_the_site_prefix() {
        let html = r#"<head><base href="/x-safe-rust/"></head>"#;
        assert_eq!(base_of(html, "/x-safe-rust/"), Some(String::new()));
        assert_eq!(base_of("<head></head>", "/x-safe-rust/"), None);
    }

    #[test]
    fn broken_files_and_anchors_are_reported_and_external_links_listed() {
        let pages: Pages = [
            page(
                "a.html",
                r##"<h1 id="top">A</h1><a href="b.html#there">ok</a><a href="b.html#gone">x</a>
                <a href="c.html">x</a><img src="img/f.svg"><img src="img/missing.svg">
                <a href="https://example.org/">out</a><a href="#top">self</a>"##,
            ),
            page(
                "b.html",
                r#"<h2 id="there">B</h2><a href="https://example.org/">out</a>"#,
            ),
        ]
        .into_iter()
        .collect();
        let report = check(&pages, "/", |file| file == Path::new("img/f.svg"));
        let served: Pages = [
            page("index.html", r#"<h1 id="x">home</h1>"#),
            page("404.html", r#"<base href="/book/"><a href="/book/">home</a><a href="/book/#x">x</a><a href="index.html#y">y</a>"#),
        ]
        .into_iter()
        .collect();
        let under_prefix = check(&served, "/book/", |_| false);
        // The `<base href>` itself is a link to the root, too.
        assert_eq!(under_prefix.internal_links, 4);
        assert_eq!(
            under_prefix.problems.len(),
            1,
            "{:?}",
            under_prefix.problems
        );
        assert_eq!(under_prefix.problems[0].why, "no id \"y\" in index.html");
        let whys: Vec<_> = report
            .problems
            .iter()
            .map(|p| format!("{} {} {}", p.page.display(), p.link, p.why))
            .collect();
        assert_eq!(
            whys,
            vec![
                "a.html b.html#gone no id \"gone\" in b.html",
                "a.html c.html no file c.html",
                "a.html img/missing.svg no file img/missing.svg",
            ]
        );
        assert_eq!(report.external.len(), 1);
        assert_eq!(report.external["https://example.org/"].len(), 2);
        assert_eq!(report.internal_links, 6);
    }
}
