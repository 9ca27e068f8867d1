import Net
import Support
import Wire

/// Why an HTTP request failed.
public struct HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection could be made (refused, unreachable, connect timeout).
        case connect
        /// Connected, but no complete answer before the deadline.
        case timeout
        /// The connection broke or closed before a complete answer.
        case connectionLost
        /// The answer was not valid HTTP, or too large.
        case malformed
    }

    public let kind: Kind
    public let message: String

    public var description: String { message }
}

/// An HTTP/1.1 client for one device (`host:port`), with kept-alive connections.
///
/// Requests go to the IP address with `Host: <ip>:<port>` (Roku refuses host names there as a
/// DNS-rebinding defence). A request takes an idle connection or opens one, so a poll and a
/// command run side by side; connections the device closed while idle are noticed before
/// reuse. Every request has a deadline covering connect, send and the whole answer, and
/// answers larger than `maxBodyBytes` are refused before they are read.
public actor HTTPClient {
    public private(set) var host: String
    public let port: UInt16
    public let connectTimeout: Duration
    public let requestTimeout: Duration
    public let maxBodyBytes: Int
    /// Idle connections kept open at most (a poll and a command).
    public let maxIdle: Int
    private var idle: [TCPConnection] = []
    /// Our end of the last connection used: the local address the device reaches us at
    /// (a UPnP event subscription's callback).
    public private(set) var localAddress: SocketAddress?

    public init(
        host: String, port: UInt16, connectTimeout: Duration = .seconds(3),
        requestTimeout: Duration = .seconds(5),
        maxBodyBytes: Int = 1 << 20, maxIdle: Int = 2
    ) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxIdle = maxIdle
    }

    /// The device moved: later requests go to `host`.
    public func updateHost(_ newHost: String) {
        guard newHost != host else { return }
        host = newHost
        closeIdle()
    }

    /// Idle connections kept for reuse right now (tests, diagnostics).
    public var idleCount: Int { idle.count }

    public func closeIdle() {
        for connection in idle { connection.close() }
        idle.removeAll()
    }

    /// Sends one request and reads the whole answer.
    /// - Parameter target: the path and query, already percent-encoded (`/keypress/Home`).
    public func request(
        _ method: String, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        timeout: Duration? = nil
    ) async throws(HTTPClientError) -> HTTPResponse {
        let deadline = LoopClock.current.now + (timeout ?? requestTimeout)
        var request = HTTPRequest(method: method, target: target, headers: headers, body: body)
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        request.headers.set(name: "Host", value: authority)
        if !request.headers.contains("User-Agent") {
            request.headers.set(name: "User-Agent", value: "tv2mqtt")
        }
        let bytes: [UInt8]
        do {
            bytes = try request.encode()
        } catch {
            throw HTTPClientError(
                kind: .malformed, message: "cannot send \(method) \(target): \(error.reason)")
        }
        Trace.mark(.encoded)
        let connection = try await connection(deadline: deadline)
        localAddress = connection.localAddress ?? localAddress
        do {
            try await connection.write(bytes, deadline: deadline)
            let (response, reusable) = try await readResponse(
                connection, method: method, deadline: deadline)
            if reusable && idle.count < maxIdle && !connection.isClosed {
                idle.append(connection)
            } else {
                connection.close()
            }
            return response
        } catch {
            connection.close()
            throw failure(error, method: method, target: target)
        }
    }

    private func connection(deadline: ContinuousClock.Instant) async throws(HTTPClientError)
        -> TCPConnection
    {
        // Every idle connection is checked, not only the one taken: the most recent one is
        // reused first, so one the device closed (it restarted) could otherwise sit below a
        // healthy one for ever, a socket in CLOSE_WAIT per restart.
        idle.removeAll { connection in
            guard connection.isPeerClosed else { return false }
            connection.close()
            return true
        }
        if let candidate = idle.popLast() { return candidate }
        let address: SocketAddress
        do {
            address = try SocketAddress(ip: host, port: port)
        } catch {
            throw HTTPClientError(kind: .connect, message: "'\(host)' is not an IP address")
        }
        let remaining = LoopClock.current.now.duration(to: deadline)
        do {
            return try await TCPConnection.connect(
                to: address, timeout: min(connectTimeout, max(.milliseconds(1), remaining)))
        } catch {
            throw HTTPClientError(
                kind: .connect,
                message: "cannot connect to \(address): \((error as? NetError)?.detail ?? "\(error)")")
        }
    }

    private func readResponse(
        _ connection: TCPConnection, method: String, deadline: ContinuousClock.Instant
    )
        async throws -> (HTTPResponse, Bool)
    {
        var parser = HTTPResponseParser(maxBodyBytes: maxBodyBytes)
        while true {
            let chunk = try await connection.read(maxBytes: 64 * 1024, deadline: deadline)
            if chunk.isEmpty {
                guard let response = try parser.finish(requestMethod: method) else {
                    throw HTTPClientError(
                        kind: .connectionLost, message: "the device closed the connection without answering")
                }
                return (response, false)
            }
            parser.append(chunk)
            if let response = try parser.next(requestMethod: method) {
                // Anything after the answer would be a protocol error: do not reuse then.
                let clean = parser.takeRemainingBytes().isEmpty
                return (response, response.keepAlive && clean)
            }
        }
    }

    private func failure(_ error: any Error, method: String, target: String) -> HTTPClientError {
        let what = "\(method) \(target) on \(host):\(port)"
        switch error {
        case let error as HTTPClientError:
            return HTTPClientError(kind: error.kind, message: "\(what): \(error.message)")
        case let error as NetError where error.kind == .timedOut:
            return HTTPClientError(kind: .timeout, message: "\(what): no answer within \(requestTimeout)")
        case let error as NetError:
            return HTTPClientError(kind: .connectionLost, message: "\(what): \(error.detail)")
        case let error as WireError:
            return HTTPClientError(kind: .malformed, message: "\(what): bad answer: \(error)")
        default:
            return HTTPClientError(kind: .connectionLost, message: "\(what): \(error)")
        }
    }
}
