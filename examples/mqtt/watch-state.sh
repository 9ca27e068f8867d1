#!/usr/bin/env bash
# Watches every TV's state, availability and the bridge's events, one line each, as they change:
#   examples/mqtt/watch-state.sh [BROKER] [BASE_TOPIC]
# The state topics are retained, so the current state of every TV shows at once.
BROKER=${1:-localhost}
BASE=${2:-tv2mqtt}
exec mosquitto_sub -h "$BROKER" \
    -t "$BASE/+/state" -t "$BASE/+/availability" -t "$BASE/bridge/event" -t "$BASE/bridge/state" \
    -F '%I %t %p'
