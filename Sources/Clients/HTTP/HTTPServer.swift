import Net
import Synchronization
import Wire

/// A small HTTP/1.1 server (the simulated TVs, the status page): one task per connection,
/// keep-alive with several requests per connection, `Connection: close` honoured. Whatever a
/// client sends, the server does not trap; `stop()` closes every socket and waits for every task.
///
/// Every request is bounded (`HTTPServerLimits`): a malformed one is answered 400, a header
/// section too large or with too many fields 431, a body too large 413, a request not complete
/// within the deadline 408, a connection beyond the limit 503; each such connection is closed.
///
/// Optionally TLS (Samsung's 8002) and upgrades (Samsung's remote channel shares 8001/8002
/// with REST; the status page's event stream): a request `upgrade` accepts is handed, with the
/// stream, to it, which owns the connection from then on.
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, SocketAddress) async -> HTTPServerReply
    /// The TLS context for the next connection (read per connection, so a test can make the
    /// TV serve a new certificate); nil serves plain HTTP.
    public typealias TLSProvider = @Sendable () -> TLSContext?

    private struct Tasks {
        var accepting: Task<Void, Never>?
        var connections: [Int: (connection: TCPConnection, task: Task<Void, Never>?)] = [:]
        var nextID = 0
        var closed = false
    }

    /// Why a request was refused before it reached the handler.
    private struct Refusal: Error {
        let status: Int
        let reason: String
    }

    private let listener: TCPListener
    private let handler: Handler
    private let upgrade: HTTPUpgrade?
    private let tls: TLSProvider?
    private let serverHeader: String
    private let limits: HTTPServerLimits
    /// Whether a client's address may connect at all; nil admits every address.
    private let admits: (@Sendable (SocketAddress) -> Bool)?
    private let tasks = Mutex(Tasks())

    /// The bound address (with the port the kernel picked when asked for port 0).
    public var address: SocketAddress { listener.address }
    public var port: UInt16 { listener.address.port }
    /// Connections open now.
    public var connectionCount: Int { tasks.withLock { $0.connections.count } }

    private init(
        listener: TCPListener, serverHeader: String, limits: HTTPServerLimits,
        admits: (@Sendable (SocketAddress) -> Bool)?, tls: TLSProvider?, upgrade: HTTPUpgrade?,
        handler: @escaping Handler
    ) {
        self.admits = admits
        self.listener = listener
        self.handler = handler
        self.upgrade = upgrade
        self.tls = tls
        self.serverHeader = serverHeader
        self.limits = limits
    }

    /// Binds `host:port` and starts accepting connections.
    public static func start(
        host: String, port: UInt16, serverHeader: String, idleTimeout: Duration = .seconds(120),
        handler: @escaping Handler
    ) throws(NetError) -> HTTPServer {
        start(
            listener: try TCPListener.bind(host: host, port: port), serverHeader: serverHeader,
            idleTimeout: idleTimeout, handler: handler)
    }

    /// Starts serving on a listener bound already (the caller needed its port first).
    ///
    /// - Parameters:
    ///   - idleTimeout: how long a kept-alive connection may stay idle (`limits.requestDeadline`).
    ///   - tls: serve HTTPS with the context it returns (see `TLSProvider`).
    ///   - upgrade: where upgrade requests go; nil answers them like any request.
    public static func start(
        listener: TCPListener, serverHeader: String, idleTimeout: Duration = .seconds(120),
        tls: TLSProvider? = nil, upgrade: HTTPUpgrade? = nil, handler: @escaping Handler
    ) -> HTTPServer {
        var limits = HTTPServerLimits()
        limits.requestDeadline = idleTimeout
        return start(
            listener: listener, serverHeader: serverHeader, limits: limits, tls: tls, upgrade: upgrade,
            handler: handler)
    }

    /// Starts serving on a listener bound already, within `limits`.
    ///
    /// - Parameter admits: whether a client's address may connect; one that may not is
    ///   closed at once, unanswered, and takes no connection slot.
    public static func start(
        listener: TCPListener, serverHeader: String, limits: HTTPServerLimits,
        admits: (@Sendable (SocketAddress) -> Bool)? = nil, tls: TLSProvider? = nil,
        upgrade: HTTPUpgrade? = nil,
        handler: @escaping Handler
    ) -> HTTPServer {
        let server = HTTPServer(
            listener: listener, serverHeader: serverHeader, limits: limits, admits: admits, tls: tls,
            upgrade: upgrade, handler: handler)
        let accepting = Task { await server.acceptLoop() }
        server.tasks.withLock { $0.accepting = accepting }
        return server
    }

    /// Closes the listener and every connection at once (connections in flight end with an
    /// error on their next read or write). Safe to call from any context, more than once.
    public func close() {
        let open = tasks.withLock { state -> [TCPConnection] in
            state.closed = true
            state.accepting?.cancel()
            return state.connections.values.map(\.connection)
        }
        listener.close()
        for connection in open { connection.close() }
    }

    /// `close()`, then waits until the accept loop and every connection task have ended.
    public func stop() async {
        close()
        let running = tasks.withLock { state in
            [state.accepting].compactMap { $0 } + state.connections.values.compactMap(\.task)
        }
        for task in running { await task.value }
    }

    private func acceptLoop() async {
        while !Task.isCancelled {
            let connection: TCPConnection
            do {
                connection = try await listener.accept()
            } catch {
                // Closed by close(), or a transient failure; stop only when closed.
                if tasks.withLock({ $0.closed }) { return }
                try? await EventLoop.sleep(for: .milliseconds(10))  // paced: accept failed; retry soon
                continue
            }
            if let admits, !admits(connection.remote) {
                connection.close()
                continue
            }
            let admission = tasks.withLock { state -> Result<Int, Refusal>? in
                if state.closed { return nil }
                guard state.connections.count < limits.maxConnections else {
                    return .failure(Refusal(status: 503, reason: "too many connections"))
                }
                if let perSource = limits.maxConnectionsPerSource,
                    state.connections.values.count(where: { $0.connection.remote.ip == connection.remote.ip })
                        >= perSource
                {
                    return .failure(Refusal(status: 503, reason: "too many connections from this address"))
                }
                state.nextID += 1
                state.connections[state.nextID] = (connection, nil)
                return .success(state.nextID)
            }
            guard let admission else {
                connection.close()
                return
            }
            guard case .success(let id) = admission else {
                if case .failure(let refusal) = admission {
                    // Answered by a task of its own, so a flood cannot stall the accept loop.
                    Task { [self] in
                        await refuse(refusal, on: connection)
                        connection.close()
                    }
                }
                continue
            }
            let task = Task { [self] in
                if let context = tls?() {
                    // A client that fails the handshake (or a plain-HTTP probe) just gets closed.
                    if let secure = try? await TLSConnection.accept(
                        over: connection, context: context, deadline: LoopClock.current.now + .seconds(5))
                    {
                        await serve(secure, remote: connection.remote)
                        secure.close()
                    }
                } else {
                    await serve(connection, remote: connection.remote)
                }
                connection.close()
                _ = tasks.withLock { $0.connections.removeValue(forKey: id) }
            }
            tasks.withLock { state in
                if state.connections[id] != nil { state.connections[id]?.task = task }
            }
        }
    }

    private func serve(_ connection: any ByteStream, remote: SocketAddress) async {
        var parser = HTTPRequestParser(
            maxHeaderBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes)
        // The connection's start, then each answer's end: both deadlines count from it.
        var since = LoopClock.current.now
        do {
            while true {
                while let request = try next(&parser) {
                    if let upgrade, upgrade.accepts(request, remote) {
                        // Tracked like any connection: close() and stop() end it too.
                        await upgrade.run(request, connection, parser.takeRemainingBytes(), remote)
                        return
                    }
                    guard try await answer(request, on: connection, remote: remote) else { return }
                    since = LoopClock.current.now
                }
                var deadline = since + limits.requestDeadline
                if let head = limits.headDeadline, !parser.readingBody { deadline = min(deadline, since + head) }
                let bytes: [UInt8]
                do {
                    bytes = try await connection.read(maxBytes: 16 * 1024, deadline: deadline)
                } catch let error as NetError where error.kind == .timedOut {
                    // Idle between requests: close quietly; inside one: say why.
                    if parser.holdsPartialRequest {
                        throw Refusal(status: 408, reason: "the request did not arrive in time")
                    }
                    return
                }
                if bytes.isEmpty {
                    // The client half-closed: answer what is complete, then end.
                    while let request = try finish(&parser) {
                        guard try await answer(request, on: connection, remote: remote) else { return }
                    }
                    return
                }
                parser.append(bytes)
            }
        } catch let refusal as Refusal {
            await refuse(refusal, on: connection)
        } catch {
            // Closed, reset or idle: nothing to answer.
        }
    }

    /// The parser's next request, with its errors and the header count turned into refusals.
    private func next(_ parser: inout HTTPRequestParser) throws(Refusal) -> HTTPRequest? {
        let request: HTTPRequest?
        do {
            request = try parser.next()
        } catch {
            throw refusal(error, parser)
        }
        return try checked(request)
    }

    private func finish(_ parser: inout HTTPRequestParser) throws(Refusal) -> HTTPRequest? {
        let request: HTTPRequest?
        do {
            request = try parser.finish()
        } catch {
            throw refusal(error, parser)
        }
        return try checked(request)
    }

    private func checked(_ request: HTTPRequest?) throws(Refusal) -> HTTPRequest? {
        if let request, request.headers.count > limits.maxHeaderCount {
            throw Refusal(status: 431, reason: "more than \(limits.maxHeaderCount) header fields")
        }
        return request
    }

    private func refusal(_ error: WireError, _ parser: HTTPRequestParser) -> Refusal {
        guard error.kind == .tooLarge else { return Refusal(status: 400, reason: "\(error)") }
        return Refusal(status: parser.readingBody ? 413 : 431, reason: error.reason)
    }

    private func refuse(_ refusal: Refusal, on connection: any ByteStream) async {
        var response = HTTPResponse(status: refusal.status, body: Array("\(refusal.reason)\n".utf8))
        response.headers.set(name: "Content-Type", value: "text/plain; charset=\"utf-8\"")
        response.headers.set(name: "Connection", value: "close")
        response.headers.set(name: "Server", value: serverHeader)
        if let bytes = try? response.encode() {
            try? await connection.write(bytes, deadline: LoopClock.current.now + .seconds(2))
        }
    }

    /// Handles one request; false when the connection must close afterwards.
    private func answer(_ request: HTTPRequest, on connection: any ByteStream, remote: SocketAddress)
        async throws -> Bool
    {
        let reply = await handler(request, remote)
        var response = reply.response
        response.version = .http1_1
        if !response.headers.contains("Server") {
            response.headers.set(name: "Server", value: serverHeader)
        }
        let keepAlive = request.keepAlive && response.keepAlive
        if !keepAlive { response.headers.set(name: "Connection", value: "close") }
        defer { reply.afterwards?() }
        try await connection.write(try response.encode(), deadline: LoopClock.current.now + .seconds(5))
        return keepAlive
    }
}
