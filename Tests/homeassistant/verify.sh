#!/usr/bin/env bash
# Verifies tv2mqtt with a real Home Assistant: see README.md next to this file.
#
#   Tests/homeassistant/verify.sh [--bridge-only] [--keep] [--setup-only]
#
# Installs a pinned homeassistant into a virtualenv (the only step that uses the network: pip
# and PyPI), then, in a loopback-only network namespace of its own, starts mosquitto, Home
# Assistant, simulated TVs and the bridge, and checks through Home Assistant's REST and
# websocket APIs what Home Assistant made of tv2mqtt. Exit status 0 only when every check passes.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
HA_VERSION=2025.4.4
# Bump when setup_venv changes what it installs, so existing virtualenvs are brought up to date.
VENV_RECIPE=1
VENV=${HA_VENV:-$HOME/.cache/tv2mqtt-ha-venv}
BIN=${TV2MQTT_BIN:-$REPO/.build/debug}
export PATH="$PATH:/usr/sbin:/usr/local/sbin"

usage() {
    cat <<EOF
usage: $0 [--bridge-only] [--keep] [--setup-only]

  --bridge-only   no simulated TVs: check only the bridge device (works before tvsim exists)
  --keep          keep the temporary directory (Home Assistant's config and log, mosquitto's
                  log, the bridge's and simulators' logs) and print where it is
  --setup-only    create or update the virtualenv, then exit

environment: HA_VENV (virtualenv, default ~/.cache/tv2mqtt-ha-venv), HA_PYTHON (a Python 3.13
interpreter), TV2MQTT_BIN (directory of tv2mqtt and tvsim, default <repo>/.build/debug)
EOF
}

BRIDGE_ONLY=0
KEEP=0
SETUP_ONLY=0
for arg in "$@"; do
    case "$arg" in
    --bridge-only) BRIDGE_ONLY=1 ;;
    --keep) KEEP=1 ;;
    --setup-only) SETUP_ONLY=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "verify: unknown option $arg" >&2; usage >&2; exit 2 ;;
    esac
done

say() { echo "verify: $*"; }

find_python() {
    if [ -n "${HA_PYTHON:-}" ]; then echo "$HA_PYTHON"; return; fi
    for candidate in /root/.pyenv/versions/3.13.0/bin/python3.13 "$(command -v python3.13 || true)"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
    echo "verify: no Python 3.13 found; set HA_PYTHON" >&2
    exit 2
}

# The virtualenv: homeassistant pinned, every transitive dependency held to Home Assistant's own
# package_constraints.txt (as HA's Docker image does; unconstrained, pip picks versions 2025.4
# was never run with), plus the requirements of every integration Home Assistant loads here
# (requirements.py), because it runs with --skip-pip and no network.
setup_venv() {
    local stamp="$VENV/.tv2mqtt-ha-ready"
    local want
    want="$HA_VERSION recipe $VENV_RECIPE $(sha256sum <"$HERE/requirements.py" | cut -c1-16)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
    local python
    python=$(find_python)
    say "setting up $VENV (homeassistant==$HA_VERSION; a few minutes the first time)"
    [ -x "$VENV/bin/python" ] || "$python" -m venv "$VENV"
    local scratch
    scratch=$(mktemp -d)
    "$VENV/bin/pip" download -q --disable-pip-version-check --no-deps -d "$scratch" "homeassistant==$HA_VERSION"
    "$VENV/bin/python" - "$scratch" <<'EOF'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/homeassistant-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("homeassistant/package_constraints.txt")
open(sys.argv[1] + "/constraints.txt", "wb").write(data)
EOF
    # Packages the constraints leave open whose later releases break 2025.4: pycares 5 changed
    # the API aiodns 3.2.0 calls (every DNS lookup fails with a TypeError).
    printf '%s\n' 'pycares<5' >>"$scratch/constraints.txt"
    "$VENV/bin/pip" install -q --disable-pip-version-check -c "$scratch/constraints.txt" "$scratch"/homeassistant-*.whl
    local requirements
    requirements=$("$VENV/bin/python" "$HERE/requirements.py" 2>/dev/null)
    # shellcheck disable=SC2086
    "$VENV/bin/pip" install -q --disable-pip-version-check -c "$scratch/constraints.txt" $requirements
    rm -rf "$scratch"
    echo "$want" >"$stamp"
}

