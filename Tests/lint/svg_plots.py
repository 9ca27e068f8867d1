#!/usr/bin/env python3
"""Checks the plots `tvbench --svg DIR` draws: both files are there, parse as XML, are SVG
documents with a size, and hold what they plot (a box per series; a point per fleet size).
Usage: `python3 Tests/lint/svg_plots.py DIR` (default: the committed Sources/tvbench/plots).
Tests/run.sh runs it on the committed plots, .ci/run on the ones its quick benchmark drew.
"""
import os
import sys
import xml.etree.ElementTree as ElementTree

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SVG = "{http://www.w3.org/2000/svg}"
# Each plot, and the elements it cannot be without: boxes (rect) or points (circle).
PLOTS = {"command-latency.svg": "rect", "fleet.svg": "circle"}


def check(path, shape):
    """Why the plot at `path` is not a valid one; None when it is."""
    if not os.path.isfile(path):
        return "missing"
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        return f"not valid XML: {error}"
    if root.tag != SVG + "svg":
        return f"the root element is {root.tag}, not svg"
    if not root.get("width") or not root.get("height") or not root.get("viewBox"):
        return "the svg element has no width, height or viewBox"
    # The background is one rect; a plot has more of its shape than that.
    if len(root.findall(f".//{SVG}{shape}")) < 3:
        return f"fewer than 3 {shape} elements: nothing plotted"
    if not root.findall(f".//{SVG}text"):
        return "no text: no axes or labels"
    return None


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Sources", "tvbench", "plots")
    failures = 0
    for name, shape in PLOTS.items():
        path = os.path.join(directory, name)
        why = check(path, shape)
        if why:
            failures += 1
            print(f"{path}: {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
