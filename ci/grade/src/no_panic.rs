//! `no-panic` cases: operations whose optimized code keeps no way to panic.
//!
//! A chapter may promise a cost no behaviour case can see: branded indices
//! promise that a lookup through an index already checked does no bounds
//! check. A `no-panic` case is a probe crate (the case file, compiled as a
//! library) whose functions each call one operation of the learner's crate
//! on a concrete type, `#[inline(never)]`. The engine builds it in release
//! mode ([`RELEASE_PROFILE`]: opt-level 3, one codegen unit, debug
//! assertions and overflow checks off, so a `debug_assert!` is free) and
//! asks the compiler for the assembly of the probe and of every crate built
//! with it ([`RUSTFLAGS`]), in a confined job.
//!
//! **Invariant**: a `no-panic` case passes only when, in that assembly,
//! no code reachable from a function of the probe refers to a panic path
//! ([`panic_path`]: `core::panicking::*`, `std::panicking::*`, the
//! `*_fail`/`*_failed` functions such as `slice_end_index_len_fail` and
//! `unwrap_failed`, `std::process::abort`), and no reachable code (nor the
//! crate's top level, `global_asm!`) holds assembly written by hand. Paths
//! of allocation failure ([`allocation_failure`]: `handle_alloc_error`,
//! `capacity_overflow`, `raw_vec::handle_error`) and the ends of unwinding
//! that cannot go on ([`unwinding_stop`]: `panic_in_cleanup`,
//! `panic_cannot_unwind`, which the compiler adds to drops on an unwinding
//! path) are not checks of the operation and are neither flagged nor
//! followed. Reachable means through
//! any symbol an instruction or a data word of a function names (a call, a
//! tail jump, a function's address), transitively through every function
//! the assembly defines; a function it does not define (std's, compiled
//! before) is judged by its name alone. The verdict is read from the
//! compiler's output by this module, in the grader's process, as text: no
//! learner code runs here and nothing the learner's code prints counts.
//!
//! What this does not see (the chapter and ROUTES.md say so): a check
//! whose failure does not panic (a default value, an early return, a loop
//! forever, a trap of `core::intrinsics::abort`), and a check done inside
//! a function of std compiled before (not generic) whose name is not a
//! panic path. Assembly written by hand fails the case, whatever it does:
//! this module cannot tell what it checks (`asm!` and `global_asm!` are
//! also refused by the grader before any case, see `before_main`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The `[profile.release]` of the probe's workspace.
pub const RELEASE_PROFILE: &str = "[release]\nopt-level = 3\ncodegen-units = 1\ndebug = 0\ndebug-assertions = false\noverflow-checks = false\nlto = false\nincremental = false\npanic = \"unwind\"\n";

/// The flags of every crate of the probe's build: the assembly as well as
/// the library (cargo's own `--emit` and this one add up).
pub const RUSTFLAGS: &str = "--emit=asm,link";

/// One symbol's part of the assembly: what it names, and whether it holds
/// assembly written by hand.
#[derive(Debug, Default, Clone)]
struct Region {
    refs: BTreeSet<String>,
    hand_written: bool,
}

/// The assembly of a build, read as symbols and the symbols each names.
#[derive(Debug, Default)]
pub struct Program {
    regions: BTreeMap<String, Region>,
    /// Assembly written by hand outside any symbol (`global_asm!`).
    top_level_asm: bool,
}

/// What a function of the probe reaches that it must not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The probe's function, as the case file names it; empty for what
    /// the crate holds outside any function (`global_asm!`).
    pub entry: String,
    /// What it reaches: a panic path's name, or assembly written by hand.
    pub what: String,
    /// The functions between them (readable names), outermost first.
    pub through: Vec<String>,
}

/// A symbol's readable name: demangled, without hashes.
pub fn readable(symbol: &str) -> String {
    match rustc_demangle::try_demangle(symbol) {
        Ok(name) => format!("{name:#}"),
        Err(_) => symbol.trim_start_matches('_').to_owned(),
    }
}