need_tools() {
    local missing=()
    command -v mosquitto >/dev/null 2>&1 || missing+=(mosquitto)
    command -v mosquitto_sub >/dev/null 2>&1 || missing+=(mosquitto-clients)
    command -v ip >/dev/null 2>&1 || missing+=(iproute2)
    # Home Assistant's camera helpers (imported by the mqtt integration) log an ERROR without it.
    ldconfig -p 2>/dev/null | grep -q libturbojpeg || missing+=(libturbojpeg0)
    if [ "${#missing[@]}" -gt 0 ]; then
        say "installing ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update -q
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}

need_binaries() {
    local products=(tv2mqtt)
    [ "$BRIDGE_ONLY" = 1 ] || products+=(tvsim)
    for product in "${products[@]}"; do
        if [ ! -x "$BIN/$product" ]; then
            say "building $product (swift build)"
            (cd "$REPO" && swift build --product "$product")
            BIN=$(cd "$REPO" && swift build --show-bin-path)
        fi
    done
    if [ "$BRIDGE_ONLY" = 0 ]; then
        for vendor in roku samsung; do
            if ! "$BIN/tvsim" "$vendor" --help >/dev/null 2>&1; then
                echo "verify: $BIN/tvsim has no '$vendor' command yet; run with --bridge-only" >&2
                exit 2
            fi
        done
    fi
}

setup_venv
[ "$SETUP_ONLY" = 1 ] && { say "virtualenv ready: $VENV"; exit 0; }
need_tools
need_binaries
if [ "$(id -u)" -ne 0 ]; then
    echo "verify: needs root for 'ip netns' (the loopback-only network namespace)" >&2
    exit 2
fi

NS="tv2mqtt-ha-$$"
WORK=$(mktemp -d /tmp/tv2mqtt-ha.XXXXXX)
chmod 755 "$WORK"
NS_CREATED=0

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ "$NS_CREATED" = 1 ]; then
        # Every process in the namespace is one this script started (the driver and its
        # children); end them by PID: SIGTERM, then SIGKILL for those still there after 5 s.
        local pids
        pids=$(ip netns pids "$NS" 2>/dev/null || true)
        if [ -n "$pids" ]; then
            # shellcheck disable=SC2086
            kill -TERM $pids 2>/dev/null || true
            for _ in $(seq 50); do
                pids=$(ip netns pids "$NS" 2>/dev/null || true)
                [ -z "$pids" ] && break
                sleep 0.1
            done
            # shellcheck disable=SC2086
            [ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
        fi
        ip netns del "$NS" 2>/dev/null || true
    fi
    if [ "$KEEP" = 1 ]; then
        say "kept $WORK"
    else
        rm -rf "$WORK"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ip netns add "$NS"
NS_CREATED=1
ip netns exec "$NS" ip link set lo up
# Multicast on loopback only: Home Assistant's HTTP client sessions open an mDNS resolver
# (zeroconf), which fails with ENODEV ("No such device") without a multicast route.
ip netns exec "$NS" ip link set lo multicast on
ip netns exec "$NS" ip route add 224.0.0.0/4 dev lo

driver_args=(--work "$WORK" --bin "$BIN")
[ "$BRIDGE_ONLY" = 1 ] && driver_args+=(--bridge-only)
started=$(date +%s)
# In the background and waited for, so that SIGINT/SIGTERM run the trap at once (bash defers
# traps until a foreground command ends).
ip netns exec "$NS" "$VENV/bin/python" -u "$HERE/verify_ha.py" "${driver_args[@]}" &
set +e
wait $!
status=$?
set -e
say "took $(($(date +%s) - started)) s"
exit "$status"
