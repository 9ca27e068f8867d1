import Configuration
import Drivers
import TVModel
import Wire

/// Builds the effective configuration from its sources, in precedence order:
/// flags > environment > file > defaults (README › Configuration).
public enum ConfigurationLoader {
    /// Environment variable → configuration key path.
    static let environmentKeys: [(String, [String])] = [
        ("TV2MQTT_MQTT_SERVER", ["mqtt", "server"]),
        ("TV2MQTT_MQTT_USER", ["mqtt", "user"]),
        ("TV2MQTT_MQTT_PASSWORD", ["mqtt", "password"]),
        ("TV2MQTT_BASE_TOPIC", ["base_topic"]),
        ("TV2MQTT_STATE_DIR", ["state_dir"]),
        ("TV2MQTT_LOG_LEVEL", ["log_level"]),
        ("TV2MQTT_ADD_TV_ALLOW_LOOPBACK", ["add_tv", "allow_loopback"]),
        ("TV2MQTT_MAX_TVS", ["max_tvs"]),
        ("TV2MQTT_HTTP_LISTEN", ["http", "listen"]),
        ("TV2MQTT_HTTP_TOKEN", ["http", "token"]),
        ("TV2MQTT_HTTP_ALLOW_FROM", ["http", "allow_from"]),
        ("TV2MQTT_HTTP_HOSTS", ["http", "hosts"]),
    ]

    /// Loads the configuration.
    /// - Parameters:
    ///   - arguments: the values of `run`'s flags (the other commands reuse the same flags).
    ///   - environment: the process environment.
    ///   - vendors: the vendors driven: their sections, `tvs` keys and kinds are the file's.
    ///   - readFile: reads a file's bytes (injected so tests need no files).
    public static func load(
        arguments: some FlagValues, environment: [String: String], vendors: [Vendor],
        readFile: (String) throws -> [UInt8]
    ) throws(ConfigError) -> BridgeConfiguration {
        var tree = ConfigTree()
        if let path = arguments.value("config") ?? environment["TV2MQTT_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let bytes: [UInt8]
            do {
                bytes = try readFile(path)
            } catch {
                throw ConfigError("cannot read the configuration file \(path): \(error)")
            }
            do {
                tree.root = try JSONParser.parse(bytes, limits: JSONLimits(maxDepth: 16, maxBytes: 4 << 20))
            } catch {
                throw ConfigError("\(path) is not valid JSON: \(error.reason)")
            }
        }
        for (variable, path) in environmentKeys {
            if let value = environment[variable], !value.isEmpty { tree.set(path, .string(value), origin: variable) }
        }
        try applyFlags(arguments, to: &tree, vendors: vendors, readFile: readFile)
        var configuration = try BridgeConfiguration.decode(tree.root, vendors: vendors, origins: tree.origins)
        // A test hook, deliberately undocumented (see `BridgeConfiguration.stateSaveDelay`).
        if let text = environment["TV2MQTT_TEST_STATE_SAVE_DELAY_MS"], let ms = Int(text), (0...60_000).contains(ms) {
            configuration.stateSaveDelay = .milliseconds(ms)
        }
        return configuration
    }

    private static func applyFlags(
        _ arguments: some FlagValues, to tree: inout ConfigTree, vendors: [Vendor], readFile: (String) throws -> [UInt8]
    ) throws(ConfigError) {
        let simple: [(String, [String])] = [
            ("mqtt-server", ["mqtt", "server"]), ("mqtt-user", ["mqtt", "user"]),
            ("mqtt-client-id", ["mqtt", "client_id"]), ("base-topic", ["base_topic"]),
            ("discovery-prefix", ["homeassistant", "discovery_prefix"]), ("state-dir", ["state_dir"]),
            ("log-level", ["log_level"]), ("log-format", ["log_format"]),
            ("ssdp-address", ["discovery", "ssdp_address"]), ("mdns-address", ["discovery", "mdns_address"]),
            ("http-listen", ["http", "listen"]),
        ]
        for (flag, path) in simple {
            if let value = arguments.value(flag) { tree.set(path, .string(value), origin: "--\(flag)") }
        }
        // Secrets come from files, never the command line (which `ps` shows to everyone).
        for (flag, path) in [("mqtt-password-file", ["mqtt", "password"]), ("http-token-file", ["http", "token"])] {
            guard let file = arguments.value(flag) else { continue }
            let bytes: [UInt8]
            do {
                bytes = try readFile(file)
            } catch {
                throw ConfigError("--\(flag): cannot read \(file): \(error)")
            }
            // The first line, without its line end: files written by `echo` end with a newline.
            let secret = String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
            tree.set(path, .string(secret), origin: "--\(flag)")
        }
        if let interval = arguments.value("poll-interval") {
            guard let seconds = Double(interval) else {
                throw ConfigError("--poll-interval: expected seconds, got '\(interval)'")
            }
            tree.set(["poll_interval"], .number(seconds), origin: "--poll-interval")
        }
        if arguments.has("add-tv-allow-loopback") {
            tree.set(["add_tv", "allow_loopback"], .bool(true), origin: "--add-tv-allow-loopback")
        }
        if arguments.has("no-ssdp") { tree.set(["discovery", "ssdp"], .bool(false), origin: "--no-ssdp") }
        if arguments.has("no-mdns") { tree.set(["discovery", "mdns"], .bool(false), origin: "--no-mdns") }
        if arguments.has("scan") {
            tree.set(["discovery", "scan"], .array(arguments.values("scan").map(JSONValue.string)), origin: "--scan")
        }
        if arguments.has("wol-target") {
            tree.set(
                ["wol", "targets"], .array(arguments.values("wol-target").map(JSONValue.string)), origin: "--wol-target"
            )
        }
        for text in arguments.values("tv") {
            tree.append(["tvs"], try parseTVFlag(text, vendors: vendors).configurationEntry, origin: "--tv")
        }
    }

    /// `--tv [kind:]HOST[:PORT]`, the kind that of one of `vendors`.
    public static func parseTVFlag(_ text: String, vendors: [Vendor]) throws(ConfigError) -> TVAddress {
        var rest = Substring(text)
        var kind: TVKind?
        for candidate in vendors.kindNames where rest.hasPrefix("\(candidate):") {
            kind = TVKind(rawValue: candidate)
            rest = rest.dropFirst(candidate.count + 1)
        }
        var host = String(rest)
        var port: UInt16?
        if let colon = rest.lastIndex(of: ":"), rest.filter({ $0 == ":" }).count == 1 {
            guard let number = UInt16(rest[rest.index(after: colon)...]), number != 0 else {
                throw ConfigError("--tv: bad port in '\(text)'")
            }
            host = String(rest[..<colon])
            port = number
        }
        guard !host.isEmpty else {
            throw ConfigError("--tv: expected \(vendors.addressPrefixHelp)HOST[:PORT], got '\(text)'")
        }
        return TVAddress(kind: kind, host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port)
    }
}
