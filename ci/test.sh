#!/usr/bin/env bash
# Runs every check of the course, as CI does: formatting, lints, all tests
# (grading proofs, book examples, unit tests, a smoke run of the benchmarks),
# and a build of the book with the real mdbook.
#
#   bash ci/test.sh
#
# It needs only the Rust toolchain: mdbook is installed on first use into
# target/tools (rebuilt from crates.io, so safe to delete with target/).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [ -t 1 ]; then bold=$'\e[1;32m'; red=$'\e[1;31m'; reset=$'\e[0m'; else bold=; red=; reset=; fi
started=$(date +%s)
step() { printf '%s%12s%s %s\n' "$bold" "$1" "$reset" "$2"; }
trap 'status=$?; [ $status -eq 0 ] || printf "%s%12s%s ci/test.sh failed (exit %d) after %ds\n" "$red" "error" "$reset" "$status" "$(( $(date +%s) - started ))"' EXIT

step Checking "formatting (cargo fmt --check)"
cargo fmt --all --check

step Checking "lints (cargo clippy -D warnings)"
cargo clippy --locked --workspace --all-targets --quiet -- -D warnings

# rustdoc checks the error codes of the book's `compile_fail` blocks only
# when allowed nightly features; the wrapper allows them for rustdoc alone.
export RUSTDOC="$root/ci/rustdoc-checking-error-codes"

step Testing "everything but the starters (cargo test)"
cargo test --locked

step Testing "benchmarks, one quick run each (cargo test --benches)"
cargo test --locked --benches

mdbook_version=0.5.4
mdbook="$root/target/tools/bin/mdbook"
if ! "$mdbook" --version 2>/dev/null | grep -q "$mdbook_version"; then
    step Installing "mdbook $mdbook_version into target/tools (first run only)"
    t0=$(date +%s)
    cargo install --locked --quiet mdbook --version "=$mdbook_version" --root "$root/target/tools"
    step Installed "mdbook in $(( $(date +%s) - t0 ))s"
fi
step Building "the book (mdbook build book)"
"$mdbook" build book

step Finished "all checks passed in $(( $(date +%s) - started ))s"
