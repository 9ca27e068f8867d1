#!/usr/bin/env bash
# Takes the README's screenshots of Home Assistant: see README.md next to this file.
#
#   Tests/homeassistant/screenshot.sh [--keep] [--out DIR]
#
# Brings up what verify.sh does (a pinned Home Assistant with the MQTT integration, mosquitto,
# simulated Roku, Samsung and LG TVs, the bridge), in a loopback-only network namespace of its own,
# and renders two pages with Debian's headless Chromium: the Roku TV's device page and a
# dashboard with the example remote card. Writes examples/screenshots/roku-device.png and
# dashboard.png (optimised with optipng). Exit status 0 only when both were taken.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

usage() {
    cat <<EOF2
usage: $0 [--keep] [--out DIR]

  --keep      keep the temporary directory (logs, Home Assistant's config) and print where it is
  --out DIR   where the PNG files go (default <repo>/examples/screenshots)

environment: HA_VENV (virtualenv, default ~/.cache/tv2mqtt-ha-venv), HA_PYTHON (a Python 3.13
interpreter), TV2MQTT_BIN (directory of tv2mqtt and tvsim, default <repo>/.build/debug)
EOF2
}

KEEP=0
OUT=$REPO/examples/screenshots
while [ $# -gt 0 ]; do
    case "$1" in
    --keep) KEEP=1 ;;
    --out) OUT=${2:?--out needs a directory}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "screenshot: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

PROG=screenshot
# shellcheck source=common.sh
. "$HERE/common.sh"

# WIDTHxHEIGHT of a PNG file (its IHDR chunk).
png_size() {
    local hex
    hex=$(od -An -tx1 -j16 -N8 "$1" | tr -d ' \n')
    echo "$((16#${hex:0:8}))x$((16#${hex:8:8}))"
}

setup_venv
need_tools chromium=chromium optipng=optipng
need_binaries
need_root
mkdir -p "$OUT"
start_namespace

started=$(date +%s)
status=0
# The driver writes into WORK; OUT gets the pictures only when both were taken (a failed page
# is saved as WORK/shots/failed-NAME.png, kept with --keep).
mkdir "$WORK/shots"
run_in_namespace "$HERE/screenshot_ha.py" --work "$WORK" --bin "$BIN" --out "$WORK/shots" \
    --chromium "$(command -v chromium)" || status=$?
if [ "$status" = 0 ]; then
    for name in roku-device.png dashboard.png; do
        optipng -quiet -o5 -strip all "$WORK/shots/$name"
        cp "$WORK/shots/$name" "$OUT/$name"
        say "$OUT/$name: $(png_size "$OUT/$name"), $(($(stat -c %s "$OUT/$name") / 1024)) KB"
    done
fi
say "took $(($(date +%s) - started)) s"
exit "$status"
