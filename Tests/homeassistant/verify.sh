#!/usr/bin/env bash
# Verifies tv2mqtt with a real Home Assistant: see README.md next to this file.
#
#   Tests/homeassistant/verify.sh [--ha VERSION] [--bridge-only] [--keep] [--setup-only]
#
# Installs a pinned homeassistant into a virtualenv (the only step that uses the network: pip
# and PyPI), then, in a loopback-only network namespace of its own, starts mosquitto, Home
# Assistant, simulated TVs and the bridge, and checks through Home Assistant's REST and
# websocket APIs what Home Assistant made of tv2mqtt. Exit status 0 only when every check passes.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

usage() {
    cat <<EOF
usage: $0 [--ha VERSION] [--bridge-only] [--keep] [--setup-only]

  --ha VERSION    the Home Assistant profile: 2025.4.4 (the default; Python 3.13, the bridge's
                  device discovery) or 2024.3.3 (Python 3.11, entity discovery); also HA_VERSION
  --bridge-only   no simulated TVs: check only the bridge device (works before tvsim exists)
  --keep          keep the temporary directory (Home Assistant's config and log, mosquitto's
                  log, the bridge's and simulators' logs) and print where it is
  --setup-only    create or update the virtualenv, then exit

environment: HA_VERSION, HA_VENV (virtualenv, default ~/.cache/tv2mqtt-ha-venv, or
~/.cache/tv2mqtt-ha-venv-2024.3.3 for 2024.3.3), HA_PYTHON (a Python 3.13 interpreter, or 3.11
for 2024.3.3), TV2MQTT_BIN (directory of tv2mqtt and tvsim, default <repo>/.build/debug)
EOF
}

BRIDGE_ONLY=0
KEEP=0
SETUP_ONLY=0
while [ $# -gt 0 ]; do
    arg=$1
    shift
    case "$arg" in
    --ha)
        [ $# -gt 0 ] || { echo "verify: --ha needs a version" >&2; exit 2; }
        HA_VERSION=$1
        shift
        ;;
    --ha=*) HA_VERSION=${arg#--ha=} ;;
    --bridge-only) BRIDGE_ONLY=1 ;;
    --keep) KEEP=1 ;;
    --setup-only) SETUP_ONLY=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "verify: unknown option $arg" >&2; usage >&2; exit 2 ;;
    esac
done

PROG=verify
# shellcheck source=common.sh
. "$HERE/common.sh"

setup_venv
[ "$SETUP_ONLY" = 1 ] && { say "virtualenv ready: $VENV"; exit 0; }
# shellcheck disable=SC2119 # no extra packages
need_tools
need_binaries
need_root
start_namespace

driver_args=(--work "$WORK" --bin "$BIN" --discovery "$DISCOVERY")
say "Home Assistant $HA_VERSION, the bridge's $DISCOVERY discovery"
[ "$BRIDGE_ONLY" = 1 ] && driver_args+=(--bridge-only)
started=$(date +%s)
status=0
run_in_namespace "$HERE/verify_ha.py" "${driver_args[@]}" || status=$?
say "took $(($(date +%s) - started)) s"
exit "$status"
