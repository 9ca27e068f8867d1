/// The parts of an absolute URL that tv2mqtt connects to: an SSDP `LOCATION`, a WebSocket endpoint,
/// or the `--mqtt-server` option.
///
/// Accepts `scheme://host[:port][/path][?query][#fragment]` (RFC 3986 §3) for the schemes `http`,
/// `https`, `ws`, `wss` (RFC 6455 §3), `mqtt` and `mqtts`. Deliberately narrower than RFC 3986,
/// because these URLs come from devices on the network and decide where we connect:
/// - userinfo (`http://user@host/`) is rejected: a LOCATION has no reason to carry it, and
///   `http://192.168.1.5@10.0.0.1/` is a classic way to disguise the real host;
/// - only printable ASCII is accepted anywhere (no spaces, CR, LF, NUL or non-ASCII), so nothing
///   from the URL can split a request line or header;
/// - the host is an IPv4 dotted quad (four decimal octets without leading zeros), a DNS name
///   (letters, digits, `-`, `_`, `.`), or a bracketed IPv6 literal without a zone identifier;
/// - a port, when present, is 1…65535;
/// - a fragment is dropped: it is never sent to a server.
///
/// The scheme and host are lowercased (RFC 3986 §6.2.2.1), so a LOCATION can be compared to the
/// address a datagram came from with `==`.
public struct URLParts: Equatable, Sendable, CustomStringConvertible {
    /// Lowercased scheme: one of `http`, `https`, `ws`, `wss`, `mqtt`, `mqtts`.
    public var scheme: String
    /// Lowercased host; an IPv6 literal is stored without its brackets (`::1`).
    public var host: String
    /// The explicit port, or `nil` when the URL has none (see `effectivePort`).
    public var port: UInt16?
    /// The path, starting with `/`; an empty path becomes `/` (RFC 9110 §4.2.3 normalisation).
    public var path: String
    /// The query without its `?`, or `nil` when there is no `?`.
    public var query: String?

    /// The schemes this type accepts.
    public static let supportedSchemes: Set<String> = ["http", "https", "ws", "wss", "mqtt", "mqtts"]

    /// Parses an absolute URL.
    ///
    /// - Throws: `WireError` `unsupported` for another scheme, `malformed` for anything else refused.
    public init(parsing text: String) throws(WireError) {
        guard text.utf8.count <= 4096 else { throw .tooLarge("URL", "longer than 4096 bytes") }
        for byte in text.utf8 where byte <= 0x20 || byte >= 0x7F {
            throw .malformed("URL", "contains a space, control or non-ASCII byte")
        }
        guard let schemeEnd = text.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed("URL", "no scheme")
        }
        let scheme = String(text[..<schemeEnd]).lowercased()
        guard Self.supportedSchemes.contains(scheme) else {
            throw .unsupported("URL", "scheme \"\(scheme)\" is not one of http, https, ws, wss, mqtt, mqtts")
        }
        let afterScheme = text[schemeEnd...].dropFirst()
        guard afterScheme.hasPrefix("//") else { throw .malformed("URL", "no \"//\" after the scheme") }
        var rest = afterScheme.dropFirst(2)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }

        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var tail = rest[authorityEnd...]
        if authority.contains("@") { throw .malformed("URL", "userinfo is not allowed") }
        let (host, port) = try Self.parseAuthority(authority)

        var query: String?
        if let questionMark = tail.firstIndex(of: "?") {
            query = String(tail[tail.index(after: questionMark)...])
            tail = tail[..<questionMark]
        }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = tail.isEmpty ? "/" : String(tail)
        self.query = query
    }

    /// Builds parts directly, for URLs we construct ourselves (no validation).
    public init(scheme: String, host: String, port: UInt16? = nil, path: String = "/", query: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
    }

    /// The scheme's well-known port: 80 for http/ws, 443 for https/wss (RFC 6455 §3),
    /// 1883 for mqtt and 8883 for mqtts (IANA).
    public var defaultPort: UInt16 {
        switch scheme {
        case "https", "wss": 443
        case "mqtt": 1883
        case "mqtts": 8883
        default: 80
        }
    }

    /// The port to connect to: the explicit one, else the scheme's default.
    public var effectivePort: UInt16 { port ?? defaultPort }

    /// Whether the scheme runs over TLS (`https`, `wss`, `mqtts`).
    public var isSecure: Bool { scheme == "https" || scheme == "wss" || scheme == "mqtts" }

    /// Whether `host` is an IPv6 literal (it then needs brackets in a URL or `Host` header).
    public var isIPv6: Bool { host.contains(":") }

    /// The path and query as sent in an HTTP request line (RFC 9112 §3.2.1 origin-form).
    public var requestTarget: String { query.map { "\(path)?\($0)" } ?? path }

    /// `host[:port]` as sent in an HTTP `Host` header (RFC 9110 §7.2): the port only when explicit.
    public var hostHeader: String {
        let bracketed = isIPv6 ? "[\(host)]" : host
        return port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    /// The URL written back out (without any fragment).
    public var description: String { "\(scheme)://\(hostHeader)\(requestTarget)" }

    private static func parseAuthority(_ authority: Substring) throws(WireError) -> (String, UInt16?) {
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .malformed("URL", "unclosed \"[\"") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let afterBracket = authority[authority.index(after: close)...]
            if !afterBracket.isEmpty {
                guard afterBracket.first == ":" else { throw .malformed("URL", "junk after \"]\"") }
                portText = afterBracket.dropFirst()
            }
            guard URLHostSyntax.isIPv6(host) else { throw .malformed("URL", "invalid IPv6 address") }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            guard !host.isEmpty else { throw .malformed("URL", "empty host") }
            guard URLHostSyntax.isIPv4(host) || URLHostSyntax.isDNSName(host) else {
                throw .malformed("URL", "invalid host")
            }
        }
        guard let portText else { return (host.lowercased(), nil) }
        guard (1...5).contains(portText.count), portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(portText), (1...65535).contains(value)
        else { throw .malformed("URL", "port must be 1…65535") }
        return (host.lowercased(), UInt16(value))
    }
}

