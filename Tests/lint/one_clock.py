#!/usr/bin/env python3
"""Fails when library code reads time other than through the one clock, `LoopClock` (Net).

Every deadline, interval, expiry, rate window and "now" in library code reads
`LoopClock.current`, so a test runs it under a `ManualClock` and moves its time (Tests/README.md,
"Time the tests control"). Refused outside the clock's home: `ContinuousClock.now`, an implicit
`.now` of an instant, `Date()`/`Date.now`, `Task.sleep`, `wallClockSeconds()`, and timers armed
on `EventLoop.shared` directly.

The simulators, the harness, the benchmark and `tvsim` pace real traffic and are not checked;
neither are the clock's home (Net/LoopClock.swift, Net/ManualClock.swift, the event loop's own
thread in Net/EventLoop.swift) and the logger's timestamps (Support), which say when a line was
written. Tests/run.sh runs this check before `swift test`.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIPPED = (
    "Sources/tvbench/",
    "Sources/tvsim/",
    "Sources/TVSimulators/",
    "Sources/Harness/",
    "Sources/Support/",
    "Sources/Net/LoopClock.swift",
    "Sources/Net/ManualClock.swift",
    "Sources/Net/EventLoop.swift",
    "Sources/StatusPage/Assets/",  # the page's JavaScript reads the browser's clock
)
READS = [
    (re.compile(r"\bContinuousClock\.now\b|\bContinuousClock\(\)"), "ContinuousClock read directly"),
    (re.compile(r"(?<![\w)\].])\.now\b(?!\()"), "an implicit .now"),
    (re.compile(r"\bDate\(\)|\bDate\.now\b"), "Date read directly"),
    (re.compile(r"\bTask\.sleep\b"), "Task.sleep"),
    (re.compile(r"\bwallClockSeconds\(\)"), "wallClockSeconds() read directly"),
    (re.compile(r"\bEventLoop\.shared\.schedule\b"), "a timer armed on the loop directly"),
]


def code(line: str) -> str:
    """The line without its comment or string literals."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def main() -> int:
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(SKIPPED):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = code(line)
            for pattern, what in READS:
                if pattern.search(text):
                    found.append(f"{relative}:{number}: {what}; read LoopClock.current (Sources/Net/LoopClock.swift)")
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} clock read(s) outside the one clock; see Tests/README.md#time-the-tests-control")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
