#!/usr/bin/env python3
"""Prints the pip requirements of the Home Assistant integrations verify_ha.py loads.

Home Assistant installs an integration's requirements when it sets the integration up, unless
it runs with --skip-pip. verify.sh runs it with --skip-pip (no network in its namespace), so
everything must be installed beforehand: this walks the manifests of the integrations Home
Assistant always loads (bootstrap's core and default integrations), the ones
configuration.yaml names and `mqtt`, those onboarding sets up, following `dependencies`,
and prints each requirement once.
"""

import json
import os
import sys

import homeassistant
from homeassistant import bootstrap

# The domains of the configuration.yaml verify_ha.py writes, and the integration it adds.
CONFIGURED = {"http", "api", "config", "logger", "onboarding", "mqtt"}
# Finishing onboarding's core_config step starts config flows for these (homeassistant
# components/onboarding/views.py); without their requirements each logs an ImportError.
ONBOARDING = {"google_translate", "met", "radio_browser", "shopping_list"}
# Imported, not named as dependencies, in 2024.3: analytics imports energy, which imports
# recorder (SQLAlchemy; else analytics, onboarding and frontend fail to set up),
# google_translate imports tts (mutagen; else onboarding's core_config step fails), and the
# mqtt integration sets up camera, which imports stream (numpy, PyAV).
IMPORTED = {"energy", "recorder", "tts", "camera", "stream"}


def main():
    components = os.path.join(os.path.dirname(homeassistant.__file__), "components")
    # Stage 0's other names (isal, sentry, recorder, zeroconf...) load only when configured.
    wanted = (set(CONFIGURED) | ONBOARDING | IMPORTED | set(bootstrap.CORE_INTEGRATIONS)
              | set(bootstrap.DEFAULT_INTEGRATIONS))
    manifests = {}
    todo = list(wanted)
    while todo:
        domain = todo.pop()
        if domain in manifests:
            continue
        path = os.path.join(components, domain, "manifest.json")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as file:
            manifests[domain] = manifest = json.load(file)
        todo += manifest.get("dependencies", [])
    loaded = set(manifests)
    requirements = []
    for domain in sorted(loaded):
        manifest = manifests[domain]
        # after_dependencies are only waited for, not loaded.
        for requirement in manifest.get("requirements", []):
            if requirement not in requirements:
                requirements.append(requirement)
    print(" ".join(sorted(loaded)), file=sys.stderr)
    print("\n".join(requirements))


if __name__ == "__main__":
    main()