/// Host syntax checks for `URLParts` (RFC 3986 §3.2.2, RFC 4291 §2.2, RFC 1123 §2.1).
enum URLHostSyntax {
    /// Four decimal octets 0…255 without leading zeros (which some stacks read as octal).
    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            guard part.count == 1 || part.first != "0" else { return false }
            return (Int(part) ?? 256) <= 255
        }
    }

    /// Labels of letters, digits, `-` and `_`, not starting or ending with `-`, at most 63 bytes each
    /// and 253 in all; a trailing dot is allowed. All-numeric names are refused so that a mistyped
    /// address (`1.2.3`, `1.2.3.999`) is not taken for a name.
    static func isDNSName(_ text: Substring) -> Bool {
        let name = text.hasSuffix(".") ? text.dropLast() : text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let labelsValid = labels.allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            return label.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
                    || byte == 0x5F
            }
        }
        let allNumeric = name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
        return labelsValid && !allNumeric
    }

    /// Eight groups of 1–4 hex digits, or fewer with one `::`, optionally ending in a dotted quad
    /// (RFC 4291 §2.2). Zone identifiers (`%eth0`) are refused.
    static func isIPv6(_ text: Substring) -> Bool {
        guard text.utf8.count >= 2, text.utf8.count <= 45 else { return false }
        // A lone colon at either end is never valid; only "::" may touch an end.
        if text.hasPrefix(":") != text.hasPrefix("::") || text.hasSuffix(":") != text.hasSuffix("::") {
            return false
        }
        var groups = 0
        var sawDoubleColon = false
        var pieces = text.split(separator: ":", omittingEmptySubsequences: false)[...]
        // "::" at either end shows up as two empty pieces; collapse them to one marker.
        if text.hasPrefix("::") { pieces = pieces.dropFirst() }
        if text.hasSuffix("::") { pieces = pieces.dropLast() }
        for (offset, piece) in pieces.enumerated() {
            if piece.isEmpty {
                guard !sawDoubleColon else { return false }
                sawDoubleColon = true
                continue
            }
            if offset == pieces.count - 1, piece.contains(".") {
                guard isIPv4(piece) else { return false }
                groups += 2
                continue
            }
            guard piece.utf8.count <= 4, piece.utf8.allSatisfy(isHexDigit) else { return false }
            groups += 1
        }
        return sawDoubleColon ? groups <= 7 : groups == 8
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }
}