/// Whether `name` (readable) is a path of allocation failure.
pub fn allocation_failure(name: &str) -> bool {
    matches!(
        name,
        "alloc::alloc::handle_alloc_error"
            | "alloc::raw_vec::capacity_overflow"
            | "alloc::raw_vec::handle_error"
            | "std::alloc::rust_oom"
            | "__rust_alloc_error_handler"
            | "__rg_oom"
            | "__rdl_oom"
    ) || name.starts_with("alloc::alloc::handle_alloc_error::")
        || name.starts_with("std::alloc::rust_oom::")
}

/// Whether `name` (readable) is where unwinding that cannot go on ends:
/// a destructor that panics while a panic unwinds, or a panic reaching a
/// frame that may not unwind. The compiler adds these to any function
/// that drops values on its unwinding path; they check no data, so they
/// are not a check left in a lookup.
pub fn unwinding_stop(name: &str) -> bool {
    matches!(
        name,
        "core::panicking::panic_in_cleanup" | "core::panicking::panic_cannot_unwind"
    )
}

/// Whether `name` (readable) is a panic path of std: a function that
/// panics or aborts, and nothing else.
pub fn panic_path(name: &str) -> bool {
    const PREFIXES: [&str; 6] = [
        "core::panicking::",
        "std::panicking::",
        "core::panic::",
        "std::panic::",
        "std::rt::begin_panic",
        "std::process::abort",
    ];
    if PREFIXES.iter().any(|prefix| name.starts_with(prefix))
        || matches!(name, "abort" | "core::intrinsics::abort")
    {
        return true;
    }
    let std_path = ["core::", "std::", "alloc::"]
        .iter()
        .any(|krate| name.starts_with(krate));
    // A function's own name: the last path segment outside generic
    // arguments.
    let last = name.rsplit("::").next().unwrap_or(name);
    std_path && (last.contains("panic") || last.ends_with("_fail") || last.ends_with("_failed"))
}

/// Whether a label names a place inside a function (a block, a temporary)
/// rather than a symbol of its own.
fn block_label(label: &str) -> bool {
    ["LBB", "Ltmp", "LJTI", "Lcfi"]
        .iter()
        .any(|prefix| label.strip_prefix('.').unwrap_or(label).starts_with(prefix))
}

/// Whether a label is the assembler's own (`.Lfunc_begin0`,
/// `.Lanon.*`, `Ltmp0`, `l_anon.*`): inside a function it is a place in
/// it; between functions, data (a constant, a vtable) of its own.
fn local_label(label: &str) -> bool {
    label.starts_with(".L") || label.starts_with('L') || label.starts_with("l_")
}

