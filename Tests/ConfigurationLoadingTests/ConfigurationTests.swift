import BridgeCommandLine
import Configuration
import Drivers
import TVModel
import TestSupport
import Testing
import Wire

@testable import Bridge
@testable import ConfigurationLoading

/// Loads a configuration from in-memory sources.
func loadConfig(
    _ arguments: [String] = [], file: String? = nil, environment: [String: String] = [:], files: [String: String] = [:]
) throws -> BridgeConfiguration {
    var all = files
    var args = arguments
    if let file {
        all["/config.json"] = file
        args = ["--config", "/config.json"] + args
    }
    let parsed = try ParsedArguments.parse(args, specs: ConfigurationLoader.runFlags(.shipped), command: "tv2mqtt run")
    return try ConfigurationLoader.load(arguments: parsed, environment: environment, vendors: .shipped) { path in
        guard let text = all[path] else { throw ConfigError("no such file") }
        return Array(text.utf8)
    }
}

func configError(_ arguments: [String] = [], file: String? = nil, environment: [String: String] = [:]) -> String? {
    do {
        _ = try loadConfig(arguments, file: file, environment: environment)
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite("Configuration", .cpuBound)
struct ConfigurationTests {
    @Test("defaults match README › Configuration")
    func defaults() throws {
        let config = try loadConfig()
        #expect(config.mqtt.server == BrokerAddress(useTLS: false, host: "localhost", port: 1883))
        #expect(config.mqtt.clientID == "tv2mqtt")
        #expect(config.mqtt.keepalive == 60)
        #expect(config.baseTopic == "tv2mqtt")
        #expect(config.homeAssistant.discoveryPrefix == "homeassistant")
        #expect(config.homeAssistant.statusTopic == "homeassistant/status")
        #expect(config.homeAssistant.style == .device)
        #expect(config.discovery.ssdpAddress == HostPort(host: "239.255.255.250", port: 1900))
        #expect(config.discovery.searchInterval == 300)
        #expect(config.discovery.mdns && config.discovery.mdnsAddress == HostPort(host: "224.0.0.251", port: 5353))
        #expect(
            config.discovery.ports(scannedFor: .shipped) == [8060, 8001, 3001, 6466],
            "Roku ECP, Samsung REST, LG SSAP over TLS, the Android TV remote")
        #expect(config.wol.targets == [HostPort(host: "255.255.255.255", port: 9)])
        #expect(config.wol.repeatCount == 3)
        #expect(config.pollInterval == 10)
        #expect(config.vendorSettings[RokuSettings.self].ecp2 == .auto)
        #expect(config.vendorSettings[SamsungSettings.self].clientName == "tv2mqtt")
        #expect(config.logLevel == "info")
    }

    @Test("the full example configuration loads")
    func specExample() throws {
        let config = try loadConfig(
            file: """
                {
                  "mqtt": { "server": "mqtts://broker.lan:8883", "user": "tv", "password": "s3cret", "client_id": "tv2mqtt",
                            "keepalive": 60, "ca": "/etc/ca.pem", "cert": "", "key": "", "reject_unauthorized": true },
                  "base_topic": "tv2mqtt",
                  "homeassistant": { "enabled": true, "discovery_prefix": "homeassistant", "status_topic": "homeassistant/status",
                                     "discovery": "entity", "merge_with_native_devices": false },
                  "discovery": { "ssdp": true, "ssdp_address": "239.255.255.250:1900", "interfaces": [], "search_interval": 300,
                                 "scan": ["198.51.100.0/24"], "scan_ports": [8060, 8001] },
                  "wol": { "targets": ["255.255.255.255:9"], "repeat": 3 },
                  "poll_interval": 10,
                  "state_dir": "/var/lib/tv2mqtt",
                  "roku": { "ecp2": "auto" },
                  "samsung": { "client_name": "tv2mqtt", "apps": { "Netflix": "3201907018807", "YouTube": "111299001912" } },
                  "tvs": [ { "host": "127.0.0.2", "kind": "roku", "name": "Living Room", "id": "living_room",
                             "mac": ["aa:bb:cc:dd:ee:01", "AA-BB-CC-DD-EE-02"] } ],
                  "log_level": "info"
                }
                """)
        #expect(config.mqtt.server == BrokerAddress(useTLS: true, host: "broker.lan", port: 8883))
        #expect(config.homeAssistant.style == .entity)
        #expect(config.discovery.scan.map(\.description) == ["198.51.100.0/24"])
        #expect(config.discovery.scan.first?.hosts.count == 254)
        #expect(config.tvs.first?.id?.rawValue == "living_room")
        #expect(config.tvs.first?.macs == ["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"])
        #expect(config.tvs.first?.kind == .roku)
    }

    @Test("flags beat the environment, which beats the file")
    func precedence() throws {
        let file = #"{"base_topic": "from_file", "log_level": "debug", "mqtt": {"server": "mqtt://file:1883"}}"#
        let environment = ["TV2MQTT_BASE_TOPIC": "from_env", "TV2MQTT_MQTT_SERVER": "mqtt://env"]
        let config = try loadConfig(["--base-topic", "from_flag"], file: file, environment: environment)
        #expect(config.baseTopic == "from_flag")
        #expect(config.mqtt.server == BrokerAddress(useTLS: false, host: "env", port: 1883))
        #expect(config.logLevel == "debug")
    }

    @Test("TV2MQTT_CONFIG names the file when --config is absent")
    func configFromEnvironment() throws {
        let parsed = try ParsedArguments.parse([], specs: ConfigurationLoader.runFlags(.shipped), command: "run")
        let config = try ConfigurationLoader.load(
            arguments: parsed, environment: ["TV2MQTT_CONFIG": "/c.json"], vendors: .shipped
        ) { _ in
            Array(#"{"poll_interval": 3}"#.utf8)
        }
        #expect(config.pollInterval == 3)
    }

    @Test("wake_timeout: 20 s unless configured; 0 turns the turn-on report off; a TV entry may set its own")
    func wakeTimeout() throws {
        let parsed = try ParsedArguments.parse([], specs: ConfigurationLoader.runFlags(.shipped), command: "run")
        let standard = try ConfigurationLoader.load(
            arguments: parsed, environment: ["TV2MQTT_CONFIG": "/c.json"], vendors: .shipped
        ) {
            _ in Array("{}".utf8)
        }
        #expect(standard.wakeTimeout == 20)
        let off = try ConfigurationLoader.load(
            arguments: parsed, environment: ["TV2MQTT_CONFIG": "/c.json"], vendors: .shipped
        ) { _ in
            Array(#"{"wake_timeout": 0}"#.utf8)
        }
        #expect(off.wakeTimeout == 0)
        let perTV = try ConfigurationLoader.load(
            arguments: parsed, environment: ["TV2MQTT_CONFIG": "/c.json"], vendors: .shipped
        ) {
            _ in
            Array(
                #"{"wake_timeout": 30, "tvs": [{"host": "192.0.2.2", "id": "den", "wake_timeout": 60}, {"host": "192.0.2.3"}]}"#
                    .utf8)
        }
        #expect(perTV.wakeTimeout(for: TVID("den")!, host: "192.0.2.9") == 60)
        #expect(perTV.wakeTimeout(for: TVID("roku_x")!, host: "192.0.2.3") == 30)
        #expect(perTV.wakeTimeout(for: TVID("roku_y")!, host: "192.0.2.4") == 30)
        let listed = perTV.effectiveJSON(vendors: .shipped)["tvs"]?.arrayValue?.first
        #expect(listed?["wake_timeout"] == .number(60))
    }

    @Test("allow_cleartext: off unless a TV entry sets it; check-config shows it; not a boolean is refused")
    func allowCleartext() throws {
        let config = try loadConfig(
            [], file: #"{"tvs": [{"host": "192.0.2.2", "id": "den", "allow_cleartext": true}, {"host": "192.0.2.3"}]}"#)
        #expect(config.tvs.map(\.allowCleartext) == [true, false])
        let listed = config.effectiveJSON(vendors: .shipped)["tvs"]?.arrayValue
        #expect(listed?.first?["allow_cleartext"] == .bool(true) && listed?.last?["allow_cleartext"] == nil)
        let factory = VendorDriverFactory(configuration: config, vendors: .shipped, logger: .disabled)
        let allowed = factory.tvOptions.filter(\.value.allowsCleartext).keys.sorted()
        #expect(allowed == ["192.0.2.2", "den"])
        #expect(throws: ConfigError.self) {
            try loadConfig([], file: #"{"tvs": [{"host": "192.0.2.2", "allow_cleartext": 1}]}"#)
        }
    }

    @Test("--tv adds TVs after the configured ones; --mqtt-password-file reads the first line")
    func tvFlagsAndPasswordFile() throws {
        let config = try loadConfig(
            [
                "--tv", "roku:127.0.0.2", "--tv", "samsung:127.0.0.3:8001", "--tv", "127.0.0.4", "--mqtt-user", "u",
                "--mqtt-password-file", "/pw",
            ],
            file: #"{"tvs": [{"host": "127.0.0.9"}]}"#, files: ["/pw": "hunter2\n"])
        #expect(config.tvs.map(\.host) == ["127.0.0.9", "127.0.0.2", "127.0.0.3", "127.0.0.4"])
        #expect(config.tvs.map(\.kind) == [nil, .roku, .samsung, nil])
        #expect(config.tvs[2].port == 8001)
        #expect(config.mqtt.password == "hunter2")
    }

    @Test("a pre-2016 Samsung: --tv samsung-legacy:HOST and tvs[].kind samsung-legacy")
    func legacySamsung() throws {
        let config = try loadConfig(
            ["--tv", "samsung-legacy:127.0.0.81"],
            file: #"{"tvs": [{"host": "127.0.0.82", "kind": "samsung-legacy", "id": "old_tv", "port": 55001}]}"#)
        #expect(config.tvs.map(\.kind) == [.samsungLegacy, .samsungLegacy])
        #expect(config.tvs.map(\.host) == ["127.0.0.82", "127.0.0.81"])
        #expect(config.tvs[0].port == 55001)
    }

    @Test(
        "mistakes are refused with a message naming the key, flag or variable",
        arguments: [
            (#"{"mqtt": {"pasword": "x"}}"#, [String](), "unknown key 'mqtt.pasword'"),
            (#"{"polling": 5}"#, [], "unknown key 'polling'"),
            (#"{"poll_interval": "fast"}"#, [], "poll_interval: expected a number"),
            (#"{"poll_interval": 0}"#, [], "poll_interval: must be between 1 and 86400, got 0"),
            (#"{"wake_timeout": -1}"#, [], "wake_timeout: must be between 0 and 3600, got -1"),
            (
                #"{"tvs": [{"host": "1.2.3.4", "wake_timeout": 4000}]}"#, [],
                "tvs[0].wake_timeout: must be between 0 and 3600"
            ),
            ("{}", ["--poll-interval", "0"], "--poll-interval: must be between 1 and 86400, got 0"),
            ("{}", ["--log-level", "loud"], "--log-level: must be one of trace, debug, info, warning, error"),
            (#"{"mqtt": {"server": "http://x"}}"#, [], "mqtt.server: the scheme must be mqtt:// or mqtts://"),
            (#"{"mqtt": {"keepalive": 1.5}}"#, [], "mqtt.keepalive: must be between 5 and 65535"),
            (#"{"base_topic": "homeassistant"}"#, [], "base_topic: must differ from homeassistant.discovery_prefix"),
            (#"{"base_topic": "tv/#"}"#, [], "base_topic: 'tv/#' must be MQTT topic levels"),
            (#"{"tvs": [{"name": "x"}]}"#, [], "tvs[0].host: every TV needs a host"),
            (#"{"tvs": [{"host": "1.2.3.4", "id": "Living Room"}]}"#, [], "tvs[0].id: 'Living Room' must be 1-64 of"),
            (#"{"tvs": [{"host": "1.2.3.4", "mac": "zz:00"}]}"#, [], "tvs[0].mac: 'zz:00' is not a MAC address"),
            (
                #"{"tvs": [{"host": "1.2.3.4", "kind": "sony"}]}"#, [],
                "tvs[0].kind: must be one of roku, samsung, samsung-legacy, lg"
            ),
            (#"{"tvs": [{"host": "1.2.3.4", "port": 70000}]}"#, [], "tvs[0].port: must be between 1 and 65535"),
            (#"{"discovery": {"scan": ["198.0.0.0/8"]}}"#, [], "discovery.scan[0]: '198.0.0.0/8' is larger than a /16"),
            (#"{"wol": {"targets": ["bad host:9"]}}"#, [], "wol.targets[0]: 'bad host' is not an IP address"),
            (#"{"mqtt": {"password": "p"}}"#, [], "mqtt.password: a password needs mqtt.user too"),
            ("[1]", [], "the configuration must be a JSON object"),
            ("{nope", [], "/config.json is not valid JSON"),
            ("{}", ["--frobnicate"], "unknown flag '--frobnicate' for 'tv2mqtt run'"),
            ("{}", ["--tv"], "--tv: needs a value"),
        ])
    func mistakes(file: String, arguments: [String], expected: String) {
        let message = configError(arguments, file: file) ?? "no error"
        #expect(message.contains(expected), "got: \(message)")
    }

    @Test("an environment variable's bad value is named by the variable")
    func environmentErrorNamesVariable() {
        let message = configError(environment: ["TV2MQTT_LOG_LEVEL": "chatty"]) ?? ""
        #expect(message.hasPrefix("TV2MQTT_LOG_LEVEL: must be one of"))
    }

    @Test("the effective configuration masks the password and never contains it")
    func effectiveMasksSecrets() throws {
        let config = try loadConfig(file: #"{"mqtt": {"user": "tv", "password": "Pa55-word!"}}"#)
        let text = config.effectiveJSON(vendors: .shipped).serialized()
        #expect(!text.contains("Pa55-word!"))
        #expect(config.effectiveJSON(vendors: .shipped)["mqtt"]?["password"] == "***")
        #expect(try loadConfig().effectiveJSON(vendors: .shipped)["mqtt"]?["password"] == "")
    }
}
