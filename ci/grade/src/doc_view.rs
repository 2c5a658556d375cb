//! The surface is read from the crate the cases compile.
//!
//! **Invariant**: the crate whose public items the `surface` case lists
//! (rustdoc's JSON, which rustdoc makes with `cfg(doc)` set) is the crate
//! every case and every user compiles (without it): the compiler's
//! expansion of the crate is the same with `--cfg doc` and without, or the
//! crate is refused, with the first place they differ named. So an item
//! under `#[cfg(not(doc))]` (a `keys_mut` rustdoc never sees), one under
//! `#[cfg(doc)]` (an arm of a macro only rustdoc sees), a
//! `#[cfg_attr(doc, ...)]` or a `cfg!(doc)` cannot make the surface that
//! is graded differ from the one that is used, however a macro spells it.

/// Why a crate is refused, or nothing when its two expansions (`plain`,
/// without `cfg(doc)`, and `documented`, with it) are the same.
pub fn differs(plain: &str, documented: &str) -> Option<String> {
    if plain == documented {
        return None;
    }
    let plain_lines: Vec<&str> = plain.lines().collect();
    let documented_lines: Vec<&str> = documented.lines().collect();
    let first = plain_lines
        .iter()
        .zip(&documented_lines)
        .position(|(left, right)| left != right)
        .unwrap_or(plain_lines.len().min(documented_lines.len()));
    let show = |lines: &[&str]| {
        lines
            .get(first)
            .map(|line| line.trim())
            .filter(|line| !line.is_empty())
            .map(|line| {
                let mut line = line.to_owned();
                if line.chars().count() > 120 {
                    line = line.chars().take(117).collect::<String>() + "...";
                }
                format!("`{line}`")
            })
            .unwrap_or_else(|| "nothing".to_owned())
    };
    Some(format!(
        "compiled, it has {} where rustdoc, which documents it with `cfg(doc)` set, sees {}",
        show(&plain_lines),
        show(&documented_lines)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal expansions pass; a difference is named by its first line on
    /// each side, an item only one side has included.
    #[test]
    fn names_the_first_difference() {
        assert_eq!(differs("pub fn a() {}\n", "pub fn a() {}\n"), None);
        let why = differs(
            "pub fn a() {}\npub fn keys_mut() {}\npub fn b() {}\n",
            "pub fn a() {}\npub fn b() {}\n",
        )
        .expect("they differ");
        assert!(why.contains("`pub fn keys_mut() {}`"), "{why}");
        assert!(why.contains("`pub fn b() {}`"), "{why}");
        let why = differs("pub fn a() {}\n", "pub fn a() {}\npub fn only_doc() {}\n")
            .expect("they differ");
        assert!(why.contains("has nothing"), "{why}");
    }
}
