#!/usr/bin/env python3
"""Measures the learner's first hour from the learner's side.

    python3 tools/xsafe/measure-first-hour.py [--branch BRANCH] [--solved]
        [--exercise NAME] [--edits N]

It clones BRANCH (default: the current one) of this repository into a
fresh folder and runs `cargo xsafe` there in a pseudo-terminal of its own
(120 x 45): cold (the tool and the first grade build from nothing), then,
after quitting, warm. Then it makes one-line edits in the exercise (five
by default): a comment added to `src/lib.rs` (odd edits) and a change of
code (even edits: a `todo!` message in a function body, or with --solved,
where no `todo!` is left, a constant added to `src/lib.rs`), each once the
screen has been still for a second, and times each from the save to the
moment the new grade's screen reaches the terminal.

The terminal is read as the tool writes to it (no polling): each time is
when the bytes that show the grade arrived, to the millisecond, and the
measuring costs the machine nothing while the tool grades. (An earlier
version polled tmux every 0.1 s with three processes a poll, which took a
third of a core from the grade it timed.)

With --solved, the exercise's reference solution is copied over the
starter first (after the cold start), so the edits are made where every
case passes: the quick screen, then the long cases. The time reported is
then the quick screen's (the first screen showing the new grade).

Prints seconds for each point and the load average. With
XSAFE_TIMINGS_TO=FILE, the tool's phase times (XSAFE_TIMINGS) go to FILE. Needs python3 and
git; leaves the clone in a temporary folder it names.
"""

import argparse
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Tool:
    """`cargo xsafe` in a pseudo-terminal, its output kept as plain text."""

    def __init__(self, course):
        self.started = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(course)
            os.environ["TERM"] = "xterm-256color"
            timings = os.environ.get("XSAFE_TIMINGS_TO")
            if timings:
                # The grade's phase times, for a look at where they go.
                os.environ["XSAFE_TIMINGS"] = "1"
                os.dup2(os.open(timings, os.O_WRONLY | os.O_CREAT | os.O_APPEND), 2)
            else:
                os.environ.pop("XSAFE_TIMINGS", None)
            os.execvp("cargo", ["cargo", "xsafe"])
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 120, 0, 0))
        os.kill(pid, signal.SIGWINCH)
        self.pid, self.fd = pid, fd
        self.text = b""

    def read(self, timeout):
        """Reads what arrives within `timeout` s; returns when it arrived."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            raise EOFError
        self.text += ANSI.sub(b" ", chunk)
        return time.monotonic()

    def wait_for(self, pattern, since, limit):
        """Seconds from `since` until `pattern` shows in what was written
        since `begin`, or None after `limit` s."""
        regex = re.compile(pattern.encode())
        while True:
            if regex.search(self.text, self.mark):
                return time.monotonic() - since
            left = since + limit - time.monotonic()
            if left <= 0:
                return None
            arrived = self.read(min(left, 1.0))
            if arrived is not None and regex.search(self.text, self.mark):
                return arrived - since

    def settle(self, quiet=1.0):
        """Waits until nothing is written for `quiet` s."""
        while self.read(quiet) is not None:
            pass

    def begin(self):
        """What is written from now on is what `wait_for` looks at."""
        self.mark = len(self.text)

    def quit(self):
        os.write(self.fd, b"q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.read(0.5) is None and os.waitpid(self.pid, os.WNOHANG)[0]:
                    break
            except EOFError:
                break
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def load():
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def seconds(value):
    return "not seen" if value is None else f"{value:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--branch")
    parser.add_argument("--exercise", default="ordered-tree")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--solved", action="store_true")
    parser.add_argument(
        "--course", help="an earlier run's clone: no clone, no cold start"
    )
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    repo = subprocess.check_output(
        ["git", "-C", here, "rev-parse", "--show-toplevel"], text=True
    ).strip()
    branch = args.branch or subprocess.check_output(
        ["git", "-C", repo, "rev-parse", "--abbrev-ref", "HEAD"], text=True
    ).strip()
    if args.course:
        course = args.course
        print(f"course: {course}")
    else:
        course = os.path.join(tempfile.mkdtemp(), "course")
        subprocess.check_call(["git", "clone", "-q", "-b", branch, repo, course])
        print(f"clone: {course} ({branch})")
        print(f"{load()}")
        tool = Tool(course)
        tool.begin()
        print(f"cold: first screen   {seconds(tool.wait_for('Exercise 1 of', tool.started, 1200))}")
        print(f"cold: first grade    {seconds(tool.wait_for(r'Grade 1 took', tool.started, 1800))}")
        tool.settle()
        tool.quit()
    exercise = os.path.join(course, "exercises", args.exercise)
    if args.solved:
        solution = os.path.join(course, "solutions", args.exercise, "src")
        shutil.copytree(solution, os.path.join(exercise, "src"), dirs_exist_ok=True)
    print(f"{load()}")

    tool = Tool(course)
    tool.begin()
    print(f"warm: first screen   {seconds(tool.wait_for('Exercise 1 of', tool.started, 600))}")
    print(f"warm: first grade    {seconds(tool.wait_for(r'Grade 1 took', tool.started, 600))}")
    tool.settle(2.0)
    lib = os.path.join(exercise, "src", "lib.rs")
    todo = re.compile(r'todo!\("([^"]*)"\)')
    body_file = None
    for root, _, files in os.walk(os.path.join(exercise, "src")):
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.endswith(".rs") and todo.search(open(path).read()):
                body_file = body_file or path
    took = []
    for edit in range(1, args.edits + 1):
        tool.settle(1.0)
        tool.begin()
        if edit % 2 == 0 and body_file and not args.solved:
            source = open(body_file).read()
            source = todo.sub(lambda m: f'todo!("{m.group(1)}, edit {edit}")', source, count=1)
            start = time.monotonic()
            open(body_file, "w").write(source)
        elif edit % 2 == 0:
            source = open(lib).read()
            source += f"\nconst _: u32 = {edit};\n"
            start = time.monotonic()
            open(lib, "w").write(source)
        else:
            start = time.monotonic()
            with open(lib, "a") as file:
                file.write(f"// a one-line edit, {edit}\n")
        # The first screen that shows the new grade: its quick part when
        # the grade goes on with its long cases, else the grade's end.
        shown = tool.wait_for(rf"Grade {edit + 1} took|Running the long cases", start, 600)
        took.append(shown)
        print(f"warm: edit {edit} to screen  {seconds(shown)}")
    tool.settle(3.0)
    tail = tool.text.decode("utf-8", "replace")
    for line in re.findall(r"Grade \d+ took [^;]*", tail)[-3:]:
        print(f"  the tool's count: {line}")
    tool.quit()
    seen = [value for value in took if value is not None]
    if seen:
        print(f"edits: {min(seen):.2f} to {max(seen):.2f} s from save to screen")
    print(f"{load()}")


if __name__ == "__main__":
    sys.exit(main())
