#!/usr/bin/env bash
# Tries tv2mqtt end to end on this machine, no TV needed: builds it, starts a private mosquitto,
# two simulated Rokus (a TV and a streaming stick), a simulated Samsung, a simulated LG TV and a
# simulated Android TV on loopback addresses, runs the bridge, which finds them with SSDP and
# mDNS, shows what it publishes, sends commands
# the way Home Assistant or `mosquitto_pub` would, and shows the simulated TVs receiving them.
#
#   examples/try-it.sh          run the tour, then stop everything
#   examples/try-it.sh --keep   leave everything running afterwards, until Ctrl-C
#
# Everything stays on the loopback network (127.0.0.x): SSDP searches and mDNS queries go to the
# loopback broadcast address 127.255.255.255 and Wake-on-LAN packets likewise, never to your LAN.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=false
[ "${1:-}" = "--keep" ] && keep=true

Tests/install-deps.sh
export PATH="$PATH:/usr/sbin:/usr/local/sbin"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
say() { printf '   %s\n' "$*"; }

step "Building tv2mqtt and tvsim (swift build)"
swift build --product tv2mqtt >/dev/null
swift build --product tvsim >/dev/null
bin="$(swift build --show-bin-path)"

work="$(mktemp -d /tmp/tv2mqtt-try.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A TCP port nobody listens on (UDP ports come from the same range and are used only here).
free_port() {
    local port
    for _ in $(seq 1 50); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    echo "no free port found" >&2
    exit 1
}
ssdp_port=$(free_port)
wol_port=$(free_port)
mdns_port=$(free_port)
base=tv2mqtt

# A port found free can be taken before mosquitto binds it: a broker that is not listening
# within 10 s is stopped, its log shown, and started again on another port (three tries).
start_broker() {
    local pid
    mqtt_port=$(free_port)
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mqtt_port" >"$work/mosquitto.conf"
    mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$mqtt_port") 2>/dev/null; then
            pids+=("$pid")
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "mosquitto did not listen on 127.0.0.1:$mqtt_port:" >&2
    sed 's/^/   /' "$work/mosquitto.log" >&2
    return 1
}
step "Starting mosquitto"
start_broker || start_broker || start_broker || exit 1
echo "   listening on 127.0.0.1:$mqtt_port"
sub() { mosquitto_sub -h 127.0.0.1 -p "$mqtt_port" "$@"; }
pub() { mosquitto_pub -h 127.0.0.1 -p "$mqtt_port" "$@"; }

step "Starting simulated TVs: a Roku TV on 127.0.0.2, a Roku stick on 127.0.0.3, a Samsung on 127.0.0.4, an LG on 127.0.0.5, an Android TV on 127.0.0.6"
"$bin/tvsim" roku --host 127.0.0.2 --port 8060 --kind tv --name "Living Room TV" \
    --ssdp-port "$ssdp_port" --wol-port "$wol_port" --log "$work/tv.log" 2>"$work/tvsim-tv.err" &
pids+=($!)
"$bin/tvsim" roku --host 127.0.0.3 --port 8060 --kind stick --name "Bedroom Stick" \
    --ssdp-port "$ssdp_port" --wol-port "$wol_port" --log "$work/stick.log" 2>"$work/tvsim-stick.err" &
pids+=($!)
"$bin/tvsim" samsung --host 127.0.0.4 --name "Bedroom TV" \
    --ssdp-port "$ssdp_port" --wol-port "$wol_port" --log "$work/samsung.log" 2>"$work/tvsim-samsung.err" &
pids+=($!)
"$bin/tvsim" lg --host 127.0.0.5 --name "Kitchen TV" \
    --ssdp-port "$ssdp_port" --wol-port "$wol_port" --log "$work/lg.log" 2>"$work/tvsim-lg.err" &
pids+=($!)
"$bin/tvsim" androidtv --host 127.0.0.6 --name "Den TV" \
    --mdns-port "$mdns_port" --wol-port "$wol_port" --log "$work/androidtv.log" 2>"$work/tvsim-androidtv.err" &
pids+=($!)
sleep 0.5
cat "$work/tvsim-tv.err" "$work/tvsim-stick.err" "$work/tvsim-samsung.err" "$work/tvsim-lg.err" \
    "$work/tvsim-androidtv.err" | sed 's/^/   /'

# Everything the bridge publishes, for the tour and for you to look at afterwards.
# mosquitto_sub itself, not the `sub` function: $! must be its PID, or the cleanup would stop
# only a subshell and leave mosquitto_sub running.
mosquitto_sub -h 127.0.0.1 -p "$mqtt_port" -v -t "$base/#" -t 'homeassistant/#' >"$work/mqtt.log" &
pids+=($!)

