#!/usr/bin/env python3
"""Checks that deploy/check-image/bashio.sh, the stand-in for Home Assistant's base image that
deploy/check-image.sh starts the add-on on, defines every bashio function the add-on's run.sh
calls: one it lacks only shows when the add-on fails to start at the end of CI's image check.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUN = ROOT / "deploy/homeassistant-addon/run.sh"
STANDIN = ROOT / "deploy/check-image/bashio.sh"

called = set(re.findall(r"\bbashio::[\w.]+", RUN.read_text()))
defined = set(re.findall(r"^(bashio::[\w.]+)\(\)", STANDIN.read_text(), re.MULTILINE))
missing = sorted(called - defined)
for name in missing:
    print(f"{STANDIN.relative_to(ROOT)}: no {name}, which {RUN.relative_to(ROOT)} calls")
sys.exit(1 if missing else 0)
