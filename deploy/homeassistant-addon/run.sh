#!/usr/bin/with-contenv bashio
# Starts tv2mqtt with the add-on's options (/data/options.json, which has the layout of
# tv2mqtt's configuration file) and the broker the Supervisor provides. The state (known TVs,
# Samsung and LG tokens) lives in /data, which survives add-on updates.
set -euo pipefail

if bashio::services.available "mqtt"; then
    host=$(bashio::services "mqtt" "host")
    port=$(bashio::services "mqtt" "port")
    scheme=mqtt
    [ "$(bashio::services "mqtt" "ssl")" = "true" ] && scheme=mqtts
    export TV2MQTT_MQTT_SERVER="${scheme}://${host}:${port}"
    # Environment, not the command line: the password never shows in `ps`.
    export TV2MQTT_MQTT_USER="$(bashio::services "mqtt" "username")"
    export TV2MQTT_MQTT_PASSWORD="$(bashio::services "mqtt" "password")"
else
    bashio::log.warning "No MQTT service found: install the Mosquitto broker add-on (or set up the MQTT integration)"
fi

# The status page, for the sidebar panel: on the ingress port of the add-on's address on the
# Supervisor network (with host_network, the host's own address there, 172.30.32.1 by default),
# not 0.0.0.0, which on the host network would be every interface of the host. Served to the
# ingress gateway only (every other address is closed unanswered; the bridge compares parsed
# addresses), which authenticates the user.
listen="$(bashio::addon.ip_address)"
case "${listen}" in
    "" | null | 0.0.0.0 | "::" | *[!0-9.]*)
        bashio::exit.nok "The Supervisor gave no IPv4 address for the add-on (got '${listen}'): the status page is not started"
        ;;
esac
export TV2MQTT_HTTP_LISTEN="${listen}:$(bashio::addon.ingress_port)"
export TV2MQTT_HTTP_ALLOW_FROM="172.30.32.2"

exec /usr/local/bin/tv2mqtt run --config /data/options.json --state-dir /data
