import Configuration
import ConfigurationLoading
import Drivers

// Beside the loader's type, where its callers look, but in the command line: the loader reads
// these flags' values (`FlagValues`) and knows nothing of their help texts or parsing.
extension ConfigurationLoader {
    /// The flags of `tv2mqtt run` that map onto configuration keys; `--tv` takes the kinds of `vendors`.
    public static func runFlags(_ vendors: [Vendor]) -> [FlagSpec] {
        [

            FlagSpec("config", value: "FILE", help: "configuration file (JSON); also TV2MQTT_CONFIG"),
            FlagSpec("mqtt-server", value: "URL", help: "broker: mqtt://host[:1883] or mqtts://host[:8883]"),
            FlagSpec("mqtt-user", value: "USER", help: "broker user name"),
            FlagSpec("mqtt-password-file", value: "FILE", help: "file holding the broker password"),
            FlagSpec("mqtt-client-id", value: "ID", help: "MQTT client id (unique per instance; default tv2mqtt)"),
            FlagSpec("base-topic", value: "TOPIC", help: "base MQTT topic (default tv2mqtt)"),
            FlagSpec(
                "discovery-prefix", value: "TOPIC", help: "Home Assistant discovery prefix (default homeassistant)"),
            FlagSpec("state-dir", value: "DIR", help: "state directory (default /var/lib/tv2mqtt)"),
            FlagSpec("log-level", value: "LEVEL", help: "trace, debug, info, warning or error"),
            FlagSpec("log-format", value: "FORMAT", help: "text or json"),
            FlagSpec(
                "tv", value: vendors.addressPrefixHelp + "HOST[:PORT]", repeatable: true,
                help: "a TV to add to the configured ones"),
            FlagSpec("no-ssdp", help: "do not search for TVs with SSDP"),
            FlagSpec("ssdp-address", value: "HOST:PORT", help: "SSDP address (default 239.255.255.250:1900)"),
            FlagSpec("no-mdns", help: "do not browse for TVs with mDNS (DNS-SD)"),
            FlagSpec("mdns-address", value: "HOST:PORT", help: "mDNS address (default 224.0.0.251:5353)"),
            FlagSpec("scan", value: "CIDR", repeatable: true, help: "probe this IPv4 network for TVs"),
            FlagSpec(
                "wol-target", value: "HOST:PORT", repeatable: true,
                help: "Wake-on-LAN destination (default 255.255.255.255:9)"),
            FlagSpec("poll-interval", value: "SECONDS", help: "seconds between state polls (default 10)"),
            FlagSpec("http-listen", value: "HOST:PORT", help: "serve the status page here (default: off)"),
            FlagSpec("http-token-file", value: "FILE", help: "file holding the status page's token"),
            FlagSpec(
                "add-tv-allow-loopback",
                help: "let tv/add requests add TVs at this machine's addresses (simulated TVs, tests)"),
        ]
    }
}
