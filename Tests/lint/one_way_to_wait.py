#!/usr/bin/env python3
"""Fails when library code waits in a way the project replaced (Sources/README.md, "Waiting").

A sleeping task as a deadline or a timeout race: a `Task { … }` or `group.addTask { … }` whose
body starts by sleeping. It holds a task for the whole wait; a deadline is a loop timer
(`EventLoop.shared.startTask(at:)`) and a timeout is `withDeadline`. (`Task.sleep` itself is
refused by the suite "Sources sleep on the event loop", Tests/NetTests/EventLoopSleepTests.swift.)

Only Sources/ is checked, apart from the benchmark (tvbench) and the simulators, which pace
their own traffic. Tests/run.sh runs this check before `swift test`.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIPPED = ("Sources/tvbench/", "Sources/TVSimulators/")
OPENER = re.compile(r"(\bTask\s*(\([^)]*\))?\s*\{|\.addTask\s*(\([^)]*\))?\s*\{)\s*(\[[^\]]*\]\s*in)?\s*$")
SLEEP = re.compile(r"^\s*(try\??\s+)?await\s+(EventLoop|Task)\.sleep\b")


def code(line: str) -> str:
    return line.split("//", 1)[0]


def problems(path: pathlib.Path, relative: str) -> list[str]:
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        text = code(line)
        if OPENER.search(text):
            following = [code(next_line) for next_line in lines[number : number + 2]]
            body = [next_line for next_line in following if next_line.strip()]
            if body and SLEEP.search(body[0]):
                found.append(
                    f"{relative}:{number}: a task that starts by sleeping (a deadline is a loop timer,"
                    " a timeout is withDeadline)"
                )
    return found


def main() -> int:
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(SKIPPED):
            continue
        found += problems(path, relative)
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} wait(s) outside the five primitives; see Sources/README.md#waiting-five-primitives-which-to-use-when")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
