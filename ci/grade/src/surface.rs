//! The public surface of a crate under test: what code outside it can
//! name, build, call or implement.
//!
//! **Invariant**: the `surface` case passes only when the crate's API is
//! the exercise's, item by item and signature by signature: every item
//! outside code can reach (see [`crate::api`]: read from rustdoc's JSON,
//! made in a build where no learner code runs, so nested impls and macro
//! output count), written in canonical form (see [`crate::canon`]), is
//! one of the reference solution's or an allowed extra (an exact line,
//! each with the case that probes it), and every item of the reference's
//! is there. A signature that differs (a lifetime decoupled, another
//! state's type, a bound widened) is both an extra and a missing item.

use crate::outcome::{CaseOutcome, Status};
use std::collections::BTreeSet;
use xsafe_course::Manifest;

/// The `surface` case of a crate: its reachable items (from rustdoc's JSON
/// of the crate, or why it could not be made) against the manifest's
/// `[surface]`. Returns the outcome and the items, when they were read.
pub fn check(
    manifest: &Manifest,
    doc_json: Result<&[u8], (String, String)>,
    macros: Vec<String>,
) -> (CaseOutcome, Option<BTreeSet<String>>) {
    let items = match doc_json.and_then(|json| {
        crate::api::parse(json)
            .map(|krate| crate::api::reachable(&krate))
            .map_err(|why| (why, String::new()))
    }) {
        Ok(mut items) => {
            items.extend(macros);
            items
        }
        Err((why, details)) => {
            return (
                CaseOutcome::new(
                    Status::NotRun(format!(
                        "the crate's public surface could not be read: {why}"
                    )),
                    details,
                ),
                None,
            );
        }
    };
    (judge(manifest, &items), Some(items))
}

/// The verdict on a crate's public items: passed when every item is the
/// API's or allowed, and every item of the API is there with the same
/// signature.
pub fn judge(manifest: &Manifest, items: &BTreeSet<String>) -> CaseOutcome {
    let extra: Vec<&String> = items
        .iter()
        .filter(|item| !manifest.surface.permits(item))
        .collect();
    let missing: Vec<&String> = manifest.surface.missing(items);
    if extra.is_empty() && missing.is_empty() {
        return CaseOutcome::passed();
    }
    let quoted = |items: &[&String]| {
        items
            .iter()
            .map(|item| format!("`{item}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let listed = |items: &[&String]| {
        items
            .iter()
            .map(|item| format!("  {item}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut reason = Vec::new();
    let mut details = Vec::new();
    if !extra.is_empty() {
        reason.push(format!(
            "the crate makes public what the exercise does not have: {}",
            quoted(&extra)
        ));
        details.push(format!(
            "Items outside code can reach that are not the exercise's API, each with its whole signature:\n{}\n\nAnything outside code can reach is part of what the invariant must survive: make it private (`pub(crate)` for other modules of the crate), or remove it.",
            listed(&extra)
        ));
    }
    if !missing.is_empty() {
        reason.push(format!(
            "the crate lacks the exercise's {}",
            quoted(&missing)
        ));
        details.push(format!(
            "Items of the exercise's API, with their whole signatures, that the crate does not have as written (a signature that differs shows once above and once here):\n{}",
            listed(&missing)
        ));
    }
    CaseOutcome::new(Status::Failed(reason.join("; ")), details.join("\n\n"))
}
