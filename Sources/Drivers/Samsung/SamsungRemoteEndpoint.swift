import Wire

/// Where the remote-control WebSocket of a Samsung TV is, and with which credentials:
/// `ws://IP:8001/api/v2/channels/samsung.remote.control?name=<base64 name>` or
/// `wss://IP:8002/…?name=<base64 name>&token=<token>`.
///
/// The token rides in the URL, so `description` redacts it; use `url` only to connect.
public struct SamsungRemoteEndpoint: Equatable, Sendable, CustomStringConvertible {
    public static let path = "/api/v2/channels/samsung.remote.control"
    public static let plainPort: UInt16 = 8001
    public static let securePort: UInt16 = 8002

    public var host: String
    public var port: UInt16
    /// TLS (8002). The token is only ever sent over TLS, as samsungtvws does.
    public var secure: Bool
    /// The name shown in the TV's prompt; the token is bound to it, so it must never change.
    public var clientName: String
    public var token: SamsungToken?

    public init(host: String, port: UInt16, secure: Bool, clientName: String, token: SamsungToken?) {
        self.host = host
        self.port = port
        self.secure = secure
        self.clientName = clientName
        self.token = secure ? token : nil
    }

    /// 8002 over TLS with the token (when we have one).
    public static func secure(
        host: String, clientName: String, token: SamsungToken?, port: UInt16 = securePort
    ) -> SamsungRemoteEndpoint {
        SamsungRemoteEndpoint(
            host: host, port: port, secure: true, clientName: clientName, token: token)
    }

    /// 8001 in clear, never with a token (older TVs, and the fallback when 8002 fails).
    public static func plain(host: String, clientName: String, port: UInt16 = plainPort)
        -> SamsungRemoteEndpoint
    {
        SamsungRemoteEndpoint(host: host, port: port, secure: false, clientName: clientName, token: nil)
    }

    /// The query: `name` is the base64 of the UTF-8 client name, percent-encoded because
    /// base64 has `+`, `/` and `=`; the token is percent-encoded too (TVs issue digits, but
    /// a stored value must not be able to change the URL's shape).
    public var query: String {
        var items = [("name", Base64.encode(Array(clientName.utf8)))]
        if let token { items.append(("token", token.value)) }
        return PercentEncoding.buildQuery(items)
    }

    /// The URL to connect to. Contains the token: hand it to the WebSocket client, never to a log.
    public var url: URLParts {
        URLParts(scheme: secure ? "wss" : "ws", host: host, port: port, path: Self.path, query: query)
    }

    /// The URL with the token replaced, for logs.
    public var description: String {
        var redacted = url
        if token != nil {
            redacted.query =
                PercentEncoding.buildQuery([("name", Base64.encode(Array(clientName.utf8)))])
                + "&token=<redacted>"
        }
        return redacted.description
    }
}
