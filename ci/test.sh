#!/usr/bin/env bash
# Runs every check of the course, as CI does: formatting, lints, all tests
# (grading proofs on every toolchain this machine has, book examples, unit
# tests, a smoke run of the benchmarks), the quizzes' answers against the
# compiler, and a build of the book with the real mdbook, its links and
# anchors, and the pages in headless Chromium.
#
#   bash ci/test.sh
#
# It needs only the Rust toolchain (rustup): mdbook and mdbook-quiz are
# installed on first use into target/tools; bubblewrap (the grader's
# isolation), chromium and node (the book's browser test) come from the
# system's packages when the machine allows it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [ -t 1 ]; then bold=$'\e[1;32m'; red=$'\e[1;31m'; yellow=$'\e[1;33m'; reset=$'\e[0m'; else bold=; red=; yellow=; reset=; fi
started=$(date +%s)
step() { printf '%s%12s%s %s\n' "$bold" "$1" "$reset" "$2"; }
warn() { printf '%s%12s%s %s\n' "$yellow" "warning" "$reset" "$1"; }
trap 'status=$?; [ $status -eq 0 ] || printf "%s%12s%s ci/test.sh failed (exit %d) after %ds\n" "$red" "error" "$reset" "$status" "$(( $(date +%s) - started ))"' EXIT

# A clean clone builds everything once: incremental caches would only fill
# the disk (they doubled target/ on a warm machine). Say how much room there
# is, since a full disk makes rustc and the linker fail in odd ways.
export CARGO_INCREMENTAL=0
free_kib=$(df -Pk . | awk 'NR==2 {print $4}')
if [ -n "$free_kib" ]; then
    step Disk "$(( free_kib / 1048576 )) GiB free here (a run needs about 8)"
    [ "$free_kib" -ge $(( 8 * 1048576 )) ] || warn "less than 8 GiB free: builds may fail with 'No space left on device'"
fi

# The grader isolates submissions' code with bubblewrap when it can; the
# grader's tests check that isolation, so install it where the machine lets
# us (Debian/Ubuntu as root, as in CI).
if ! command -v bwrap >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        step Installing "bubblewrap (apt-get)"
        apt-get install -y -qq bubblewrap >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq bubblewrap >/dev/null 2>&1; } \
            || warn "bubblewrap could not be installed: the grader falls back to a process namespace"
    else
        warn "bubblewrap is not installed: the grader falls back to a process namespace or none"
    fi
fi

# Every toolchain rustup has here, at or above the course's rust-version,
# once each (two names for one compiler count once): the grading proofs run
# on each of them.
rust_version=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
toolchains=()
versions=()
if command -v rustup >/dev/null 2>&1; then
    while read -r name _; do
        [ -n "$name" ] || continue
        version=$(RUSTUP_TOOLCHAIN=$name rustc --version 2>/dev/null) || continue
        number=$(printf '%s' "$version" | sed -n 's/^rustc \([0-9]*\.[0-9]*\).*/\1/p')
        [ -n "$number" ] || continue
        if [ "$(printf '%s\n%s\n' "$rust_version" "$number" | sort -V | head -n 1)" != "$rust_version" ]; then
            continue
        fi
        seen=no
        for known in "${versions[@]+"${versions[@]}"}"; do [ "$known" = "$version" ] && seen=yes; done
        [ $seen = yes ] && continue
        toolchains+=("$name")
        versions+=("$version")
    done < <(rustup toolchain list | sed 's/ (.*)//')
fi
if [ ${#toolchains[@]} -eq 0 ]; then
    toolchains=("")
    versions=("$(rustc --version)")
fi
export XSAFE_TOOLCHAINS
XSAFE_TOOLCHAINS=$(IFS=,; printf '%s' "${toolchains[*]}")
for i in "${!toolchains[@]}"; do
    step Toolchain "${toolchains[$i]:-default}: ${versions[$i]}"
done
# Solutions and starters are proven on every toolchain; the variants (two
# thirds of the proofs' time) on the first that is not a nightly, so CI
# stays under 45 minutes. `bash ci/every-toolchain.sh` proves the variants
# on every toolchain too (about 15 more minutes); run it before a release
# and when a case changes.
if [ -z "${XSAFE_VARIANT_TOOLCHAINS:-}" ]; then
    XSAFE_VARIANT_TOOLCHAINS=${toolchains[0]}
    for i in "${!toolchains[@]}"; do
        case "${versions[$i]}" in
            *nightly*) ;;
            *) XSAFE_VARIANT_TOOLCHAINS=${toolchains[$i]}; break ;;
        esac
    done
fi
export XSAFE_VARIANT_TOOLCHAINS
step Variants "graded on ${XSAFE_VARIANT_TOOLCHAINS:-the default toolchain} (every toolchain: bash ci/every-toolchain.sh)"

# Miri interprets the behaviour cases marked `miri = true` (undefined
# behaviour no observation can see): the proofs and the grader use it where
# the machine has it. Install it on the nightly when rustup can.
miri_toolchain=${XSAFE_MIRI_TOOLCHAIN:-nightly}
if command -v rustup >/dev/null 2>&1 && rustup toolchain list | grep -q "^$miri_toolchain"; then
    if ! rustup component list --toolchain "$miri_toolchain" --installed 2>/dev/null | grep -q '^miri'; then
        step Installing "Miri on $miri_toolchain (rustup component add miri rust-src)"
        rustup component add miri rust-src --toolchain "$miri_toolchain" >/dev/null 2>&1 \
            || warn "Miri could not be installed: the cases marked miri run without it"
    fi
    if rustup component list --toolchain "$miri_toolchain" --installed 2>/dev/null | grep -q '^miri'; then
        step Preparing "Miri's standard library (cargo miri setup; about a minute, once)"
        RUSTUP_TOOLCHAIN=$miri_toolchain cargo miri setup >/dev/null 2>&1 \
            || warn "cargo miri setup failed: the cases marked miri run without it"
    fi
