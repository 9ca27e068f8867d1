#!/usr/bin/env bash
# Builds deploy/Dockerfile as written with Debian's podman and runs the image against a
# mosquitto and simulated TVs, then builds and starts the Home Assistant add-on's image the
# same way. No image registry is reachable, so the base images the Dockerfiles name are made
# here: Debian bookworm by mmdebstrap (for debian:bookworm-slim), a Swift build base with this
# machine's toolchain bind-mounted (for swift:6.3-bookworm), and a stand-in for Home
# Assistant's base image (deploy/check-image/). Everything runs in a network namespace of its
# own that has only loopback; the image builds reach Debian's mirror for apt-get, nothing else.
#
#   deploy/check-image.sh        (as root, or it asks sudo; CHECK_IMAGE_REBUILD=1 remakes the bases)
#
# What it checks on the image: the TVs appear (their discovery configs on the broker), the
# HEALTHCHECK says healthy, and unhealthy once the broker stops; it runs as the unprivileged
# user; the state volume keeps a Samsung's token and the bridge's own certificate (to which
# the Android TV is paired) when the container is removed and created again; `podman stop` publishes `offline` within 5 s. It prints the image's size. Whatever it
# starts (processes, containers, the volume, the namespace) is stopped, also when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || exec sudo --preserve-env=PATH,CHECK_IMAGE_REBUILD "$0" "$@"
export PATH="$PATH:/usr/sbin:/usr/local/sbin"

step() { printf '\n== %s\n' "$*"; }
die() { echo "check-image: $*" >&2; exit 1; }
Tests/install-deps.sh --image
for tool in podman runc mmdebstrap mosquitto mosquitto_sub ip swift; do
    command -v "$tool" >/dev/null || die "$tool is missing (Tests/install-deps.sh --image installs it)"
done

# crun refuses the hybrid cgroups of some machines: runc everywhere. Container ulimits cannot
# go past the machine's hard limits.
nofile=$(ulimit -Hn)
if [ "$nofile" = unlimited ] || [ "$nofile" -gt 65536 ]; then nofile=65536; fi
limits=(--runtime runc --ulimit "nofile=$nofile:$nofile" --ulimit nproc=1024:1024)
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
runtime_base=localhost/tv2mqtt-check/debian:bookworm-slim
# The made bases are tagged by what they are made from, so an edited stand-in is rebuilt.
made_from() { cat "$@" | sha256sum | cut -c1-12; }
swift_base=localhost/tv2mqtt-check/swift:bookworm-$(made_from deploy/check-image/swift-build.Containerfile)
ha_base=localhost/tv2mqtt-check/ha-base:bookworm-$(made_from deploy/check-image/ha-base.Containerfile deploy/check-image/bashio.sh)
image=localhost/tv2mqtt:check
addon_image=localhost/tv2mqtt-addon:check
ns="tv2mqtt-check-$$"
work=$(mktemp -d /tmp/tv2mqtt-check.XXXXXX)
volume="tv2mqtt-check-state-$$"
containers=()
pids=()
broker_pid=""

cleanup() {
    for container in "${containers[@]}"; do podman rm -f -v -t 0 "$container" >/dev/null 2>&1 || true; done
    podman volume rm -f "$volume" >/dev/null 2>&1 || true
    for pid in "${pids[@]}" $broker_pid; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}" $broker_pid; do wait "$pid" 2>/dev/null || true; done
    ip netns delete "$ns" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Processes started in the background go through `ip netns exec` itself, not a function: it
# execs the command, so $! is the command's PID (a function's subshell would be killed alone).
in_ns() { ip netns exec "$ns" "$@"; }
sub() { in_ns mosquitto_sub -h 127.0.0.1 -p 1883 "$@"; }
pub() { in_ns mosquitto_pub -h 127.0.0.1 -p 1883 "$@"; }
# Waits up to $1 seconds for the command after it to succeed.
wait_until() {
    local seconds=$1
    shift
    for _ in $(seq 1 $((seconds * 5))); do "$@" && return 0; sleep 0.2; done
    return 1
}

