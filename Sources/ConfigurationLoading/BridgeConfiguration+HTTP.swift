import Configuration
import Wire

extension BridgeConfiguration {
    /// The `http` section (the status page). A page any other machine can reach needs a token,
    /// unless `allow_from` names the only clients (Home Assistant's ingress gateway, which
    /// authenticates its users itself): refused here, so the bridge does not start without one.
    static func decodeHTTP(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> HTTP {
        let members = try reader.object(value, "http", allowed: ["listen", "token", "allow_from", "hosts"])
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
        http.hosts = try decodeHosts(members["hosts"], reader)
        guard let listen = http.listen else { return http }
        if http.token.isEmpty && http.allowFrom.isEmpty && !isLoopback(listen.host) {
            throw reader.fail(
                "http.listen",
                "'\(listen)' can be reached from other machines: set http.token (TV2MQTT_HTTP_TOKEN, --http-token-file), or listen on 127.0.0.1"
            )
        }
        if !isLoopback(listen.host) && !http.token.isEmpty && http.token.count < HTTP.minimumRemoteTokenLength {
            throw reader.fail(
                "http.token",
                "http.token has \(http.token.count) characters; a page other machines can reach needs at least \(HTTP.minimumRemoteTokenLength) (128 bits: openssl rand -base64 16)"
            )
        }
        return http
    }

    /// `http.hosts`: host names (letters, digits, `-`, `.`), compared without case and port.
    private static func decodeHosts(_ value: JSONValue?, _ reader: ConfigReader) throws(ConfigError) -> [String] {
        let hosts: [String]
        if let text = value?.stringValue {
            // From the environment (TV2MQTT_HTTP_HOSTS): a comma-separated list.
            hosts = text.split(separator: ",").map { String($0).trimmingCharacters(in: " ") }
        } else {
            hosts = try reader.strings(value, "http.hosts") ?? []
        }
        for (index, host) in hosts.enumerated() {
            let valid =
                !host.isEmpty && host.count <= 253
                && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
            if !valid {
                throw reader.fail("http.hosts[\(index)]", "expected a host name without port, got '\(host.prefix(64))'")
            }
        }
        return hosts.map { $0.lowercased() }
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
