import Configuration
import Drivers
import MQTTInterface
import TVModel
import Wire

extension BridgeConfiguration {
    /// The keys at the top of the file besides the vendors' sections.
    static let commonKeys: Set<String> = [
        "mqtt", "base_topic", "homeassistant", "discovery", "wol", "poll_interval", "wake_timeout", "state_dir",
        "tvs", "log_level", "log_format", "add_tv", "max_tvs", "http",
    ]

    /// Reads and validates a merged configuration tree, with the sections, `tvs` keys and kinds
    /// of `vendors`. Absent keys keep their defaults.
    static func decode(_ tree: JSONValue, vendors: [Vendor], origins: [String: String] = [:]) throws(ConfigError)
        -> BridgeConfiguration
    {
        let reader = ConfigReader(origins: origins)
        let sections = vendors.compactMap(\.configuration)
        var config = BridgeConfiguration()
        let top = try reader.object(tree, "", allowed: commonKeys.union(sections.map(\.key)))
        config.mqtt = try decodeMQTT(top["mqtt"], reader)
        if let base = try reader.string(top["base_topic"], "base_topic") {
            try validateTopicPrefix(base, "base_topic", reader)
            config.baseTopic = base
        }
        config.homeAssistant = try decodeHomeAssistant(top["homeassistant"], reader)
        guard config.baseTopic != config.homeAssistant.discoveryPrefix else {
            throw reader.fail("base_topic", "must differ from homeassistant.discovery_prefix ('\(config.baseTopic)')")
        }
        config.discovery = try decodeDiscovery(top["discovery"], reader)
        config.wol = try decodeWakeOnLAN(top["wol"], reader)
        config.pollInterval = try reader.number(top["poll_interval"], "poll_interval", in: 1...86_400) ?? 10
        config.wakeTimeout = try reader.number(top["wake_timeout"], "wake_timeout", in: 0...3_600) ?? 20
        config.stateDir = try reader.string(top["state_dir"], "state_dir").flatMap { $0.isEmpty ? nil : $0 }
        for section in sections {
            try section.decode(top[section.key], into: &config.vendorSettings, reader)
        }
        config.tvs = try decodeTVs(top["tvs"], vendors: vendors, reader)
        config.addTV = try decodeAddTV(top["add_tv"], reader)
        config.http = try decodeHTTP(top["http"], reader)
        config.maxTVs = try reader.integer(top["max_tvs"], "max_tvs", in: 1...1_000_000) ?? config.maxTVs
        config.logLevel =
            try reader.choice(top["log_level"], "log_level", ["trace", "debug", "info", "warning", "error"]) ?? "info"
        config.logFormat = try reader.choice(top["log_format"], "log_format", ["text", "json"]) ?? "text"
        return config
    }

