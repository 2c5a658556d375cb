#!/usr/bin/env bash
# Measures the learner's first hour from the learner's side, in a terminal
# (tmux) polled every 0.1 s for what the screen shows:
#
#   bash tools/xsafe/measure-first-hour.sh [BRANCH]
#
# It clones BRANCH (default: the current one) of this repository into a
# fresh folder, runs `cargo xsafe` there (cold: the tool and the first
# grade build from nothing), quits, runs it again (warm), then makes five
# one-line edits in exercises/ordered-tree and waits for each re-grade.
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
# Five one-line edits, each timed from the save to the new grade on the
# screen: a comment (edits 1, 3, 5) and a change inside a function body
# (edits 2 and 4, the message of a `todo!`).
set_rs="$dir/exercises/ordered-tree/src/set.rs"
for edit in 1 2 3 4 5; do
    sleep 1
    start=$(now)
    case $edit in
        2) sed -i 's/todo!("OrderedSet::first")/todo!("OrderedSet::first, to do")/' "$set_rs" ;;
        4) sed -i 's/todo!("OrderedSet::first, to do")/todo!("OrderedSet::first")/' "$set_rs" ;;
        *) echo "// a one-line edit" >> "$dir/exercises/ordered-tree/src/lib.rs" ;;
    esac
    echo "warm: re-grade after one-line edit $edit $(wait_for "Grade $(( edit + 1 )) took" 600)"
done
tmux capture-pane -p -t "$session" | grep 'took' || true
quit_tool
echo "load: $(uptime)"
