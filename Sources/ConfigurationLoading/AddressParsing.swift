import Bridge
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
        try validateHost(host, path, reader)
        return HostPort(host: host, port: port)
    }

    /// An IPv4/IPv6 address or a DNS name (letters, digits, '-', '.').
    static func validateHost(_ host: String, _ path: String, _ reader: ConfigReader) throws(ConfigError) {
        if IPv4.parse(host) != nil || host.contains(":") && host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
        {
            return
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            host.utf8.count <= 253 && !labels.isEmpty
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
        guard valid else { throw reader.fail(path, "'\(host)' is not an IP address or host name") }
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

/// Dotted-quad IPv4 text ⇄ a 32-bit number.
enum IPv4 {
    static func parse(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let octet = UInt8(part),
                part.count == 1 || !part.hasPrefix("0")
            else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }
}