else
    warn "no $miri_toolchain toolchain: the cases marked miri run without Miri"
fi

step Checking "formatting (cargo fmt --check)"
cargo fmt --all --check

step Checking "lints (cargo clippy -D warnings)"
cargo clippy --locked --workspace --all-targets --quiet -- -D warnings

# rustdoc checks the error codes of the book's `compile_fail` blocks only
# when allowed nightly features; the wrapper allows them for rustdoc alone.
export RUSTDOC="$root/ci/rustdoc-checking-error-codes"

step Testing "everything but the starters, proofs on ${XSAFE_TOOLCHAINS:-the default toolchain} (cargo test)"
cargo test --locked

step Testing "benchmarks, one quick run each (cargo test --benches)"
cargo test --locked --benches

# The CI templates must be what GitHub and GitLab accept: check-jsonschema
# (PyPI) validates them against the schemas it bundles (SchemaStore's
# GitHub workflow and GitLab CI schemas), offline. It is installed on first
# use into a virtual environment under target/tools, at a pinned version
# (a new release may bundle newer schemas: bump it on purpose).
jsonschema_venv="$root/target/tools/venv"
check_jsonschema="$jsonschema_venv/bin/check-jsonschema"
if ! "$check_jsonschema" --version >/dev/null 2>&1; then
    step Installing "check-jsonschema into target/tools/venv (pip, first run only)"
    t0=$(date +%s)
    { python3 -m venv "$jsonschema_venv" && "$jsonschema_venv/bin/python" -m pip install --quiet "check-jsonschema==0.39.0"; } \
        || { printf '%s%12s%s %s\n' "$red" "error" "$reset" "cannot install check-jsonschema (needs python3 with venv and pip, and PyPI): the CI templates cannot be validated"; exit 1; }
    step Installed "check-jsonschema in $(( $(date +%s) - t0 ))s"
fi
step Checking "the CI templates against GitHub's and GitLab's schemas (check-jsonschema)"
"$check_jsonschema" --builtin-schema vendor.github-workflows ci/templates/github/*.yml
"$check_jsonschema" --builtin-schema vendor.gitlab-ci ci/templates/gitlab/*.yml

# The book's mdbook version is written once, in book/mdbook-version (the
# Pages workflow and `cargo xsafe book --install` read it too).
mdbook_version=$(cat book/mdbook-version)
mdbook="$root/target/tools/bin/mdbook"
if ! "$mdbook" --version 2>/dev/null | grep -q "$mdbook_version"; then
    step Installing "mdbook $mdbook_version into target/tools (first run only)"
    t0=$(date +%s)
    cargo install --locked --quiet mdbook --version "=$mdbook_version" --root "$root/target/tools"
    step Installed "mdbook in $(( $(date +%s) - t0 ))s"
fi
# The chapters' quizzes (book/quizzes) are drawn by mdbook-quiz, whose
# version is written once, in book/mdbook-quiz-version. Every quiz program
# is compiled against its chapter's reference crate, and any answer the
# compiler contradicts fails here, named; book.toml's preprocessor runs the
# same check (warm by then) and hands its verdicts to mdbook-quiz's own
# validator.
mdbook_quiz_version=$(cat book/mdbook-quiz-version)
if ! "$root/target/tools/bin/mdbook-quiz" --version 2>/dev/null | grep -qx "mdbook-quiz $mdbook_quiz_version"; then
    step Installing "mdbook-quiz $mdbook_quiz_version into target/tools (first run only)"
    t0=$(date +%s)
    cargo install --locked --quiet mdbook-quiz --version "=$mdbook_quiz_version" --root "$root/target/tools"
    step Installed "mdbook-quiz in $(( $(date +%s) - t0 ))s"
fi
step Checking "the quizzes' answers against the compiler (xsafe-book-quiz check)"
cargo run --locked --quiet -p xsafe-book-quiz -- check

step Building "the book (mdbook build book)"
"$mdbook" build book

# Every link inside the built book must reach a page, a file or an anchor;
# external links are not fetched (CI may be offline), only listed.
step Checking "the book's internal links and anchors (book/linkcheck)"
site_url=$(sed -n 's/^site-url = "\(.*\)"/\1/p' book/book.toml)
cargo run --locked --quiet -p xsafe-book-linkcheck -- book/book \
    --site-url "${site_url:-/}" --report "$root/target/book-external-links.txt"

# The book as readers get it: every page in headless Chromium (Debian's
# `chromium`, driven by node over the DevTools pipe, no npm packages): no
# console errors, Run buttons exactly on the blocks that run on the
# playground, each chapter's quiz answered (one answer wrong) offline,
# search, figures, 390 px wide pages, 404.html under site-url.
# About 40 s; both programs are installed when missing and the machine
# allows it, else the test is skipped with a warning.
for program in chromium node; do
    command -v "$program" >/dev/null 2>&1 && continue
    package=$program
    [ "$program" = node ] && package=nodejs
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        step Installing "$package (apt-get), for the book's browser test"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 \
                && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null 2>&1; } \
            || warn "$package could not be installed"
    fi
done
if command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
    step Testing "the book in headless Chromium (ci/book-browser-test.mjs)"
    node ci/book-browser-test.mjs book/book book/src "$(command -v chromium)"
else
    warn "chromium or node is missing: the book's browser test was skipped"
fi

step Finished "all checks passed in $(( $(date +%s) - started ))s; grading proven on: $(IFS=';'; printf '%s' "${versions[*]}")"
