#!/usr/bin/env python3
"""Checks that every relative link and anchor in the repository's Markdown files resolves.

A link `[text](path)`, `[text](path#anchor)`, `[text](#anchor)`, a reference definition
`[name]: path` and an HTML `src="…"`/`href="…"` must name a file or folder that exists
(relative to the Markdown file), and an anchor must be a heading of the file it points into,
slugged the way GitHub does (lower case; punctuation other than `-` and `_` dropped; spaces
become `-`; a repeated heading gets `-1`, `-2`, …) or an explicit `<a id="…">`/`name="…"`.
A link whose text is wrapped onto the next line of its paragraph is checked too. Links
inside code (fenced blocks and `code spans`) are text, not links, and are skipped, as are
`http(s):`, `mailto:` and other absolute URLs. Prints `file:line: …` for each broken link and
exits 1 when there is any.
Run from anywhere: `python3 Tests/lint/markdown_links.py` (Tests/run.sh runs it).
"""
import os
import re
import sys
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SKIP_DIRS = {".build", ".git", ".swiftpm", "node_modules"}

INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"""<a\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def markdown_files():
    for directory, subdirectories, files in os.walk(ROOT):
        subdirectories[:] = sorted(d for d in subdirectories if d not in SKIP_DIRS)
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(directory, name)


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker
                continue
            if marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
                continue
        if fence is None:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text)  # HTML tags
    text = text.replace("`", "").lower()
    kept = []
    for character in text:
        category = unicodedata.category(character)
        if character in "-_" or category[0] in "LN" or category == "Mn":
            kept.append(character)
        elif character == " ":
            kept.append("-")
    return "".join(kept)


def anchors(path, cache={}):
    """Every anchor a Markdown file offers: its headings' slugs and explicit ids."""
    if path not in cache:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        found, seen = set(), {}
        for _, line in prose_lines(text):
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
            found.update(HTML_ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def targets(line):
    """The link targets written on one line of prose, code spans left out."""
    prose = CODE_SPAN.sub("", line)
    found = INLINE_LINK.findall(prose) + HTML_LINK.findall(prose)
    definition = REFERENCE_DEFINITION.match(prose)
    if definition:
        found.append(definition.group(1))
    return found


def problem(source, target):
    """Why `target`, written in `source`, does not resolve; None when it does."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
        return None  # an absolute URL (https:, mailto:, …): not checked here
    path_part, _, anchor = target.partition("#")
    path_part = path_part.split("?")[0]
    if path_part:
        resolved = os.path.normpath(os.path.join(os.path.dirname(source), path_part))
        if not resolved.startswith(ROOT):
            return f"'{target}' points outside the repository"
        if not os.path.exists(resolved):
            return f"'{target}': no such file or folder"
    else:
        resolved = source
    if anchor:
        if not resolved.endswith(".md") or os.path.isdir(resolved):
            return f"'{target}': an anchor into something that is not a Markdown file"
        if anchor not in anchors(resolved):
            return f"'{target}': {os.path.relpath(resolved, ROOT)} has no heading with the anchor #{anchor}"
    return None


def links(text):
    """(line number, target) of every link in the prose of `text`, also those whose text is
    wrapped over two lines of a paragraph."""
    found = []
    paragraph = []
    for number, line in list(prose_lines(text)) + [(0, "")]:
        if line.strip() and (not paragraph or paragraph[-1][0] == number - 1):
            found += [(number, target) for target in targets(line)]
            paragraph.append((number, line))
            continue
        joined = "\n".join(CODE_SPAN.sub("", text_line) for _, text_line in paragraph)
        for match in INLINE_LINK.finditer(joined):
            if "\n" in match.group(0):
                found.append((paragraph[0][0] + joined.count("\n", 0, match.start()), match.group(1)))
        paragraph = [(number, line)] if line.strip() else []
        if line.strip():
            found += [(number, target) for target in targets(line)]
    return found


def main():
    broken = 0
    checked = 0
    for path in markdown_files():
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for number, target in links(text):
            checked += 1
            why = problem(path, target)
            if why:
                broken += 1
                print(f"{os.path.relpath(path, ROOT)}:{number}: broken link {why}")
    if broken:
        print(f"{broken} broken link(s) of {checked} in Markdown files", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
