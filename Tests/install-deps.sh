#!/usr/bin/env bash
# Installs what building, testing and trying tv2mqtt need, when it is missing, on Debian or
# Ubuntu: mosquitto and its clients (the tests and the quick start run a private broker),
# openssl (test certificates), the OpenSSL headers and pkg-config (the COpenSSL target),
# util-linux (setpriv), iproute2 and chromium (the status page's browser tests drive it
# headless). With --image also podman, runc and mmdebstrap, which deploy/check-image.sh builds
# and runs the container images with. Swift itself is not installed here: see the README.
set -euo pipefail

export PATH="$PATH:/usr/sbin:/usr/local/sbin"
missing=()
command -v mosquitto >/dev/null 2>&1 || missing+=(mosquitto)
command -v mosquitto_pub >/dev/null 2>&1 || missing+=(mosquitto-clients)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
dpkg -s libssl-dev >/dev/null 2>&1 || missing+=(libssl-dev)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
if [ "${1:-}" = --image ]; then
    for tool in podman runc mmdebstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
fi
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# The WebSocket interop tests talk to Python's websockets package (an independent RFC 6455
# implementation); they are skipped, saying why, when it cannot be imported. Best effort only.
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import websockets.asyncio.server' >/dev/null 2>&1; then
    python3 -m pip install -q websockets >/dev/null 2>&1 \
        || echo "could not install Python's websockets: the WebSocket interop tests will be skipped" >&2
fi
# The simulated Android TV is checked against androidtvremote2, the library Home Assistant's
# androidtv_remote integration uses; that test is skipped, saying why, when it cannot be imported.
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import androidtvremote2' >/dev/null 2>&1; then
    python3 -m pip install -q androidtvremote2==0.3.2 >/dev/null 2>&1 \
        || echo "could not install androidtvremote2: the Android TV simulator's interop test will be skipped" >&2
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "Swift 6 is not installed: see https://www.swift.org/install/linux/" >&2
    exit 1
fi