step "Base images: Debian bookworm (mmdebstrap), the Swift build base, Home Assistant's stand-in"
if [ -n "${CHECK_IMAGE_REBUILD:-}" ] || ! podman image exists "$runtime_base"; then
    mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$work/rootfs.tar"
    podman import "$work/rootfs.tar" "$runtime_base" >/dev/null
    rm -f "$work/rootfs.tar"
fi
if [ -n "${CHECK_IMAGE_REBUILD:-}" ] || ! podman image exists "$swift_base"; then
    podman build "${limits[@]}" --network host --build-arg "BASE_IMAGE=$runtime_base" \
        --build-arg "TOOLCHAIN=$toolchain" -f deploy/check-image/swift-build.Containerfile \
        -t "$swift_base" deploy/check-image
fi
if [ -n "${CHECK_IMAGE_REBUILD:-}" ] || ! podman image exists "$ha_base"; then
    podman build "${limits[@]}" --build-arg "BASE_IMAGE=$runtime_base" \
        -f deploy/check-image/ha-base.Containerfile -t "$ha_base" deploy/check-image
fi

step "Building deploy/Dockerfile (toolchain $toolchain)"
began=$(date +%s)
# --format docker: an OCI image would drop the HEALTHCHECK. --network host: apt-get only.
podman build "${limits[@]}" --format docker --network host --volume "$toolchain:$toolchain:ro" \
    --build-arg "SWIFT_IMAGE=$swift_base" --build-arg "RUNTIME_IMAGE=$runtime_base" \
    -f deploy/Dockerfile -t "$image" .
echo "built in $(($(date +%s) - began)) s"
size=$(podman image inspect --format '{{.Size}}' "$image")
echo "image size: $((size / 1000000)) MB ($image)"

step "A loopback-only network namespace ($ns), mosquitto and simulated TVs in it"
swift build --product tvsim >/dev/null
tvsim="$(swift build --show-bin-path)/tvsim"
ip netns add "$ns"
in_ns ip link set lo up
printf 'listener 1883 127.0.0.1\nallow_anonymous true\npersistence false\n' >"$work/mosquitto.conf"
start_broker() {
    ip netns exec "$ns" mosquitto -c "$work/mosquitto.conf" >>"$work/mosquitto.log" 2>&1 &
    broker_pid=$!
    wait_until 10 in_ns bash -c 'exec 3<>/dev/tcp/127.0.0.1/1883' 2>/dev/null || die "mosquitto did not start"
}
start_broker
for tv in "roku --host 127.0.0.2 --port 8060 --name Living" "samsung --host 127.0.0.4 --name Bedroom" \
    "lg --host 127.0.0.5 --name Kitchen"; do
    set -- $tv
    ip netns exec "$ns" "$tvsim" "$@" --ssdp-port 1900 --wol-port 9 --log "$work/$1.log" 2>>"$work/tvsim.err" &
    pids+=($!)
done
ip netns exec "$ns" "$tvsim" androidtv --host 127.0.0.6 --name Den --mdns-port 5353 --wol-port 9 \
    --log "$work/androidtv.log" 2>>"$work/tvsim.err" &
pids+=($!)

# The image as deploy/Dockerfile's header runs it, its network the namespace's (host networking).
# Without systemd podman cannot time health checks (it says so on stderr, kept in podman.log):
# they are run here, by `podman healthcheck run`.
start_bridge() {
    containers+=(tv2mqtt-check-$$)
    podman run -d "${limits[@]}" --name "tv2mqtt-check-$$" --network "ns:/run/netns/$ns" \
        -e TV2MQTT_MQTT_SERVER=mqtt://127.0.0.1:1883 -v "$volume:/var/lib/tv2mqtt" "$image" \
        run --ssdp-address 127.255.255.255:1900 --mdns-address 127.255.255.255:5353 \
        --wol-target 127.255.255.255:9 --poll-interval 2 \
        >/dev/null 2>>"$work/podman.log"
}
# "healthy" or "unhealthy": what the image's HEALTHCHECK says now (podman prints only the latter).
health() {
    local answer status=0
    answer=$(podman healthcheck run "tv2mqtt-check-$$" 2>>"$work/podman.log") || status=$?
    if [ "$status" = 0 ]; then echo healthy; elif [ "$answer" = unhealthy ]; then echo unhealthy; else
        echo "podman healthcheck run failed ($status): $answer"
    fi
}
bridge_online() { [ "$(sub -t tv2mqtt/bridge/state -C 1 -W 2 2>/dev/null)" = online ]; }
start_bridge
wait_until 30 bridge_online || { podman logs "tv2mqtt-check-$$" >&2; die "the bridge never said online"; }

