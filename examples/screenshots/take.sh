#!/usr/bin/env bash
# Takes the README's pictures of the status page: examples/screenshots/status-{list,tv,bridge,phone}.png.
#
#   examples/screenshots/take.sh        (as root: it makes a network namespace)
#
# Builds the tests, then, in a loopback-only network namespace of its own, runs the test
# "status page screenshots" (Tests/StatusPageTests/Browser/StatusPageScreenshots.swift): it
# starts mosquitto, a simulated Roku and a simulated Samsung and `tv2mqtt run --http-listen`,
# opens the page in Debian's headless Chromium (light theme), and saves each view.
set -euo pipefail
cd "$(dirname "$0")/../.."
Tests/install-deps.sh
export PATH="$PATH:/usr/sbin:/usr/local/sbin"
[ "$(id -u)" -eq 0 ] || { echo "take.sh: run as root (ip netns)" >&2; exit 1; }

out=$(pwd)/examples/screenshots
work=$(mktemp -d /tmp/tv2mqtt-shots.XXXXXX)
ns="tv2mqtt-shots-$$"
cleanup() {
    # Every process in the namespace is one this script started: end them by PID.
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
    ip netns delete "$ns" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

swift build --build-tests >/dev/null
ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
ip netns exec "$ns" env TV2MQTT_SCREENSHOTS="$work" \
    swift test --skip-build --filter StatusPageScreenshots >"$work/test.log" 2>&1 \
    || { tail -40 "$work/test.log" >&2; exit 1; }
for name in list tv bridge phone; do
    [ -s "$work/status-$name.png" ] || { echo "take.sh: status-$name.png was not taken" >&2; exit 1; }
    command -v optipng >/dev/null 2>&1 && optipng -quiet -o5 -strip all "$work/status-$name.png"
    cp "$work/status-$name.png" "$out/status-$name.png"
    echo "take.sh: $out/status-$name.png, $(($(stat -c %s "$out/status-$name.png") / 1024)) KB"
done
