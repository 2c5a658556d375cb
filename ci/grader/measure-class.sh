#!/usr/bin/env bash
# Measures `xsafe-grader --class` on a generated class: N submissions
# (default 40) of every exercise, a mix like a real class: half full
# marks (the reference solutions), a quarter starters, a quarter broken
# (a full solution with one exercise that does not compile). Grades the
# class cold (fresh work and target folders) and then warm, and prints the
# times and the cost per extra submission with the machine's load.
#
#   bash ci/grader/measure-class.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
n=${1:-40}
base=$root/target/xsafe/measure-class
rm -rf "$base"
mkdir -p "$base/class"

. ci/grader/make-class.sh
make_class "$base/class" "$n"

cargo build --quiet --locked --package xsafe-grader
grader=$root/target/debug/xsafe-grader
run() {
    local label=$1
    local started
    started=$(date +%s.%N)
    "$grader" "$base/class" --class --gradebook "$base/gradebook-$label" \
        --work-dir "$base/work" --target-dir "$base/build" --seed 0x5eed 2>/dev/null | tail -n 1
    awk -v a="$started" -v b="$(date +%s.%N)" -v n="$n" -v l="$label" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" \
        'BEGIN { printf "%s: %.0f s for %d submissions, %.1f s each (load %s)\n", l, b - a, n, (b - a) / n, load }'
}
echo "machine: $(nproc) cores, $(rustc --version)"
run cold
run warm
