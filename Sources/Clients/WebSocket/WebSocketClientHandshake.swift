import Net
import Wire

/// The client's half of the opening handshake (RFC 6455 §4.1), without I/O: the request to send
/// and the checks on the server's answer.
public struct WebSocketClientHandshake: Sendable {
    public let url: URLParts
    /// The `Sec-WebSocket-Key` sent; the answer must carry its `Sec-WebSocket-Accept`.
    public let key: String
    public let subprotocols: [String]
    public let request: HTTPRequest

    /// - Parameters:
    ///   - nonce: 16 fresh random bytes (`SecureRandom.bytes(16)`).
    ///   - headers: extra fields such as `Origin`; the handshake's own fields (`Host`, `Upgrade`,
    ///     `Connection`, `Sec-WebSocket-*`) are always set here and replace any given.
    /// - Throws: `.invalidArgument` for a URL that is not `ws`/`wss`, a subprotocol that is not a
    ///   token, a nonce that is not 16 bytes, or a header that cannot be sent.
    public init(
        url: URLParts, subprotocols: [String] = [], headers: HTTPHeaders = HTTPHeaders(), nonce: [UInt8]
    )
        throws(WebSocketError)
    {
        guard url.scheme == "ws" || url.scheme == "wss" else {
            throw WebSocketError(
                .invalidArgument, "\(url.scheme):// is not a WebSocket URL (ws:// or wss://)")
        }
        guard nonce.count == 16 else {
            throw WebSocketError(.invalidArgument, "the key nonce must be 16 bytes")
        }
        for name in subprotocols where !WebSocketHandshakeSyntax.isToken(name) {
            throw WebSocketError(
                .invalidArgument, "subprotocol \(String(reflecting: name)) is not a token")
        }
        self.url = url
        self.subprotocols = subprotocols
        key = WebSocketKey.make(randomBytes: nonce)

        var fields = headers
        for name in ["Host", "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version"] {
            fields.remove(name: name)
        }
        fields.remove(name: "Sec-WebSocket-Protocol")
        fields.remove(name: "Sec-WebSocket-Extensions")
        // Host always carries the port: Roku refuses a Host without it (and any host name) on 8060.
        let host = url.isIPv6 ? "[\(url.host)]" : url.host
        var request = HTTPRequest(method: "GET", target: url.requestTarget)
        request.headers.add(name: "Host", value: "\(host):\(url.effectivePort)")
        request.headers.add(name: "Upgrade", value: "websocket")
        request.headers.add(name: "Connection", value: "Upgrade")
        request.headers.add(name: "Sec-WebSocket-Key", value: key)
        request.headers.add(name: "Sec-WebSocket-Version", value: "13")
        if !subprotocols.isEmpty {
            request.headers.add(
                name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", "))
        }
        for field in fields { request.headers.add(name: field.name, value: field.value) }
        do {
            _ = try request.encode()
        } catch {
            throw WebSocketError(.invalidArgument, "cannot send the handshake: \(error.reason)")
        }
        self.request = request
    }

    /// The request's bytes (validated in `init`).
    public var requestBytes: [UInt8] { (try? request.encode()) ?? [] }

    /// Checks the server's answer (RFC 6455 §4.1, the client's requirements on the response) and
    /// returns the subprotocol it chose, if any.
    ///
    /// - Throws: `.handshake` with the reason: a status other than 101 (with the start of the
    ///   body, which usually says why), a missing `Upgrade: websocket` or `Connection: Upgrade`,
    ///   a wrong `Sec-WebSocket-Accept`, a subprotocol we did not offer, or an extension.
    public func validate(_ response: HTTPResponse) throws(WebSocketError) -> String? {
        guard response.status == 101 else {
            let reason =
                response.reason.isEmpty
                ? HTTPResponse.standardReason(for: response.status) : response.reason
            let status = reason.isEmpty ? "\(response.status)" : "\(response.status) \(reason)"
            let body = WebSocketHandshakeSyntax.printable(response.body)
            throw WebSocketError(
                .handshake, "the server answered \(status)\(body.isEmpty ? "" : ": \(body)")",
                status: response.status)
        }
        let headers = response.headers
        guard headers.containsToken("websocket", in: "Upgrade") else {
            throw WebSocketError(.handshake, "the 101 answer has no \"Upgrade: websocket\"", status: 101)
        }
        guard headers.containsToken("upgrade", in: "Connection") else {
            throw WebSocketError(.handshake, "the 101 answer has no \"Connection: Upgrade\"", status: 101)
        }
        let expected = WebSocketKey.accept(for: key, sha1: Digest.sha1)
        let accepts = headers.values(for: "Sec-WebSocket-Accept")
        guard accepts == [expected] else {
            let got =
                accepts.isEmpty
                ? "missing"
                : String(
                    reflecting: WebSocketHandshakeSyntax.printable(
                        Array(accepts.joined(separator: ", ").utf8)))
            throw WebSocketError(
                .handshake, "Sec-WebSocket-Accept does not match (expected \(expected), got \(got))",
                status: 101)
        }
        guard WebSocketHandshakeSyntax.listElements(headers, "Sec-WebSocket-Extensions").isEmpty else {
            throw WebSocketError(
                .handshake, "the server chose an extension we did not offer", status: 101)
        }
        let chosen = WebSocketHandshakeSyntax.listElements(headers, "Sec-WebSocket-Protocol")
        guard let subprotocol = chosen.first else { return nil }
        guard chosen.count == 1, subprotocols.contains(subprotocol) else {
            let offered = subprotocols.isEmpty ? "none" : subprotocols.joined(separator: ", ")
            let picked = WebSocketHandshakeSyntax.printable(Array(chosen.joined(separator: ", ").utf8))
            throw WebSocketError(
                .handshake,
                "the server chose subprotocol \"\(picked)\", which we did not offer (offered: \(offered))",
                status: 101)
        }
        return subprotocol
    }
}
