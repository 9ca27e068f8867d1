# The bashio functions deploy/homeassistant-addon/run.sh calls, answered from the environment
# (STANDIN_MQTT_HOST, STANDIN_MQTT_PORT, STANDIN_MQTT_USER, STANDIN_MQTT_PASSWORD,
# STANDIN_ADDON_IP, STANDIN_INGRESS_PORT) instead of the Supervisor: enough to start the
# add-on without it.
bashio::services.available() {
    [ "$1" = mqtt ] && [ -n "${STANDIN_MQTT_HOST:-}" ]
}

bashio::services() {
    case "$1/$2" in
    mqtt/host) echo "${STANDIN_MQTT_HOST:-}" ;;
    mqtt/port) echo "${STANDIN_MQTT_PORT:-1883}" ;;
    mqtt/ssl) echo false ;;
    mqtt/username) echo "${STANDIN_MQTT_USER:-}" ;;
    mqtt/password) echo "${STANDIN_MQTT_PASSWORD:-}" ;;
    *) echo "bashio stand-in: no answer for services $1 $2" >&2; return 1 ;;
    esac
}

# The Supervisor answers the add-on's address on its network; the stand-in runs on loopback.
bashio::addon.ip_address() {
    echo "${STANDIN_ADDON_IP:-127.0.0.1}"
}

bashio::addon.ingress_port() {
    echo "${STANDIN_INGRESS_PORT:-8099}"
}

bashio::log.warning() {
    echo "[warning] $*" >&2
}

bashio::exit.nok() {
    echo "[fatal] $*" >&2
    exit 1
}
