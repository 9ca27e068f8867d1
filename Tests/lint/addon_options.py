#!/usr/bin/env python3
"""Checks the Home Assistant add-on's config.yaml (deploy/homeassistant-addon):

- its default options are exactly options.json, which the Swift suite runs through
  `tv2mqtt check-config` (Tests/EndToEndTests/CommandLine/ExampleConfigTests.swift): so the options the
  Supervisor writes to /data/options.json are a configuration tv2mqtt accepts;
- its schema has every configuration key of the README's configuration table (tvs[]'s keys
  included) but those in LEFT_OUT, which say why, and no key tv2mqtt does not have;
- its `kind` list has every kind the README's tvs[] row names;
- every section the schema has is in the options (the Supervisor has no optional sections).

Without PyYAML the check says so and passes.
"""

import json
import pathlib
import re
import sys

# Configuration keys the add-on's schema leaves out, and why.
SUPERVISOR_BROKER = "the broker and its credentials are the Supervisor's (run.sh)"
NO_OPTIONAL_SECTION = "a section the options leave out, and the Supervisor has no optional sections"
FREE_NAMES = "a map of names the user chooses, which the Supervisor's schema has no type for"
LEFT_OUT = {
    "mqtt.server": SUPERVISOR_BROKER,
    "mqtt.user": SUPERVISOR_BROKER,
    "mqtt.password": SUPERVISOR_BROKER,
    "mqtt.client_id": SUPERVISOR_BROKER,
    "mqtt.keepalive": SUPERVISOR_BROKER,
    "mqtt.ca": SUPERVISOR_BROKER,
    "mqtt.cert": SUPERVISOR_BROKER,
    "mqtt.key": SUPERVISOR_BROKER,
    "mqtt.reject_unauthorized": SUPERVISOR_BROKER,
    "state_dir": "run.sh keeps the state in /data, which add-on updates and backups keep",
    "http.listen": "run.sh serves the status page on the ingress port",
    "http.token": "only the ingress gateway is served (http.allow_from), which authenticates users",
    "http.allow_from": "run.sh sets it to the ingress gateway",
    "http.hosts": "the page is reached only through ingress",
    "add_tv.allow_loopback": NO_OPTIONAL_SECTION + " (it is for simulated TVs)",
    "add_tv.ports": NO_OPTIONAL_SECTION,
    "samsung.apps": FREE_NAMES,
    "samsung.inputs": FREE_NAMES,
    "androidtv.apps": FREE_NAMES,
    "tvs[].inputs": FREE_NAMES,
}

ROOT = pathlib.Path(__file__).resolve().parents[2]
IDENTIFIER = re.compile(r"`([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)`")


def readme_keys():
    """The README's configuration keys (`tvs[].host` for tvs[]'s) and the kinds its tvs[] row names."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Configuration", 1)[1].split("\n## ", 1)[0]
    keys, kinds = set(), set()
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) < 5 or not cells[1].startswith("`"):
            continue
        if cells[1] == "`tvs[]`":
            description = cells[4]
            kind_list = re.search(r"`kind` \(([^)]*)\)", description)
            kinds = set(re.findall(r"`([a-z-]+)`", kind_list.group(1))) if kind_list else set()
            keys |= {"tvs[]." + key for key in IDENTIFIER.findall(description) if key not in kinds}
        else:
            keys |= set(IDENTIFIER.findall(cells[1]))
    return keys, kinds


def schema_keys(schema, prefix=""):
    """Dotted paths of a Supervisor schema's leaves (`tvs[].host`), and of its sections."""
    leaves, sections = set(), set()
    for key, value in schema.items():
        path = prefix + key
        if isinstance(value, list) and value and isinstance(value[0], dict):
            more_leaves, more_sections = schema_keys(value[0], path + "[].")
            leaves |= more_leaves
            sections |= more_sections
        elif isinstance(value, dict):
            sections.add(path)
            more_leaves, more_sections = schema_keys(value, path + ".")
            leaves |= more_leaves
            sections |= more_sections
        else:
            leaves.add(path)
    return leaves, sections


def lookup(tree, dotted):
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return None
        tree = tree[part]
    return tree

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

failures = []
keys, kinds = readme_keys()
if not keys or not kinds:
    failures.append("README.md's configuration table (or its tvs[] row's kinds) not found")
leaves, sections = schema_keys(config.get("schema", {}))
for key in sorted(keys - leaves - set(LEFT_OUT)):
    failures.append(f"the add-on cannot express `{key}`: add it to config.yaml's schema, or to LEFT_OUT saying why")
for key in sorted(leaves - keys):
    failures.append(f"config.yaml's schema has `{key}`, which the README's configuration table does not")
for key in sorted(set(LEFT_OUT) & leaves):
    failures.append(f"`{key}` is in config.yaml's schema and in LEFT_OUT: take it out of LEFT_OUT")
kind_schema = str(lookup(config.get("schema", {}), "tvs")[0].get("kind", "")) if "tvs" in config.get("schema", {}) else ""
kind_match = re.match(r"list\(([^)]*)\)", kind_schema)
schema_kinds = set(kind_match.group(1).split("|")) if kind_match else set()
for kind in sorted(kinds - schema_kinds):
    failures.append(f"the add-on cannot express kind `{kind}`: config.yaml's tvs kind is {kind_schema!r}")
for section in sorted(sections):
    if not isinstance(lookup(expected, section), dict):
        failures.append(f"schema section `{section}` is not in the options (the Supervisor would reject them)")
if failures:
    for failure in failures:
        print("deploy/homeassistant-addon: " + failure)
    sys.exit(1)
