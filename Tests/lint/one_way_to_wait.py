#!/usr/bin/env python3
"""Fails when library code waits in a way the project replaced (Sources/README.md, "Waiting").

1. A sleeping task as a deadline or a timeout race: a `Task { … }`, `group.addTask { … }` or the
   bridge's `spawn { … }` whose body starts by sleeping. It holds a task for the whole wait; a
   deadline is a loop timer (`LoopClock.current.startTask(at:)`) and a timeout is `withDeadline`.
2. A `while` or `repeat` loop that sleeps: a poll of a condition with short naps, which is a
   `Wakeup` its changes signal, or a task sleeping in a loop before it acts, which is a loop
   timer armed again. A loop that must pace itself (asking a TV that tells nothing when it
   changes, a reconnect backoff, a ping interval) says why on the sleep's line:
   `// paced: <why>`.

(`Task.sleep` itself is refused by the suite "Sources sleep on the event loop",
Tests/NetTests/EventLoopSleepTests.swift.)

Only Sources/ is checked, apart from the benchmark (tvbench) and the simulators, which pace
their own traffic. Tests/run.sh runs this check before `swift test`.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIPPED = ("Sources/tvbench/", "Sources/TVSimulators/")
OPENER = re.compile(
    r"(\bTask\s*(\([^)]*\))?\s*\{|\.addTask\s*(\([^)]*\))?\s*\{|\bspawn\s*\{)\s*(\[[^\]]*\]\s*in)?\s*$"
)
SLEEP = re.compile(r"^\s*(try\??\s+)?await\s+(EventLoop|Task)\.sleep\b")
SLEEP_CALL = re.compile(r"\b(EventLoop|Task)\.sleep\(")
LOOP = re.compile(r"(?<![\w.])(while|repeat)\b")
PACED = re.compile(r"//\s*paced:\s*\S")


def code(line: str) -> str:
    """The line without its comment or string literals (one line's worth)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def code_lines(lines: list[str]) -> list[str]:
    """Each line as code only; the lines of a multi-line string literal become empty."""
    result = []
    in_block = False
    for line in lines:
        if in_block:
            if '"""' in line:
                in_block = False
            result.append("")
            continue
        if line.count('"""') % 2 == 1:
            in_block = True
            result.append(code(line.split('"""', 1)[0]))
            continue
        result.append(code(line))
    return result


def sleeping_tasks(lines: list[str], codes: list[str], relative: str) -> list[str]:
    found = []
    for number, text in enumerate(codes, 1):
        if OPENER.search(text):
            body = [next_line for next_line in codes[number : number + 2] if next_line.strip()]
            if body and SLEEP.search(body[0]):
                found.append(
                    f"{relative}:{number}: a task that starts by sleeping (a deadline is a loop timer,"
                    " a timeout is withDeadline)"
                )
    return found


def loop_bodies(codes: list[str]) -> list[tuple[int, int]]:
    """The (first, last) line indexes of each `while`/`repeat` loop's braces. A `while` right
    after a `}` is a repeat loop's condition, not a loop of its own."""
    text = "\n".join(codes)
    starts = [0]
    for line in codes:
        starts.append(starts[-1] + len(line) + 1)

    def line_of(offset: int) -> int:
        low, high = 0, len(codes) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low

    bodies = []
    for match in LOOP.finditer(text):
        before = text[: match.start()].rstrip()
        if match.group(1) == "while" and before.endswith("}"):
            continue
        opening = text.find("{", match.end())
        if opening < 0:
            continue
        depth = 0
        for offset in range(opening, len(text)):
            if text[offset] == "{":
                depth += 1
            elif text[offset] == "}":
                depth -= 1
                if depth == 0:
                    bodies.append((line_of(opening), line_of(offset)))
                    break
    return bodies


def sleeping_loops(lines: list[str], codes: list[str], relative: str) -> list[str]:
    flagged = set()
    for first, last in loop_bodies(codes):
        for index in range(first, last + 1):
            if SLEEP_CALL.search(codes[index]) and not PACED.search(lines[index]):
                flagged.add(index)
    return [
        f"{relative}:{index + 1}: a loop that sleeps (a condition is a Wakeup its changes signal, a"
        " repeated deadline a loop timer; a loop that must pace itself says why: // paced: …)"
        for index in sorted(flagged)
    ]


def problems(path: pathlib.Path, relative: str) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    codes = code_lines(lines)
    return sleeping_tasks(lines, codes, relative) + sleeping_loops(lines, codes, relative)


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