step "The TVs appear"
four_tvs() {
    local configs
    configs=$(sub -t 'homeassistant/#' --retained-only -W 2 -v 2>/dev/null | cut -d' ' -f1 || true)
    grep -q roku <<<"$configs" && grep -q samsung <<<"$configs" && grep -q lg <<<"$configs" &&
        grep -q androidtv <<<"$configs" && return 0
    pub -t tv2mqtt/bridge/request/discover -m '{}' # a search's datagram may be lost
    return 1
}
wait_until 60 four_tvs || { podman logs "tv2mqtt-check-$$" >&2; die "the four TVs' discovery configs never appeared"; }
samsung=$(sub -t 'tv2mqtt/+/state' -v -W 2 2>/dev/null | cut -d/ -f2 | grep '^samsung_' | head -n 1 || true)
[ -n "$samsung" ] || die "no Samsung among the TVs' states"
androidtv=$(sub -t 'tv2mqtt/+/state' -v -W 2 2>/dev/null | cut -d/ -f2 | grep '^androidtv_' | head -n 1 || true)
[ -n "$androidtv" ] || die "no Android TV among the TVs' states"
echo "discovery configs for the Roku, the Samsung ($samsung), the LG and the Android TV ($androidtv, by mDNS)"

step "The HEALTHCHECK says healthy"
podman inspect --format '{{.Config.Healthcheck.Test}}' "tv2mqtt-check-$$" | grep -q health \
    || die "the image has no HEALTHCHECK (built without --format docker?)"
answer=$(health)
[ "$answer" = healthy ] || die "the HEALTHCHECK said '$answer' with the bridge online"
echo healthy

step "It runs as the unprivileged user"
pid=$(podman inspect --format '{{.State.Pid}}' "tv2mqtt-check-$$")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
[ "$uid" = 10001 ] || die "the bridge runs as uid $uid, not 10001"
echo "uid $uid"

step "The Samsung pairs: its token goes to the state volume"
pairings() { grep -c '"pairing"' "$work/samsung.log" || true; }
keys() { grep -c '"remote_key"' "$work/samsung.log" || true; }
key_arrives() {
    local before=$1
    pub -t "tv2mqtt/$samsung/set/key" -m volume_up
    sleep 1
    [ "$(keys)" -gt "$before" ]
}
wait_until 30 key_arrives 0 || die "the Samsung never received a key"
[ "$(pairings)" = 1 ] || die "expected one pairing, the Samsung logged $(pairings)"
echo "paired once"

step "The Android TV pairs by the code it shows: the bridge's certificate goes to the state volume"
codes() { grep -c '"code_shown"' "$work/androidtv.log" || true; }
sessions() { grep -c '"connected"' "$work/androidtv.log" || true; }
atv_on() { sub -t "tv2mqtt/$androidtv/state" -C 1 -W 2 2>/dev/null | grep -q '"power":"ON"'; }
pub -t tv2mqtt/bridge/request/tv/pair -m "{\"id\":\"$androidtv\"}"
wait_until 15 grep -q '"code_shown"' "$work/androidtv.log" || die "the Android TV never showed a code"
code=$(grep '"code_shown"' "$work/androidtv.log" | tail -n 1 | sed -E 's/.*"code":"([0-9A-F]{6})".*/\1/')
pub -t tv2mqtt/bridge/request/tv/pair -m "{\"id\":\"$androidtv\",\"pin\":\"$code\"}"
wait_until 30 atv_on || die "the Android TV was not on after pairing"
echo "paired with code $code"
sessions_paired=$(sessions)

