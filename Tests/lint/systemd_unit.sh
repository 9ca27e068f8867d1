#!/usr/bin/env bash
# Lints deploy/systemd/tv2mqtt.service with `systemd-analyze verify` when the tool is there,
# pointing ExecStart at a stand-in executable (the unit names /usr/local/bin/tv2mqtt, which a
# test machine has not installed). Without systemd-analyze the check says so and passes.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "systemd_unit: systemd-analyze not found; the unit is not linted" >&2
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\nexit 0\n' >"$work/tv2mqtt"
chmod +x "$work/tv2mqtt"
sed "s|/usr/local/bin/tv2mqtt|$work/tv2mqtt|" deploy/systemd/tv2mqtt.service >"$work/tv2mqtt.service"
systemd-analyze verify "$work/tv2mqtt.service"
