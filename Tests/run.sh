#!/usr/bin/env bash
# Runs the whole test suite: installs what the tests need when it is missing (mosquitto and its
# clients, openssl, the OpenSSL headers) on Debian/Ubuntu, then `swift test`.
# Every test talks only to loopback: brokers and simulated TVs on 127.0.0.x, free ports.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$PATH:/usr/sbin:/usr/local/sbin"
missing=()
command -v mosquitto >/dev/null 2>&1 || missing+=(mosquitto)
command -v mosquitto_pub >/dev/null 2>&1 || missing+=(mosquitto-clients)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
dpkg -s libssl-dev >/dev/null 2>&1 || missing+=(libssl-dev)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "tests: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "tests: Swift 6 is not installed (https://www.swift.org/install/linux/)" >&2
    exit 1
fi

swift test "$@"
