#!/usr/bin/env bash
# Runs the whole test suite: installs what the tests need when it is missing (mosquitto and its
# clients, openssl, the OpenSSL headers) on Debian/Ubuntu, then `swift test`.
# Every test talks only to loopback: brokers and simulated TVs on 127.0.0.x, free ports.
set -euo pipefail
cd "$(dirname "$0")/.."
Tests/install-deps.sh
export PATH="$PATH:/usr/sbin:/usr/local/sbin"
swift test "$@"
