#!/usr/bin/env python3
"""Fails when a closure literal appears inside the parentheses of #expect(...) or #require(...).

Why: with Swift 6.3.1 on Linux, a closure written inside an #expect/#require argument, in a
test body that is itself a closure (withBridgeFixture { fixture in ... }), can share its
compiled body with the next closure literal of that enclosing closure. The later closure then
silently runs the earlier one's code, and an assertion passes without checking anything
(seen here: `#expect(await f { $0 == a } != nil)` followed by `let x = await f { $0 == b }`
made the second call test `== a`). Compute the value first, then assert on it:

    let online = await log.waitFor(topic) { $0.text == "online" }
    #expect(online != nil)

A trailing closure after the macro's parentheses (#expect(throws: E.self) { ... }) is fine.
Tests/run.sh runs this check before `swift test`.
"""

import pathlib
import sys

MACROS = ("#expect(", "#require(")


def argument(text: str, start: int) -> str:
    """The text between the macro's '(' at start-1 and its matching ')', strings skipped."""
    depth, i, out = 1, start, []
    in_string = False
    while i < len(text) and depth > 0:
        c = text[i]
        if in_string:
            if c == "\\" and i + 1 < len(text) and text[i + 1] == "(":
                # string interpolation: skip to its closing parenthesis
                j, d = i + 2, 1
                while j < len(text) and d > 0:
                    d += {"(": 1, ")": -1}.get(text[j], 0)
                    j += 1
                i = j
                continue
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
        elif c == "{":
            out.append(i)
        i += 1
    return out


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[1]
    problems = []
    for path in sorted(root.rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for macro in MACROS:
            position = text.find(macro)
            while position != -1:
                braces = argument(text, position + len(macro))
                if braces:
                    line = text.count("\n", 0, position) + 1
                    problems.append(f"{path.relative_to(root.parent)}:{line}: closure inside {macro[:-1]}(...)")
                position = text.find(macro, position + 1)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} closure(s) inside #expect/#require; compute the value first (see {__file__})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
