#!/usr/bin/env python3
"""Checks that the Home Assistant add-on's default options (deploy/homeassistant-addon/config.yaml)
are exactly deploy/homeassistant-addon/options.json, which the Swift suite runs through
`tv2mqtt check-config` (Tests/EndToEndTests/ExampleConfigTests.swift): so the options the
Supervisor writes to /data/options.json are a configuration tv2mqtt accepts. Without PyYAML
the check says so and passes.
"""

import json
import pathlib
import sys

try:
    import yaml
except ImportError:
    print("addon_options: PyYAML is not installed; add-on options not checked", file=sys.stderr)
    sys.exit(0)

addon = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "homeassistant-addon"
config = yaml.safe_load((addon / "config.yaml").read_text(encoding="utf-8"))
expected = json.loads((addon / "options.json").read_text(encoding="utf-8"))
if config.get("options") != expected:
    print("deploy/homeassistant-addon: config.yaml's options differ from options.json")
    print("config.yaml:  " + json.dumps(config.get("options"), sort_keys=True))
    print("options.json: " + json.dumps(expected, sort_keys=True))
    sys.exit(1)
missing = set(expected) - set(config.get("schema", {}))
if missing:
    print(f"deploy/homeassistant-addon: options without a schema entry: {sorted(missing)}")
    sys.exit(1)
