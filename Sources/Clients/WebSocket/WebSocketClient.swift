import Net
import Wire

/// Opens client WebSocket connections: `ws://` over TCP, `wss://` over TLS.
///
/// ```swift
/// // Roku ECP-2
/// let roku = try await WebSocketClient.connect(url: "ws://127.0.0.2:8060/ecp-session", subprotocols: ["ecp-2"])
/// // Samsung: a self-signed certificate, whose fingerprint the driver pins on first use
/// let tv = try await WebSocketClient.connect(
///     url: "wss://127.0.0.3:8002/api/v2/channels/samsung.remote.control?name=dHYybXF0dA==",
///     tls: TLSConfiguration(trust: .selfSigned(pinned: nil)))
/// tv.peerCertificateSHA256  // 32 bytes
/// ```
public enum WebSocketClient {
    /// An open connection and what the handshake settled.
    public struct Connected: Sendable {
        public let connection: WebSocketConnection
        /// The subprotocol the server chose from those offered, or `nil` when it chose none.
        public let subprotocol: String?
        /// SHA-256 of the server's certificate (DER) for `wss://`; `nil` for `ws://`.
        public let peerCertificateSHA256: [UInt8]?
        /// The server's 101 answer, for its other headers.
        public let response: HTTPResponse
    }

    /// Connects, runs the opening handshake and returns the open connection.
    ///
    /// - Parameters:
    ///   - url: `ws://host:port/path?query` or `wss://…`. The query may hold a secret (Samsung's
    ///     `token`): error messages name the URL without it.
    ///   - subprotocols: offered in `Sec-WebSocket-Protocol`; the server must pick one of them or none.
    ///   - headers: extra request fields (`Origin`…).
    ///   - tls: trust for `wss://`: `.selfSigned(pinned:)` accepts a TV's self-signed certificate
    ///     (and, with a pin, only that one); `nil` means the system CA store.
    ///   - connectTimeout: for the TCP connection.
    ///   - handshakeTimeout: for the TLS handshake and the HTTP upgrade together.
    /// - Throws: `WebSocketError` saying which step failed and why.
    public static func connect(
        url: String, subprotocols: [String] = [], headers: HTTPHeaders = HTTPHeaders(),
        tls: TLSConfiguration? = nil, connectTimeout: Duration = .seconds(3),
        handshakeTimeout: Duration = .seconds(5),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(WebSocketError) -> Connected {
        let parts: URLParts
        do {
            parts = try URLParts(parsing: url)
        } catch {
            throw WebSocketError(.invalidArgument, "invalid WebSocket URL: \(error.reason)")
        }
        // Never the query: Samsung's carries the pairing token (README › Security: no secrets in logs).
        let name = "\(parts.scheme)://\(parts.hostHeader)\(parts.path)"
        let handshake = try WebSocketClientHandshake(
            url: parts, subprotocols: subprotocols, headers: headers, nonce: SecureRandom.bytes(16))
        let context: TLSContext?
        do {
            context = parts.isSecure ? try TLSContext.client(tls ?? TLSConfiguration()) : nil
        } catch {
            throw WebSocketError(.tls, "\(name): \(error.detail)")
        }

        let tcp: TCPConnection
        do {
            tcp = try await TCPConnection.connect(
                host: parts.host, port: parts.effectivePort, timeout: connectTimeout)
        } catch {
            throw WebSocketError(.connect, "\(name): cannot connect: \(detail(error))")
        }
        let deadline = LoopClock.current.now + handshakeTimeout
        var stream: any ByteStream = tcp
        var fingerprint: [UInt8]?
        if let context {
            do {
                let secure = try await TLSConnection.connect(
                    over: tcp, context: context, serverName: parts.host, deadline: deadline)
                fingerprint = secure.peerCertificateSHA256
                stream = secure
            } catch let error as NetError where error.kind == .certificateChanged {
                throw WebSocketError(.certificateChanged, "\(name): \(error.detail)")
            } catch let error as NetError where error.kind == .timedOut {
                throw WebSocketError(
                    .timeout, "\(name): no TLS handshake within \(handshakeTimeout.shortDescription)")
            } catch {
                throw WebSocketError(.tls, "\(name): TLS handshake failed: \(detail(error))")
            }
        }

        do {
            let (response, leftover) = try await exchange(handshake, over: stream, deadline: deadline)
            let subprotocol = try handshake.validate(response)
            let connection = WebSocketConnection(
                stream: stream, role: .client, leftover: leftover, configuration: configuration)
            return Connected(
                connection: connection, subprotocol: subprotocol, peerCertificateSHA256: fingerprint,
                response: response)
        } catch {
            stream.close()
            switch error {
            case let error as WebSocketError:
                throw WebSocketError(error.kind, "\(name): \(error.message)", status: error.status)
            case let error as NetError where error.kind == .timedOut:
                throw WebSocketError(
                    .timeout, "\(name): no handshake answer within \(handshakeTimeout.shortDescription)")
            case let error as WireError:
                throw WebSocketError(.handshake, "\(name): invalid handshake answer: \(error.reason)")
            default:
                throw WebSocketError(.handshake, "\(name): handshake failed: \(detail(error))")
            }
        }
    }

    /// Sends the upgrade request and reads the answer. Returns the response and the bytes that
    /// came after it in the same reads: a server may send its first frames right behind the 101.
    static func exchange(
        _ handshake: WebSocketClientHandshake, over stream: any ByteStream,
        deadline: ContinuousClock.Instant
    ) async throws -> (HTTPResponse, [UInt8]) {
        try await stream.write(handshake.requestBytes, deadline: deadline)
        // A refusal's body is only quoted in the error: 64 KiB is plenty.
        var parser = HTTPResponseParser(maxBodyBytes: 64 * 1024)
        while true {
            let bytes = try await stream.read(maxBytes: 16 * 1024, deadline: deadline)
            if bytes.isEmpty {
                guard let response = try parser.finish() else {
                    throw WebSocketError(
                        .handshake, "the server closed the connection without answering the upgrade")
                }
                return (response, [])
            }
            parser.append(bytes)
            if let response = try parser.next() {
                return (response, response.status == 101 ? parser.takeRemainingBytes() : [])
            }
        }
    }

    private static func detail(_ error: any Error) -> String {
        (error as? NetError)?.detail ?? "\(error)"
    }
}
