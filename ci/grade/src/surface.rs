//! The public surface of a crate under test: what code outside it can
//! name, build, call or implement.
//!
//! **Invariant**: the `surface` case passes only when every item outside
//! code can reach (see [`crate::api`]: read from rustdoc's JSON, made in a
//! build where no learner code runs, so nested impls and macro output
//! count) is part of the exercise's API or on its allow-list (each allowed
//! item names the case that probes it).

use crate::outcome::{CaseOutcome, Status};
use std::collections::BTreeSet;
use xsafe_course::Manifest;

/// The `surface` case of a crate: its reachable items (from rustdoc's JSON
/// of the crate, or why it could not be made) against the manifest's
/// `[surface]`. Returns the outcome and the items, when they were read.
pub fn check(
    manifest: &Manifest,
    doc_json: Result<&[u8], (String, String)>,
) -> (CaseOutcome, Option<BTreeSet<String>>) {
    let items = match doc_json.and_then(|json| {
        crate::api::parse(json)
            .map(|krate| crate::api::reachable(&krate))
            .map_err(|why| (why, String::new()))
    }) {
        Ok(items) => items,
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

/// The verdict on a crate's public items.
pub fn judge(manifest: &Manifest, items: &BTreeSet<String>) -> CaseOutcome {
    let extra: Vec<&String> = items
        .iter()
        .filter(|item| !manifest.surface.permits(item))
        .collect();
    if extra.is_empty() {
        return CaseOutcome::passed();
    }
    let names: Vec<String> = extra.iter().map(|item| format!("`{item}`")).collect();
    let details = format!(
        "Public items that are not part of the exercise's API:\n{}\n\nThe exercise's API is the starter's public items. Anything else that is public can be used by code outside the crate, so it is part of what the invariant must survive: make it private (`pub(crate)` for other modules of the crate), or remove it.",
        extra
            .iter()
            .map(|item| format!("  {item}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    CaseOutcome::new(
        Status::Failed(format!(
            "the crate makes public what the exercise does not have: {}",
            names.join(", ")
        )),
        details,
    )
}