step "podman stop publishes offline within 5 s"
ip netns exec "$ns" mosquitto_sub -h 127.0.0.1 -p 1883 -t tv2mqtt/bridge/state -C 2 >"$work/state.txt" &
sub_pid=$!
sleep 0.5
stopped=$(date +%s%N)
podman stop -t 10 "tv2mqtt-check-$$" >/dev/null 2>>"$work/podman.log"
wait_until 5 grep -q offline "$work/state.txt" || die "no offline within 5 s of podman stop"
echo "offline after $((($(date +%s%N) - stopped) / 1000000)) ms"
kill "$sub_pid" 2>/dev/null || true

step "The state volume keeps the token when the container is removed and created again"
podman rm "tv2mqtt-check-$$" >/dev/null 2>>"$work/podman.log"
start_bridge
wait_until 30 bridge_online || die "the new container never said online"
keys_before=$(keys)
wait_until 30 key_arrives "$keys_before" || die "the Samsung never received a key from the new container"
[ "$(pairings)" = 1 ] || die "the new container paired again: the token was not kept"
echo "a key from the new container, with the kept token: no new pairing"
# The new container opens its own session (counted since the pairing, before the old one stopped).
more_sessions() {
    [ "$(sessions)" -gt "$sessions_paired" ] || pub -t "tv2mqtt/$androidtv/set/key" -m home
    [ "$(sessions)" -gt "$sessions_paired" ]
}
wait_until 30 more_sessions || die "the Android TV took no session from the new container"
[ "$(codes)" = 1 ] || die "the Android TV showed a new code: the bridge's certificate was not kept"
echo "the Android TV took the new container's session with the kept certificate: no new code"

step "The HEALTHCHECK says unhealthy once the broker stops"
kill "$broker_pid"
wait "$broker_pid" 2>/dev/null || true
broker_pid=""
# Failures count once the start period (30 s) is over, and after three retries.
unhealthy() { [ "$(health)" = unhealthy ]; }
began=$(date +%s)
wait_until 60 unhealthy || die "the HEALTHCHECK still passes a minute after the broker stopped"
echo "unhealthy after $(($(date +%s) - began)) s"
podman stop -t 10 "tv2mqtt-check-$$" >/dev/null 2>>"$work/podman.log"
start_broker

step "The add-on's image (deploy/homeassistant-addon), on the stand-in base"
# Its Dockerfile clones the tagged release from GitHub: git is pointed at this checkout's
# HEAD instead (a bare clone, bind-mounted into the build), by a branch named after the commit
# so that a new commit is not served the cached clone of an old one.
ref="check-image-$(git rev-parse --short HEAD)"
git clone --quiet --bare --no-local . "$work/src.git"
git -C "$work/src.git" update-ref "refs/heads/$ref" "$(git rev-parse HEAD)"
printf '[url "file:///check-src.git"]\n\tinsteadOf = https://github.com/tv2mqtt/tv2mqtt\n' >"$work/gitconfig"
podman build "${limits[@]}" --format docker --network host --volume "$toolchain:$toolchain:ro" \
    --volume "$work/src.git:/check-src.git:ro" --volume "$work/gitconfig:/etc/gitconfig:ro" \
    --build-arg "SWIFT_IMAGE=$swift_base" --build-arg "BUILD_FROM=$ha_base" --build-arg "TV2MQTT_REF=$ref" \
    -f deploy/homeassistant-addon/Dockerfile -t "$addon_image" deploy/homeassistant-addon
size=$(podman image inspect --format '{{.Size}}' "$addon_image")
echo "add-on image size: $((size / 1000000)) MB ($addon_image)"
mkdir -p "$work/data"
cp deploy/homeassistant-addon/options.json "$work/data/options.json"
containers+=(tv2mqtt-addon-check-$$)
podman run -d "${limits[@]}" --name "tv2mqtt-addon-check-$$" --network "ns:/run/netns/$ns" \
    -e STANDIN_MQTT_HOST=127.0.0.1 -e STANDIN_MQTT_PORT=1883 -v "$work/data:/data" "$addon_image" \
    >/dev/null 2>>"$work/podman.log"
# The image's bridge is stopped and the broker new: `online` can only be the add-on's.
wait_until 30 bridge_online || { podman logs "tv2mqtt-addon-check-$$" >&2; die "the add-on never said online"; }
echo "the add-on started, connected and said online"

printf '\ncheck-image: every check passed\n'
