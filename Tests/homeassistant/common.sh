# shellcheck shell=bash
# Shared by verify.sh and screenshot.sh (sourced, not run): the virtualenv, the tools, the
# binaries, and the loopback-only network namespace with its cleanup. See README.md.
#
# The sourcing script sets PROG (its name in messages), HERE (this directory), REPO, and may
# set KEEP=1 (keep the temporary directory) and BRIDGE_ONLY=1 (no tvsim needed).

# The Home Assistant profiles (--ha VERSION, or HA_VERSION): the release, the Python it runs on,
# its virtualenv and the bridge's discovery mode. 2025.4.4 (the default) takes device discovery;
# 2024.3.3, the newest release that installs on Python 3.11 (Debian 12's), takes entity
# discovery, the README's advice for Home Assistant before 2024.11.
HA_VERSION=${HA_VERSION:-2025.4.4}
# HELD: packages the release's constraints leave open whose later releases break it: pycares 5
# changed the API aiodns calls (every DNS lookup of 2025.4's aiodns 3.2.0 fails with a
# TypeError); josepy 2 dropped the ComparableX509 that 2024.3's acme needs (cloud fails to import).
case "$HA_VERSION" in
2025.4.4) HA_PYTHON_VERSION=3.13.0 VENV_DEFAULT=$HOME/.cache/tv2mqtt-ha-venv DISCOVERY=device HELD='pycares<5' ;;
2024.3.3)
    HA_PYTHON_VERSION=3.11.7 VENV_DEFAULT=$HOME/.cache/tv2mqtt-ha-venv-2024.3.3 DISCOVERY=entity
    HELD='pycares<5 josepy<2'
    ;;
*)
    echo "$PROG: no profile for Home Assistant $HA_VERSION (2025.4.4 or 2024.3.3)" >&2
    exit 2
    ;;
esac
# Bump when setup_venv changes what it installs, so existing virtualenvs are brought up to date.
VENV_RECIPE=1
VENV=${HA_VENV:-$VENV_DEFAULT}
BIN=${TV2MQTT_BIN:-$REPO/.build/debug}
KEEP=${KEEP:-0}
BRIDGE_ONLY=${BRIDGE_ONLY:-0}
export PATH="$PATH:/usr/sbin:/usr/local/sbin"

say() { echo "$PROG: $*"; }

find_python() {
    if [ -n "${HA_PYTHON:-}" ]; then echo "$HA_PYTHON"; return; fi
    local short=${HA_PYTHON_VERSION%.*}
    for candidate in "/root/.pyenv/versions/$HA_PYTHON_VERSION/bin/python$short" "$(command -v "python$short" || true)"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
    echo "$PROG: no Python $short found (Home Assistant $HA_VERSION); set HA_PYTHON" >&2
    exit 2
}

# The virtualenv: homeassistant pinned, every transitive dependency held to Home Assistant's own
# package_constraints.txt (as HA's Docker image does; unconstrained, pip picks versions 2025.4
# was never run with), plus the requirements of every integration Home Assistant loads here
# (requirements.py), because it runs with --skip-pip and no network.
setup_venv() {
    local stamp="$VENV/.tv2mqtt-ha-ready"
    local want
    want="$HA_VERSION recipe $VENV_RECIPE $(sha256sum <"$HERE/requirements.py" | cut -c1-16) $HELD"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
    local python
    python=$(find_python)
    say "setting up $VENV (homeassistant==$HA_VERSION; a few minutes the first time)"
    [ -x "$VENV/bin/python" ] || "$python" -m venv "$VENV"
    local scratch
    scratch=$(mktemp -d)
    "$VENV/bin/pip" download -q --disable-pip-version-check --no-deps -d "$scratch" "homeassistant==$HA_VERSION"
    "$VENV/bin/python" - "$scratch" <<'PYTHON'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/homeassistant-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("homeassistant/package_constraints.txt")
open(sys.argv[1] + "/constraints.txt", "wb").write(data)
PYTHON
    # shellcheck disable=SC2086 # one package a word
    printf '%s\n' $HELD >>"$scratch/constraints.txt"
    "$VENV/bin/pip" install -q --disable-pip-version-check -c "$scratch/constraints.txt" "$scratch"/homeassistant-*.whl
    local requirements
    requirements=$("$VENV/bin/python" "$HERE/requirements.py" 2>/dev/null)
    # shellcheck disable=SC2086
    "$VENV/bin/pip" install -q --disable-pip-version-check -c "$scratch/constraints.txt" $requirements
    rm -rf "$scratch"
    echo "$want" >"$stamp"
}

# need_tools [COMMAND=PACKAGE...]: installs the Debian packages of whatever is missing, the
# usual ones (mosquitto, its clients, iproute2, libturbojpeg0) and the ones given.
need_tools() {
    local missing=()
    command -v mosquitto >/dev/null 2>&1 || missing+=(mosquitto)
    command -v mosquitto_sub >/dev/null 2>&1 || missing+=(mosquitto-clients)
    command -v ip >/dev/null 2>&1 || missing+=(iproute2)
    # Home Assistant's camera helpers (imported by the mqtt integration) log an ERROR without it.
    ldconfig -p 2>/dev/null | grep libturbojpeg >/dev/null || missing+=(libturbojpeg0)
    local pair
    for pair in "$@"; do
        command -v "${pair%%=*}" >/dev/null 2>&1 || missing+=("${pair#*=}")
    done
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
                echo "$PROG: $BIN/tvsim has no '$vendor' command yet" >&2
                exit 2
            fi
        done
    fi
}

need_root() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "$PROG: needs root for 'ip netns' (the loopback-only network namespace)" >&2
        exit 2
    fi
}

# start_namespace: a temporary directory WORK and a namespace NS with only a loopback
# interface; the EXIT trap ends everything in the namespace (by PID), deletes it and WORK.
start_namespace() {
    NS="tv2mqtt-ha-$$"
    WORK=$(mktemp -d /tmp/tv2mqtt-ha.XXXXXX)
    chmod 755 "$WORK"
    NS_CREATED=0
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
}

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
            if [ -n "$pids" ]; then
                # shellcheck disable=SC2086
                kill -KILL $pids 2>/dev/null || true
            fi
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

# run_in_namespace SCRIPT ARGS...: runs a Python driver with the virtualenv's interpreter inside
# the namespace, in the background and waited for, so that SIGINT/SIGTERM run the trap at once
# (bash defers traps until a foreground command ends). Returns its exit status.
run_in_namespace() {
    ip netns exec "$NS" "$VENV/bin/python" -u "$@" &
    local status=0
    wait $! || status=$?
    return "$status"
}
