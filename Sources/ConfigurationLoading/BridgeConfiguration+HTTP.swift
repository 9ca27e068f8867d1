import Configuration
import Drivers
import Wire

extension BridgeConfiguration {
    /// The `http` section (the status page). A page any other machine can reach needs a token,
    /// unless `allow_from` names the only clients (Home Assistant's ingress gateway, which
    /// authenticates its users itself): refused here, so the bridge does not start without one.
    static func decodeHTTP(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> HTTP {
        let members = try reader.object(value, "http", allowed: ["listen", "token", "allow_from"])
        var http = HTTP()
        if let listen = try reader.string(members["listen"], "http.listen"), !listen.isEmpty {
            http.listen = try parseHostPort(listen, "http.listen", reader)
        }
        http.token = try reader.string(members["token"], "http.token") ?? ""
        if let text = members["allow_from"]?.stringValue {
            // From the environment (TV2MQTT_HTTP_ALLOW_FROM): a comma-separated list.
            http.allowFrom = text.split(separator: ",").map { String($0).trimmingCharacters(in: " ") }
        } else {
            http.allowFrom = try reader.strings(members["allow_from"], "http.allow_from") ?? []
        }
        for (index, address) in http.allowFrom.enumerated() where !isIPAddress(address) {
            throw reader.fail("http.allow_from[\(index)]", "expected an IP address, got '\(address)'")
        }
        guard let listen = http.listen else { return http }
        if http.token.isEmpty && http.allowFrom.isEmpty && !isLoopback(listen.host) {
            throw reader.fail(
                "http.listen",
                "'\(listen)' can be reached from other machines: set http.token (TV2MQTT_HTTP_TOKEN, --http-token-file), or listen on 127.0.0.1"
            )
        }
        return http
    }

    /// 127.0.0.0/8, `::1` or `localhost`: only this machine can connect.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        return IPv4.parse(host).map { $0 >> 24 == 127 } ?? false
    }

    private static func isIPAddress(_ text: String) -> Bool {
        IPv4.parse(text) != nil || (text.contains(":") && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." })
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
