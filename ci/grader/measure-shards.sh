#!/usr/bin/env bash
# Measures one runner of a sharded class (`--class --shard K/N`), to compute
# how long a class takes on N runners (the instructors' appendix, "How long
# it takes"). On a generated class of N submissions (default 8) of every
# exercise, half the reference solutions, a quarter starters, a quarter
# with one exercise that does not compile (as measure-class.sh), it times:
#
#   1. the runner's setup without a cache: building the grader into an
#      empty target folder (skipped with SKIP_BUILD=1);
#   2. the shard with nothing built (fresh work and target folders): what a
#      runner without the cache pays;
#   3. the shard again on *other* submissions (each file changed), with the
#      target folder of step 2 and a fresh work folder: a runner whose cache
#      holds the course's builds, grading students it has never seen;
#   4. the merge of the part.
#
# and prints each student's time, the means, and the machine's load.
#
#   bash ci/grader/measure-shards.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
n=${1:-8}
base=$root/target/xsafe/measure-shards
rm -rf "$base"
mkdir -p "$base"
load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

. ci/grader/make-class.sh

echo "machine: $(nproc) cores, $(rustc --version), load $(load)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    t=$(now)
    cargo build --quiet --locked --package xsafe-grader --target-dir "$base/grader-cold"
    echo "setup, the grader built from nothing: $(since "$t") s (load $(load))"
    rm -rf "$base/grader-cold"
fi
cargo build --quiet --locked --package xsafe-grader
grader=$root/target/debug/xsafe-grader

shard() {
    local label=$1 class=$2
    local t
    t=$(now)
    # As the CI templates run it: without the job cache (a runner grades
    # each submission once).
    "$grader" "$class" --class --shard 1/1 --seed 0x5eed --job-cache-size 0 --gradebook "$base/part-$label" \
        --work-dir "$base/work-$label" --target-dir "$base/build" 2>"$base/$label.log" >/dev/null
    local total
    total=$(since "$t")
    echo "$label: $total s for $n submissions (load $(load)); each:" \
        "$(sed -n 's/.* in \([0-9]*\)s (.*/\1/p' "$base/$label.log" | tr '\n' ' ')"
    awk -v t="$total" -v n="$n" -v l="$label" 'BEGIN { printf "%s: %.1f s per submission on average\n", l, t / n }'
}
make_class "$base/class-a" "$n" a
make_class "$base/class-b" "$n" b
shard cold "$base/class-a"
shard cached "$base/class-b"
mkdir -p "$base/parts"
cp -r "$base/part-cached" "$base/parts/shard-1"
t=$(now)
"$grader" "$base/parts" --merge --gradebook "$base/merged" >/dev/null
echo "merge: $(since "$t") s"
