import Configuration
import Wire

extension BridgeConfiguration {
    /// `host:port` or `[v6]:port`; `defaultPort` when the port is left out.
    static func parseHostPort(
        _ text: String, _ path: String, _ reader: ConfigReader, defaultPort: UInt16? = nil
    ) throws(ConfigError) -> HostPort {
        var host = text
        var portText: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty { host = "" }
        } else if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard let port = portText.map({ UInt16($0) }) ?? defaultPort, port != 0, !host.isEmpty else {
            throw reader.fail(path, "expected host:port, got '\(text)'")
        }
        try reader.validateHost(host, path)
        return HostPort(host: host, port: port)
    }

    /// `a.b.c.d/n`, IPv4 only, at most 65,536 addresses (/16) so a typo cannot start a huge scan.
    static func parseCIDR(_ text: String, _ path: String, _ reader: ConfigReader) throws(ConfigError) -> CIDR {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let address = IPv4.parse(String(parts[0])), let length = Int(parts[1]),
            (0...32).contains(length)
        else {
            throw reader.fail(path, "expected an IPv4 network such as 192.168.1.0/24, got '\(text)'")
        }
        guard length >= 16 else {
            throw reader.fail(path, "'\(text)' is larger than a /16; split it into smaller networks")
        }
        let mask: UInt32 = length == 0 ? 0 : ~UInt32(0) << UInt32(32 - length)
        return CIDR(network: address & mask, prefixLength: length)
    }
}
