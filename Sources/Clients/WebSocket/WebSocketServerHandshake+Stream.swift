import Net
import Wire

/// The server handshake over a stream: for listeners that only speak WebSocket, or that have
/// already read the request themselves.
extension WebSocketServerHandshake {
    /// What an accepted upgrade produced.
    public struct Accepted: Sendable {
        public let connection: WebSocketConnection
        public let request: HTTPRequest
        public let subprotocol: String?
    }

    /// Reads one upgrade request from `stream`, answers it, and returns the open connection.
    /// A refused request gets its 400/426 answer, the stream is closed, and this throws.
    public static func accept(
        stream: any ByteStream, subprotocols: [String] = [], requireSubprotocol: Bool = false,
        timeout: Duration = .seconds(5),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(WebSocketError) -> Accepted {
        let deadline = LoopClock.current.now + timeout
        var parser = HTTPRequestParser(maxHeaderBytes: 16 * 1024, maxBodyBytes: 0)
        let request: HTTPRequest
        do {
            while true {
                if let next = try parser.next() {
                    request = next
                    break
                }
                let bytes = try await stream.read(maxBytes: 16 * 1024, deadline: deadline)
                if bytes.isEmpty {
                    throw WebSocketError(
                        .handshake, "the client closed the connection before its upgrade request")
                }
                parser.append(bytes)
            }
        } catch {
            stream.close()
            if let error = error as? WebSocketError { throw error }
            if let error = error as? NetError, error.kind == .timedOut {
                throw WebSocketError(
                    .timeout,
                    "no upgrade request from \(stream.peerDescription) within \(timeout.shortDescription)")
            }
            throw WebSocketError(
                .handshake, "bad upgrade request from \(stream.peerDescription): \(error)")
        }
        return try await upgrade(
            stream: stream, request: request, leftover: parser.takeRemainingBytes(),
            subprotocols: subprotocols,
            requireSubprotocol: requireSubprotocol, deadline: deadline, configuration: configuration)
    }

    /// Answers a request already read from `stream` (with `leftover`, the bytes read after it)
    /// and returns the open connection. A refused request gets its answer, the stream is closed,
    /// and this throws `.handshake` with the reason.
    public static func upgrade(
        stream: any ByteStream, request: HTTPRequest, leftover: [UInt8], subprotocols: [String] = [],
        requireSubprotocol: Bool = false,
        deadline: ContinuousClock.Instant = LoopClock.current.now + .seconds(5),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(WebSocketError) -> Accepted {
        let outcome = respond(
            to: request, subprotocols: subprotocols, requireSubprotocol: requireSubprotocol)
        do {
            try await stream.write(outcome.response.encode(), deadline: deadline)
        } catch {
            stream.close()
            throw WebSocketError(
                .handshake, "cannot answer the upgrade from \(stream.peerDescription): \(error)")
        }
        switch outcome {
        case .reject(let response, let reason):
            stream.close()
            throw WebSocketError(
                .handshake, "refused the upgrade from \(stream.peerDescription): \(reason)",
                status: response.status)
        case .accept(_, let subprotocol):
            let connection = WebSocketConnection(
                stream: stream, role: .server, leftover: leftover, configuration: configuration)
            return Accepted(connection: connection, request: request, subprotocol: subprotocol)
        }
    }
}