/// The words of an operand list that could name a symbol (registers are
/// left out by their `%`).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '%')))
        .filter(|word| !word.is_empty() && !word.starts_with('%'))
        .filter(|word| !word.starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether a comment line opens or closes assembly written by hand
/// (`#APP`/`#NO_APP` on x86, `//APP` on AArch64, `; InlineAsm Start` on
/// Apple's).
fn asm_marker(line: &str) -> Option<bool> {
    let text = line.trim().trim_start_matches(['#', '/', ';', '@']).trim();
    match text {
        "APP" | "InlineAsm Start" => Some(true),
        "NO_APP" | "InlineAsm End" => Some(false),
        _ => None,
    }
}

/// The data directives whose operands may name a function (a vtable).
const DATA_DIRECTIVES: [&str; 7] = [
    ".quad", ".long", ".xword", ".word", ".8byte", ".4byte", ".int",
];

impl Program {
    /// Reads the assembly files of one build (x86-64 or AArch64, ELF or
    /// Mach-O, as LLVM writes them).
    pub fn read<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Program {
        let mut program = Program::default();
        for bytes in files {
            program.read_file(&String::from_utf8_lossy(bytes));
        }
        program
    }

    fn read_file(&mut self, text: &str) {
        let mut current: Option<String> = None;
        // Inside a block of assembly written by hand, and whether it holds
        // anything (`black_box` is an empty one).
        let mut in_asm: Option<bool> = None;
        // The symbol the block opened in (none: the crate's top level).
        let mut opened_in: Option<String> = None;
        for line in text.lines() {
            if let Some(opens) = asm_marker(line) {
                if opens {
                    in_asm = Some(false);
                    opened_in.clone_from(&current);
                } else {
                    if in_asm == Some(true) {
                        // A block that defines symbols marks them too.
                        for name in [&opened_in, &current].into_iter().flatten() {
                            self.regions.entry(name.clone()).or_default().hand_written = true;
                        }
                        if opened_in.is_none() {
                            self.top_level_asm = true;
                        }
                    }
                    in_asm = None;
                }
                continue;
            }
            // Comments: whole lines (`# %bb.0:`, `// %bb.0:`, `; %bb.0:`);
            // a comment after code names no symbol the walk would follow.
            let trimmed = line.trim();
            if trimmed.is_empty()
                || trimmed.starts_with('#')
                || trimmed.starts_with("//")
                || trimmed.starts_with(';')
            {
                continue;
            }
            if let Some(asm) = &mut in_asm {
                *asm = true;
            }
            if !line.starts_with([' ', '\t'])
                && let Some(label) = trimmed
                    .split_whitespace()
                    .next()
                    .and_then(|word| word.strip_suffix(':'))
            {
                let label = label.trim_matches('"');
                if label.contains("func_end") {
                    current = None;
                } else if !(block_label(label) || current.is_some() && local_label(label)) {
                    current = Some(label.to_owned());
                    self.regions.entry(label.to_owned()).or_default();
                }
                continue;
            }
            let (head, rest) = trimmed
                .split_once(|c: char| c.is_whitespace())
                .unwrap_or((trimmed, ""));
            // `.set ALIAS, SYMBOL`: merged functions.
            if head == ".set" || head == ".equiv" || head == ".equ" {
                if let Some((alias, target)) = rest.split_once(',') {
                    let region = self.regions.entry(alias.trim().to_owned()).or_default();
                    region.refs.extend(words(target).map(str::to_owned));
                }
                continue;
            }
            if head.starts_with('.') && !DATA_DIRECTIVES.contains(&head) {
                continue;
            }
            if let Some(name) = &current {
                let refs: Vec<String> = words(rest).map(|word| word.to_owned()).collect();
                self.regions
                    .entry(name.clone())
                    .or_default()
                    .refs
                    .extend(refs);
            }
        }
    }

    /// The probe's functions: the symbols whose readable name is
    /// `PROBE_CRATE::NAME`, by `NAME`.
    pub fn entries(&self, probe_crate: &str) -> BTreeMap<String, String> {
        self.regions
            .keys()
            .filter_map(|symbol| {
                let name = readable(symbol);
                let rest = name.strip_prefix(probe_crate)?.strip_prefix("::")?;
                (!rest.contains("::") && !rest.is_empty())
                    .then(|| (rest.to_owned(), symbol.clone()))
            })
            .collect()
    }

    /// What each of the probe's functions reaches that it must not: at most
    /// one finding per function and panic path, each with the shortest way
    /// there.
    pub fn findings(&self, probe_crate: &str) -> Vec<Finding> {
        let mut findings = Vec::new();
        if self.top_level_asm {
            findings.push(Finding {
                entry: String::new(),
                what: "assembly written by hand (`global_asm!`)".to_owned(),
                through: Vec::new(),
            });
        }
        for (entry, symbol) in self.entries(probe_crate) {
            let mut parent: BTreeMap<String, String> = BTreeMap::new();
            let mut seen: BTreeSet<String> = BTreeSet::from([symbol.clone()]);
            let mut queue = VecDeque::from([symbol.clone()]);
            let mut found: BTreeMap<String, String> = BTreeMap::new();
            while let Some(at) = queue.pop_front() {
                let Some(region) = self.regions.get(&at) else {
                    continue;
                };
                if region.hand_written {
                    found
                        .entry("assembly written by hand (`asm!`)".to_owned())
                        .or_insert_with(|| at.clone());
                }
                for next in &region.refs {
                    if seen.contains(next) {
                        continue;
                    }
                    let defined = self.regions.contains_key(next);
                    let name = readable(next);
                    let rust = rustc_demangle::try_demangle(next).is_ok();
                    if !defined && !rust && name != "abort" {
                        continue;
                    }
                    seen.insert(next.clone());
                    if allocation_failure(&name) || unwinding_stop(&name) {
                        continue;
                    }
                    if panic_path(&name) {
                        found
                            .entry(format!("`{name}`"))
                            .or_insert_with(|| at.clone());
                        continue;
                    }
                    if defined {
                        parent.insert(next.clone(), at.clone());
                        queue.push_back(next.clone());
                    }
                }
            }
            for (what, from) in found {
                let mut through = Vec::new();
                let mut at = from;
                while at != symbol {
                    through.push(readable(&at));
                    match parent.get(&at) {
                        Some(up) => at = up.clone(),
                        None => break,
                    }
                }
                through.reverse();
                findings.push(Finding {
                    entry: entry.clone(),
                    what,
                    through,
                });
            }
        }
        findings
    }
}

impl Finding {
    /// One line: `` `get` reaches `core::panicking::panic_bounds_check` (through `X`) ``.
    pub fn line(&self) -> String {
        let through = if self.through.is_empty() {
            String::new()
        } else {
            format!(
                " (through {})",
                self.through
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(" → ")
            )
        };
        if self.entry.is_empty() {
            return format!("the crate holds {}", self.what);
        }
        format!("`{}` reaches {}{through}", self.entry, self.what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRATE: &str = "xsafe_probe_demo";

    /// The reference's shape: entries with no panic, a gather that
    /// allocates and may fail to.
    const CLEAN: &str = "\
\t.section\t.text._ZN16xsafe_probe_demo3get17h0123456789abcdefE,\"ax\",@progbits
\t.globl\t_ZN16xsafe_probe_demo3get17h0123456789abcdefE
\t.type\t_ZN16xsafe_probe_demo3get17h0123456789abcdefE,@function
_ZN16xsafe_probe_demo3get17h0123456789abcdefE:
\t.cfi_startproc
\tleaq\t(%rdi,%rdx,8), %rax
\tretq
.Lfunc_end0:
\t.size\t_ZN16xsafe_probe_demo3get17h0123456789abcdefE, .Lfunc_end0-_ZN16xsafe_probe_demo3get17h0123456789abcdefE
_ZN16xsafe_probe_demo6gather17h0123456789abcdefE:
.Lfunc_begin1:
\tcallq\t*_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc@GOTPCREL(%rip)
\tje\t.LBB5_5
.LBB5_5:
\tcallq\t*_RNvNtCslNYArtu3iFV_5alloc7raw_vec12handle_error@GOTPCREL(%rip)
.Lfunc_end1:
";

    /// A lookup that checks again, through a helper of the learner's
    /// crate, and a swap that tail-calls the check.
    const CHECKED: &str = "\
_ZN16xsafe_probe_demo3get17h0123456789abcdefE:
\tjmp\t_ZN4demo6lookup17h0123456789abcdefE
.Lfunc_end0:
_ZN4demo6lookup17h0123456789abcdefE:
.Lfunc_begin1:
\tcmpq\t%rsi, %rdx
\tjae\t.LBB1_2
\tretq
.LBB1_2:
\tleaq\t.Lanon.0(%rip), %rdx
\tcallq\t*_ZN4core9panicking18panic_bounds_check17h0123456789abcdefE@GOTPCREL(%rip)
.Lfunc_end1:
_ZN16xsafe_probe_demo4swap17h0123456789abcdefE:
\tjmp\t_ZN4core5slice5index24slice_end_index_len_fail17h0123456789abcdefE # TAILCALL
.Lfunc_end2:
_ZN4demo6unused17h0123456789abcdefE:
\tcallq\t_ZN4core9panicking9panic_fmt17h0123456789abcdefE
";

    #[test]
    fn the_reference_shape_passes() {
        let program = Program::read([CLEAN.as_bytes()]);
        let entries = program.entries(CRATE);
        assert_eq!(
            entries.keys().collect::<Vec<_>>(),
            ["gather", "get"],
            "{entries:?}"
        );
        assert_eq!(program.findings(CRATE), Vec::new());
    }

    /// Every route to a panic is found, with the way there; what no entry
    /// reaches is not.
    #[test]
    fn a_check_left_in_is_found() {
        let program = Program::read([CHECKED.as_bytes()]);
        let lines: Vec<String> = program.findings(CRATE).iter().map(Finding::line).collect();
        assert_eq!(
            lines,
            [
                "`get` reaches `core::panicking::panic_bounds_check` (through `demo::lookup`)",
                "`swap` reaches `core::slice::index::slice_end_index_len_fail`",
            ]
        );
    }

    /// v0 names (nightly's std), merged functions and Apple's AArch64.
    #[test]
    fn other_manglings_and_targets() {
        let text = "\
__ZN16xsafe_probe_demo3get17h0123456789abcdefE:
\tb\t__RNvNtCs1234_4core9panicking9panic_fmt
Lfunc_end0:
\t.set _ZN16xsafe_probe_demo4view17h0123456789abcdefE, __ZN16xsafe_probe_demo3get17h0123456789abcdefE
";
        let program = Program::read([text.as_bytes()]);
        let lines: Vec<String> = program.findings(CRATE).iter().map(Finding::line).collect();
        assert_eq!(
            lines,
            [
                "`get` reaches `core::panicking::panic_fmt`",
                "`view` reaches `core::panicking::panic_fmt` (through `xsafe_probe_demo::get`)",
            ],
        );
    }

    /// Assembly written by hand fails, but for the empty block of
    /// `black_box`; an unreached function's does not count, the top
    /// level's does.
    #[test]
    fn hand_written_assembly() {
        let reached = "\
_ZN16xsafe_probe_demo3get17h0123456789abcdefE:
\t#APP
\t#NO_APP
\tcallq\t_ZN4demo3raw17h0123456789abcdefE
_ZN4demo3raw17h0123456789abcdefE:
\t#APP
\tnop
\t#NO_APP
\tretq
";
        let program = Program::read([reached.as_bytes()]);
        let lines: Vec<String> = program.findings(CRATE).iter().map(Finding::line).collect();
        assert_eq!(
            lines,
            ["`get` reaches assembly written by hand (`asm!`) (through `demo::raw`)"]
        );
        let top = "\t#APP\n\t.globl f\nf:\n\tud2\n\t#NO_APP\n";
        let program = Program::read([top.as_bytes(), CLEAN.as_bytes()]);
        let lines: Vec<String> = program.findings(CRATE).iter().map(Finding::line).collect();
        assert_eq!(
            lines,
            ["the crate holds assembly written by hand (`global_asm!`)"]
        );
        let quiet = "\t#APP\n\t#NO_APP\n";
        assert_eq!(
            Program::read([quiet.as_bytes(), CLEAN.as_bytes()]).findings(CRATE),
            Vec::new()
        );
    }

    #[test]
    fn names() {
        for name in [
            "core::panicking::panic_bounds_check",
            "core::slice::index::slice_start_index_len_fail",
            "core::option::unwrap_failed",
            "core::result::unwrap_failed",
            "core::option::expect_failed",
            "std::panicking::begin_panic",
            "std::process::abort",
            "core::cell::panic_already_borrowed",
        ] {
            assert!(panic_path(name), "{name}");
            assert!(!allocation_failure(name), "{name}");
        }
        for name in [
            "alloc::raw_vec::handle_error",
            "alloc::alloc::handle_alloc_error",
            "alloc::raw_vec::capacity_overflow",
        ] {
            assert!(!panic_path(name), "{name}");
            assert!(allocation_failure(name), "{name}");
        }
        for name in ["demo::panic_free", "core::ptr::swap", "__rust_alloc"] {
            assert!(!panic_path(name), "{name}");
        }
        for name in [
            "core::panicking::panic_in_cleanup",
            "core::panicking::panic_cannot_unwind",
        ] {
            assert!(unwinding_stop(name), "{name}");
        }
        for name in [
            "core::panicking::panic_bounds_check",
            "core::panicking::panic_fmt",
        ] {
            assert!(!unwinding_stop(name), "{name}");
        }
    }
}
