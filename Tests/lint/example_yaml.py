#!/usr/bin/env python3
"""Checks that every YAML file under examples/ parses (PyYAML's safe loader).

Which entity ids the examples may name is checked by the Swift suite
(Tests/HomeAssistantTests/ExampleYAMLTests.swift); this only catches broken YAML. Without
PyYAML installed the check says so and passes.
"""

import pathlib
import sys

try:
    import yaml
except ImportError:
    print("example_yaml: PyYAML is not installed; YAML syntax not checked", file=sys.stderr)
    sys.exit(0)

root = pathlib.Path(__file__).resolve().parents[2]
failures = 0
for path in sorted((root / "examples").rglob("*.yaml")):
    try:
        yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        failures += 1
        print(f"{path.relative_to(root)}: {error}")
sys.exit(1 if failures else 0)
