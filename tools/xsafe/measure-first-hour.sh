#!/usr/bin/env bash
# Measures the learner's first hour from the learner's side, in a terminal
# (tmux) polled every 0.1 s for what the screen shows:
#
#   bash tools/xsafe/measure-first-hour.sh [BRANCH]
#
# It clones BRANCH (default: the current one) of this repository into a
# fresh folder, runs `cargo xsafe` there (cold: the tool and the first
# grade build from nothing), quits, runs it again (warm), then appends a
# line to exercises/ordered-tree/src/lib.rs and waits for the re-grade.
# Prints seconds since `cargo xsafe` started for each point, and the load
# average (other work on the machine slows every number). Needs tmux and
# python3; leaves the clone in a temporary folder it names.
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
branch=${1:-$(git -C "$repo" rev-parse --abbrev-ref HEAD)}
dir=$(mktemp -d)/course
git clone -q -b "$branch" "$repo" "$dir"
session=xsafe-measure-$$
now() { python3 -c 'import time; print(time.time())'; }
wait_for() { # TEXT LIMIT: seconds since $start when the screen shows TEXT
    while ! tmux capture-pane -p -t "$session" 2>/dev/null | grep -qF -- "$1"; do
        if python3 -c "import sys,time; sys.exit(0 if time.time()-$start > $2 else 1)"; then
            echo "not within $2 s"; return 0
        fi
        sleep 0.1
    done
    python3 -c "import time; print(f'{time.time()-$start:.1f} s')"
}
start_tool() {
    start=$(now)
    tmux new-session -d -s "$session" -x 120 -y 45 "cd '$dir' && cargo xsafe; sleep 3600"
}
quit_tool() {
    tmux send-keys -t "$session" q
    sleep 1
    tmux kill-session -t "$session"
}
echo "clone: $dir ($branch)"
echo "load: $(uptime)"
start_tool
echo "cold: first output   $(wait_for 'cargo xsafe' 60)"
echo "cold: first screen   $(wait_for 'Exercise 1 of' 1200)"
echo "cold: first grade    $(wait_for 'Grade 1 took' 1800)"
tmux capture-pane -p -t "$session" | grep 'Grade 1 took' || true
quit_tool
echo "load: $(uptime)"
start_tool
echo "warm: first screen   $(wait_for 'Exercise 1 of' 600)"
echo "warm: first grade    $(wait_for 'Grade 1 took' 600)"
sleep 1
start=$(now)
echo "// a one-line edit" >> "$dir/exercises/ordered-tree/src/lib.rs"
echo "warm: re-grade after a one-line edit $(wait_for 'Grade 2 took' 600)"
tmux capture-pane -p -t "$session" | grep 'Grade 2 took' || true
quit_tool
echo "load: $(uptime)"
