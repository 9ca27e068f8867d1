import Net
import Wire

/// The server's half of the opening handshake (RFC 6455 §4.2), without I/O: checks an upgrade
/// request and builds the answer. The simulated TVs use it on their listeners.
///
/// ```swift
/// switch WebSocketServerHandshake.respond(to: request, subprotocols: ["ecp-2"]) {
/// case .accept(let response, _):
///     try await stream.write(response.encode())
///     let ws = WebSocketConnection(stream: stream, role: .server, leftover: parser.takeRemainingBytes())
/// case .reject(let response, _):
///     try await stream.write(response.encode())
///     stream.close()
/// }
/// ```
public enum WebSocketServerHandshake {
    public enum Outcome: Equatable, Sendable {
        /// A valid upgrade: send this 101, then speak WebSocket.
        case accept(HTTPResponse, subprotocol: String?)
        /// Not a valid upgrade: send this 400 or 426 (its body says why), then close.
        case reject(HTTPResponse, reason: String)

        /// The answer to send, either way.
        public var response: HTTPResponse {
            switch self {
            case .accept(let response, _), .reject(let response, _): response
            }
        }
    }

    /// Whether the request asks for a WebSocket at all, for a port that also serves plain HTTP
    /// (Roku's 8060 serves ECP and `/ecp-session`).
    public static func isUpgradeRequest(_ request: HTTPRequest) -> Bool {
        request.headers.containsToken("websocket", in: "Upgrade")
    }

    /// Validates an upgrade request (RFC 6455 §4.2.1) and builds the answer (§4.2.2).
    ///
    /// - Parameters:
    ///   - subprotocols: the ones this server speaks, in order of preference; the first the
    ///     client also offered is chosen.
    ///   - requireSubprotocol: refuse (400) a client that offers none of `subprotocols`,
    ///     instead of accepting it without a subprotocol.
    public static func respond(
        to request: HTTPRequest, subprotocols: [String] = [], requireSubprotocol: Bool = false
    ) -> Outcome {
        let headers = request.headers
        guard request.method == "GET" else {
            return reject(400, "a WebSocket handshake is a GET request, not \(request.method)")
        }
        guard request.version == .http1_1 else {
            return reject(400, "a WebSocket handshake needs HTTP/1.1")
        }
        // Not asking for an upgrade at all: 426 tells the client what this resource speaks.
        guard headers.containsToken("websocket", in: "Upgrade") else {
            return reject(426, "this resource speaks WebSocket: send \"Upgrade: websocket\"")
        }
        guard headers.containsToken("upgrade", in: "Connection") else {
            return reject(400, "the handshake needs \"Connection: Upgrade\"")
        }
        let versions = WebSocketHandshakeSyntax.listElements(headers, "Sec-WebSocket-Version")
        guard versions == ["13"] else {
            // §4.4: answer with the versions we speak.
            return reject(
                426, "only Sec-WebSocket-Version 13 is supported", extra: ["Sec-WebSocket-Version": "13"])
        }
        let keys = headers.values(for: "Sec-WebSocket-Key")
        guard keys.count == 1, WebSocketKey.isValid(keys[0]) else {
            return reject(400, "Sec-WebSocket-Key must be one base64-encoded 16-byte value")
        }
        let offered = WebSocketHandshakeSyntax.listElements(headers, "Sec-WebSocket-Protocol")
        let chosen = subprotocols.first { offered.contains($0) }
        if chosen == nil && requireSubprotocol {
            return reject(400, "the subprotocol must be one of: \(subprotocols.joined(separator: ", "))")
        }

        var response = HTTPResponse(status: 101)
        response.headers.add(name: "Upgrade", value: "websocket")
        response.headers.add(name: "Connection", value: "Upgrade")
        let key = String(keys[0].filter { $0 != " " && $0 != "\t" })
        response.headers.add(
            name: "Sec-WebSocket-Accept", value: WebSocketKey.accept(for: key, sha1: Digest.sha1))
        if let chosen { response.headers.add(name: "Sec-WebSocket-Protocol", value: chosen) }
        return .accept(response, subprotocol: chosen)
    }

    private static func reject(_ status: Int, _ reason: String, extra: HTTPHeaders = HTTPHeaders())
        -> Outcome
    {
        var response = HTTPResponse(status: status, reason: status == 426 ? "Upgrade Required" : nil)
        if status == 426 {
            response.headers.add(name: "Upgrade", value: "websocket")
            response.headers.add(name: "Connection", value: "Upgrade")
        }
        for field in extra { response.headers.add(name: field.name, value: field.value) }
        response.headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        response.headers.add(name: "Connection", value: "close")
        response.body = Array(reason.utf8)
        return .reject(response, reason: reason)
    }
}