    private static func decodeMQTT(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> MQTT {
        let keys: Set<String> = [
            "server", "user", "password", "client_id", "keepalive", "ca", "cert", "key", "reject_unauthorized",
        ]
        let members = try reader.object(value, "mqtt", allowed: keys)
        var mqtt = MQTT()
        if let server = try reader.string(members["server"], "mqtt.server") {
            mqtt.server = try parseBroker(server, reader)
        }
        mqtt.user = try reader.string(members["user"], "mqtt.user") ?? ""
        mqtt.password = try reader.string(members["password"], "mqtt.password") ?? ""
        if let clientID = try reader.string(members["client_id"], "mqtt.client_id") {
            // MQTT 3.1.1 §3.1.3.1: servers must accept 1–23 of [0-9a-zA-Z]; mosquitto accepts more.
            guard !clientID.isEmpty, clientID.utf8.count <= 65535, !clientID.contains("\u{0}") else {
                throw reader.fail("mqtt.client_id", "must be a non-empty string")
            }
            mqtt.clientID = clientID
        }
        mqtt.keepalive = try reader.integer(members["keepalive"], "mqtt.keepalive", in: 5...65535) ?? 60
        mqtt.ca = try reader.string(members["ca"], "mqtt.ca") ?? ""
        mqtt.cert = try reader.string(members["cert"], "mqtt.cert") ?? ""
        mqtt.key = try reader.string(members["key"], "mqtt.key") ?? ""
        mqtt.rejectUnauthorized = try reader.bool(members["reject_unauthorized"], "mqtt.reject_unauthorized") ?? true
        if mqtt.user.isEmpty && !mqtt.password.isEmpty {
            throw reader.fail("mqtt.password", "a password needs mqtt.user too (MQTT 3.1.1 §3.1.2.9)")
        }
        return mqtt
    }

    private static func parseBroker(_ text: String, _ reader: ConfigReader) throws(ConfigError) -> BrokerAddress {
        // `mqtt://user:password@host`: the URL would end up in an error message (or a log
        // line, a `ps` listing), so credentials are refused there, and never repeated.
        let masked = maskingCredentials(text)
        guard masked == text else {
            throw reader.fail(
                "mqtt.server",
                "'\(masked)': credentials do not belong in the URL; use mqtt.user and mqtt.password (--mqtt-user, --mqtt-password-file, TV2MQTT_MQTT_PASSWORD)"
            )
        }
        let url: URLParts
        do {
            url = try URLParts(parsing: text)
        } catch {
            throw reader.fail(
                "mqtt.server",
                "'\(text)' is not a valid URL (\(error.reason)); use mqtt://host:1883 or mqtts://host:8883")
        }
        guard url.scheme == "mqtt" || url.scheme == "mqtts" else {
            throw reader.fail("mqtt.server", "the scheme must be mqtt:// or mqtts://, got '\(url.scheme)://'")
        }
        guard url.path == "/" && url.query == nil else {
            throw reader.fail("mqtt.server", "a broker URL has no path or query: '\(text)'")
        }
        return BrokerAddress(useTLS: url.scheme == "mqtts", host: url.host, port: url.effectivePort)
    }

    /// `text` with everything from the start of the authority to its last `@` (a user name
    /// and password, however mistyped: a `/` or `#` inside the password) replaced by `***`.
    static func maskingCredentials(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        var start = text.firstRange(of: "://").map(\.upperBound) ?? text.startIndex
        if start > at { start = text.startIndex }
        return String(text[..<start]) + "***" + String(text[at...])
    }

    static func validateTopicPrefix(_ topic: String, _ path: String, _ reader: ConfigReader) throws(ConfigError) {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard !topic.isEmpty, topic.utf8.count <= 200, levels.allSatisfy({ !$0.isEmpty }),
            !topic.contains(where: { $0 == "+" || $0 == "#" || $0 == "\u{0}" || $0.isWhitespace })
        else {
            throw reader.fail(path, "'\(topic)' must be MQTT topic levels without wildcards, spaces or empty levels")
        }
    }

    private static func decodeHomeAssistant(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError)
        -> HomeAssistantOptions
    {
        let keys: Set<String> = [
            "enabled", "discovery_prefix", "status_topic", "discovery", "merge_with_native_devices",
        ]
        let members = try reader.object(value, "homeassistant", allowed: keys)
        var options = HomeAssistantOptions()
        options.enabled = try reader.bool(members["enabled"], "homeassistant.enabled") ?? true
        if let prefix = try reader.string(members["discovery_prefix"], "homeassistant.discovery_prefix") {
            try validateTopicPrefix(prefix, "homeassistant.discovery_prefix", reader)
            options.discoveryPrefix = prefix
        }
        if let status = try reader.string(members["status_topic"], "homeassistant.status_topic") {
            try validateTopicPrefix(status, "homeassistant.status_topic", reader)
            options.statusTopic = status
        }
        if let style = try reader.choice(members["discovery"], "homeassistant.discovery", ["device", "entity"]) {
            options.style = HomeAssistantOptions.Style(rawValue: style)!
        }
        options.mergeWithNativeDevices =
            try reader.bool(members["merge_with_native_devices"], "homeassistant.merge_with_native_devices") ?? false
        return options
    }

    private static func decodeDiscovery(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> Discovery {
        let keys: Set<String> = [
            "ssdp", "ssdp_address", "mdns", "mdns_address", "interfaces", "search_interval", "scan", "scan_ports",
        ]
        let members = try reader.object(value, "discovery", allowed: keys)
        var discovery = Discovery()
        discovery.ssdp = try reader.bool(members["ssdp"], "discovery.ssdp") ?? true
        if let address = try reader.string(members["ssdp_address"], "discovery.ssdp_address") {
            discovery.ssdpAddress = try parseHostPort(address, "discovery.ssdp_address", reader)
        }
        discovery.mdns = try reader.bool(members["mdns"], "discovery.mdns") ?? true
        if let address = try reader.string(members["mdns_address"], "discovery.mdns_address") {
            discovery.mdnsAddress = try parseHostPort(address, "discovery.mdns_address", reader)
        }
        discovery.interfaces = try reader.strings(members["interfaces"], "discovery.interfaces") ?? []
        let interval =
            try reader.integer(members["search_interval"], "discovery.search_interval", in: 0...86_400) ?? 300
        guard interval == 0 || interval >= 10 else {
            throw reader.fail(
                "discovery.search_interval", "must be 0 (search once) or at least 10 seconds, got \(interval)")
        }
        discovery.searchInterval = interval
        var networks: [CIDR] = []
        for (index, text) in (try reader.strings(members["scan"], "discovery.scan") ?? []).enumerated() {
            networks.append(try parseCIDR(text, "discovery.scan[\(index)]", reader))
        }
        discovery.scan = networks
        if let ports = members["scan_ports"] {
            guard let list = ports.arrayValue, !list.isEmpty else {
                throw reader.fail("discovery.scan_ports", "expected a list of ports")
            }
            var parsed: [UInt16] = []
            for (index, element) in list.enumerated() {
                parsed.append(try reader.port(element, "discovery.scan_ports[\(index)]")!)
            }
            discovery.scanPorts = parsed
        }
        return discovery
    }

    private static func decodeAddTV(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> AddTV {
        let members = try reader.object(value, "add_tv", allowed: ["allow_loopback", "ports"])
        var addTV = AddTV()
        addTV.allowLoopback = try reader.bool(members["allow_loopback"], "add_tv.allow_loopback") ?? false
        if let ports = members["ports"] {
            guard let list = ports.arrayValue else { throw reader.fail("add_tv.ports", "expected a list of ports") }
            for (index, element) in list.enumerated() {
                addTV.ports.append(try reader.port(element, "add_tv.ports[\(index)]")!)
            }
        }
        return addTV
    }

    private static func decodeWakeOnLAN(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> WakeOnLAN {
        let members = try reader.object(value, "wol", allowed: ["targets", "repeat"])
        var wol = WakeOnLAN()
        if let targets = try reader.strings(members["targets"], "wol.targets") {
            var parsed: [HostPort] = []
            for (index, text) in targets.enumerated() {
                parsed.append(try parseHostPort(text, "wol.targets[\(index)]", reader, defaultPort: 9))
            }
            wol.targets = parsed
        }
        wol.repeatCount = try reader.integer(members["repeat"], "wol.repeat", in: 1...10) ?? 3
        return wol
    }

    private static func decodeTVs(_ value: JSONValue?, vendors: [Vendor], _ reader: ConfigReader) throws(ConfigError)
        -> [ConfiguredTV]
    {
        guard let value, !value.isNull else { return [] }
        let sections = vendors.compactMap(\.configuration)
        guard let list = value.arrayValue else { throw reader.fail("tvs", "expected a list of TVs") }
        var tvs: [ConfiguredTV] = []
        for (index, entry) in list.enumerated() {
            let path = "tvs[\(index)]"
            let keys = Set(sections.flatMap(\.tvKeys)).union([
                "host", "kind", "name", "id", "mac", "port", "wake_timeout", "allow_cleartext",
            ])
            let members = try reader.object(entry, path, allowed: keys)
            guard let host = try reader.string(members["host"], "\(path).host"), !host.isEmpty else {
                throw reader.fail("\(path).host", "every TV needs a host (its IP address)")
            }
            try reader.validateHost(host, "\(path).host")
            var tv = ConfiguredTV(host: host)
            tv.kind = try reader.choice(members["kind"], "\(path).kind", vendors.kindNames).map(TVKind.init)
            tv.name = try reader.string(members["name"], "\(path).name")
            if let name = tv.name, name.isEmpty || TVDescription.boundedName(name) != name {
                throw reader.fail(
                    "\(path).name", "must be 1 to \(TVDescription.maxNameLength) characters without control characters")
            }
            tv.wakeTimeout = try reader.number(members["wake_timeout"], "\(path).wake_timeout", in: 0...3_600)
            if let id = try reader.string(members["id"], "\(path).id") {
                guard let valid = TVID(id) else {
                    throw reader.fail(
                        "\(path).id", "'\(id)' must be 1-64 of [a-z0-9_-] (it becomes an MQTT topic level)")
                }
                guard !Topics.collidesWithBridgeTopics(id) else {
                    throw reader.fail(
                        "\(path).id",
                        "'\(id)' is reserved: <base_topic>/\(Topics.bridgeLevel)/… are the bridge's own topics; choose another id"
                    )
                }
                tv.id = valid
            }
            for text in try reader.strings(members["mac"], "\(path).mac") ?? [] {
                guard let mac = MACAddress(text) else {
                    throw reader.fail("\(path).mac", "'\(text)' is not a MAC address")
                }
                tv.macs.append(mac.description)
            }
            tv.port = try reader.port(members["port"], "\(path).port")
            tv.allowCleartext = try reader.bool(members["allow_cleartext"], "\(path).allow_cleartext") ?? false
            for section in sections {
                try section.decodeTV(members, path: path, into: &tv.vendorOptions, reader)
            }
            tvs.append(tv)
        }
        let ids = tvs.compactMap(\.id)
        if let duplicate = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
            throw reader.fail("tvs", "the id '\(duplicate)' is used twice")
        }
        return tvs
    }
}
