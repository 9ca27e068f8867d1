#!/usr/bin/env bash
# Runs the whole test suite: installs what the tests need when it is missing (mosquitto and its
# clients, openssl, the OpenSSL headers) on Debian/Ubuntu, checks that no closure is written inside
# #expect(...)/#require(...), that the example YAML parses, that every relative link and anchor
# in the Markdown files resolves, that the committed benchmark plots parse and that library code
# waits only by the project's five primitives (Tests/lint), then `swift test`, on the event loop
# and then on Swift's thread pool.
# Every test talks only to loopback: brokers and simulated TVs on 127.0.0.x, free ports.
set -euo pipefail
cd "$(dirname "$0")/.."
Tests/install-deps.sh
export PATH="$PATH:/usr/sbin:/usr/local/sbin"
if command -v python3 >/dev/null 2>&1; then
    python3 Tests/lint/closures_in_expectations.py
    python3 Tests/lint/example_yaml.py
    python3 Tests/lint/addon_options.py
    python3 Tests/lint/addon_standin.py
    python3 Tests/lint/markdown_links.py
    python3 Tests/lint/svg_plots.py
    python3 Tests/lint/one_way_to_wait.py
    python3 Tests/lint/one_clock.py
else
    echo "note: python3 not found; skipping the checks in Tests/lint" >&2
fi
Tests/lint/systemd_unit.sh
# On the event loop, as tv2mqtt runs (Tests/TestLoopExecutor), then on Swift's thread pool.
swift test "$@"
TV2MQTT_EXECUTOR=pool swift test --skip-build "$@"