step "Starting the bridge (SSDP to 127.255.255.255:$ssdp_port, mDNS to 127.255.255.255:$mdns_port, Wake-on-LAN to 127.255.255.255:$wol_port)"
"$bin/tv2mqtt" run --mqtt-server "mqtt://127.0.0.1:$mqtt_port" --state-dir "$work/state" \
    --ssdp-address "127.255.255.255:$ssdp_port" --mdns-address "127.255.255.255:$mdns_port" \
    --wol-target "127.255.255.255:$wol_port" \
    --poll-interval 2 --log-level info 2>"$work/tv2mqtt.log" &
pids+=($!)

# Waits until a retained message on $1 matches the extended regular expression $2.
wait_for() {
    local topic=$1 pattern=$2
    for _ in $(seq 1 100); do
        if sub -t "$topic" -W 1 -C 1 2>/dev/null | grep -Eq "$pattern"; then return 0; fi
    done
    echo "timed out waiting for $topic ~ $pattern" >&2
    exit 1
}

ids=()
for attempt in $(seq 1 60); do
    mapfile -t ids < <(sub -v -t "$base/+/state" -W 1 2>/dev/null | cut -d' ' -f1 | cut -d/ -f2 | grep -v '^bridge$' | sort -u || true)
    [ "${#ids[@]}" -ge 5 ] && break
    # A search's datagram may be lost: ask for another search now and then.
    [ $((attempt % 10)) = 0 ] && pub -t "$base/bridge/request/discover" -m '{}'
done
if [ "${#ids[@]}" -lt 5 ]; then
    # The work directory goes at exit: show its logs now.
    echo "the bridge did not find the five simulated TVs (found: ${ids[*]:-none}); its log:" >&2
    tail -n 40 "$work/tv2mqtt.log" | sed 's/^/   /' >&2
    echo "mosquitto's log:" >&2
    tail -n 20 "$work/mosquitto.log" | sed 's/^/   /' >&2
    exit 1
fi
say "found: ${ids[*]}"
sed 's/^/   log: /' "$work/tv2mqtt.log" | grep -E "found|connected" | head -n 6 || true

tv=""
samsung=""
lg=""
androidtv=""
for id in "${ids[@]}"; do
    case "$id" in
    samsung_*) samsung=$id ;;
    lg_*) lg=$id ;;
    androidtv_*) androidtv=$id ;;
    *) if sub -t "$base/$id/state" -C 1 -W 3 | grep -q '"input"'; then tv=$id; fi ;;
    esac
done
[ -n "$tv" ] && [ -n "$samsung" ] && [ -n "$lg" ] && [ -n "$androidtv" ] ||
    { echo "expected a Roku TV, a Samsung, an LG and an Android TV among: ${ids[*]}" >&2; exit 1; }

step "What Home Assistant sees (retained discovery configs)"
sub -v -t 'homeassistant/#' --retained-only -W 2 2>/dev/null | cut -c1-150 | sed 's/^/   /' || true

step "State of $tv (retained, published when it changes)"
sub -t "$base/$tv/state" -C 1 -W 3 | sed 's/^/   /'

step "Pressing Home:  mosquitto_pub -t $base/$tv/set/key -m home"
pub -t "$base/$tv/set/key" -m home
sleep 0.5
say "the TV received: $(grep '"keypress"' "$work/tv.log" | tail -n 1)"

step "Launching Netflix:  mosquitto_pub -t $base/$tv/set/app -m Netflix"
pub -t "$base/$tv/set/app" -m Netflix
wait_for "$base/$tv/state" '"app":"Netflix"'
say "the TV received: $(grep '"launch"' "$work/tv.log" | tail -n 1)"
say "state now: $(sub -t "$base/$tv/state" -C 1 -W 3)"

step "Turning it off:  mosquitto_pub -t $base/$tv/set/power -m OFF"
pub -t "$base/$tv/set/power" -m OFF
wait_for "$base/$tv/state" '"power":"OFF"'
say "state now: $(sub -t "$base/$tv/state" -C 1 -W 3)"

step "Turning it off again does nothing (OFF never turns a TV on)"
before=$(wc -l <"$work/tv.log")
pub -t "$base/$tv/set/power" -m OFF
sleep 1
say "requests the TV received since: $(($(wc -l <"$work/tv.log") - before))"

step "Turning it on:  mosquitto_pub -t $base/$tv/set/power -m ON  (Wake-on-LAN, then PowerOn)"
pub -t "$base/$tv/set/power" -m ON
wait_for "$base/$tv/state" '"power":"ON"'
grep -E '"wol"|PowerOn' "$work/tv.log" | tail -n 2 | sed 's/^/   the TV received: /'

