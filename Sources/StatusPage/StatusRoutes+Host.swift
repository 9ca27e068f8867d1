import Drivers
import Wire

/// DNS rebinding: a web page may point its own name at this machine, and the browser then
/// treats the bridge as that page's origin. The page answers only to names that are the
/// bridge's own, so such a request is refused before routing.
extension StatusRoutes {
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// Why a request is refused for its `Host`, or nil. Peers of `http.allow_from` (the
    /// ingress gateway) are judged by their address, which the server checked at accept.
    func misdirected(_ request: HTTPRequest) -> String? {
        guard settings.allowFrom.isEmpty, let listen = settings.listen else { return nil }
        if let (host, port) = Self.splitHost(request.headers["Host"] ?? "") {
            if settings.hosts.contains(host) { return nil }
            let listenHost = listen.host.lowercased()
            if port == listen.port {
                if host == listenHost || Self.loopbackNames.contains(host) { return nil }
                // An address cannot be rebound: on a wildcard listener, any of the machine's.
                if (listenHost == "0.0.0.0" || listenHost == "::") && Self.isAddressLiteral(host) { return nil }
            }
        }
        return "this page answers only to its own names: add this one to http.hosts"
    }

    /// `name:port`, `[v6]:port` or `name` (port 80) as a lowercased host without brackets and a port.
    static func splitHost(_ field: String) -> (String, UInt16)? {
        let field = field.lowercased()
        var host = Substring(field)
        var port: Substring = "80"
        if field.hasPrefix("[") {
            guard let close = field.firstIndex(of: "]") else { return nil }
            host = field[field.index(after: field.startIndex)..<close]
            let rest = field[field.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = field.lastIndex(of: ":") {
            host = field[..<colon]
            port = field[field.index(after: colon)...]
        }
        guard !host.isEmpty, port.allSatisfy(\.isASCII), let number = UInt16(port) else { return nil }
        return (String(host), number)
    }

    private static func isAddressLiteral(_ host: String) -> Bool {
        IPv4.parse(host) != nil || (host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." })
    }
}