step "The Samsung: the first command pairs (the simulated TV approves at once), the token is kept"
pub -t "$base/$samsung/set/key" -m volume_up
for _ in $(seq 1 50); do grep -q '"remote_key"' "$work/samsung.log" && break; sleep 0.1; done
grep -E '"pairing"|"remote_key"' "$work/samsung.log" | tail -n 2 | sed 's/^/   the TV received: /'

step "Setting its volume:  mosquitto_pub -t $base/$samsung/set/volume -m 20  (UPnP RenderingControl)"
pub -t "$base/$samsung/set/volume" -m 20
wait_for "$base/$samsung/state" '"volume":20'
say "the TV received: $(grep '"volume"' "$work/samsung.log" | tail -n 1)"
say "state now: $(sub -t "$base/$samsung/state" -C 1 -W 3)"

step "The LG: pairing by the Pair button's request (the simulated TV's prompt approves at once)"
pub -t "$base/bridge/request/tv/pair" -m "{\"id\":\"$lg\"}"
for _ in $(seq 1 50); do grep -q '"approved"' "$work/lg.log" && break; sleep 0.1; done
grep '"pairing"' "$work/lg.log" | tail -n 1 | sed 's/^/   the TV logged: /'

step "Pressing Home on it:  mosquitto_pub -t $base/$lg/set/key -m home  (the pointer input socket)"
pub -t "$base/$lg/set/key" -m home
for _ in $(seq 1 50); do grep -q '"button"' "$work/lg.log" && break; sleep 0.1; done
say "the TV received: $(grep '"button"' "$work/lg.log" | tail -n 1)"

step "A toast on its screen:  mosquitto_pub -t $base/$lg/set/toast -m 'Dinner is ready'"
pub -t "$base/$lg/set/toast" -m 'Dinner is ready'
for _ in $(seq 1 50); do grep -q '"toast"' "$work/lg.log" && break; sleep 0.1; done
say "the TV received: $(grep '"toast"' "$work/lg.log" | tail -n 1)"

step "Its screen off (the TV stays on):  mosquitto_pub -t $base/$lg/set/screen -m OFF  (state pushed by subscription)"
pub -t "$base/$lg/set/screen" -m OFF
wait_for "$base/$lg/state" '"screen":"OFF"'
say "state now: $(sub -t "$base/$lg/state" -C 1 -W 3)"

step "The Android TV (found by mDNS): the Pair button's request makes it show a code"
pub -t "$base/bridge/request/tv/pair" -m "{\"id\":\"$androidtv\"}"
code=""
for _ in $(seq 1 50); do
    code=$(grep '"code_shown"' "$work/androidtv.log" | tail -n 1 | sed -E 's/.*"code":"([0-9A-F]{6})".*/\1/' || true)
    [ -n "$code" ] && break
    sleep 0.1
done
say "the TV shows: $code  (in Home Assistant: type it into the TV's Pairing code)"

step "Typing the code back:  mosquitto_pub -t $base/bridge/request/tv/pair -m '{\"id\":\"…\",\"pin\":\"$code\"}'"
pub -t "$base/bridge/request/tv/pair" -m "{\"id\":\"$androidtv\",\"pin\":\"$code\"}"
wait_for "$base/$androidtv/state" '"power":"ON"'
say "state now: $(sub -t "$base/$androidtv/state" -C 1 -W 3)"

step "Opening YouTube on it:  mosquitto_pub -t $base/$androidtv/set/app -m YouTube  (an app link)"
pub -t "$base/$androidtv/set/app" -m YouTube
wait_for "$base/$androidtv/state" '"app":"YouTube"'
say "the TV received: $(grep '"app_link"' "$work/androidtv.log" | tail -n 1)"

step "A bad command is refused with a reason, and nothing reaches the TV"
sub -t "$base/bridge/event" -C 1 -W 5 >"$work/event.txt" &
event_pid=$!
sleep 0.3
pub -t "$base/$tv/set/key" -m FactoryReset
wait "$event_pid" || true
say "event: $(cat "$work/event.txt")"

printf '\n\033[1mDone.\033[0m Everything ran on loopback.\n'
if $keep; then
    echo "Logs: $work (the bridge: tv2mqtt.log, the simulated TVs: tv.log, stick.log, samsung.log, lg.log, androidtv.log; everything published: mqtt.log)"
    echo "Still running. Try, in another terminal:"
    echo "  mosquitto_sub -h 127.0.0.1 -p $mqtt_port -v -t '$base/#'"
    echo "  mosquitto_pub -h 127.0.0.1 -p $mqtt_port -t $base/$tv/set/key -m volume_up"
    echo "  tail -f $work/tv.log"
    echo "Ctrl-C stops everything."
    while true; do sleep 3600; done
fi
