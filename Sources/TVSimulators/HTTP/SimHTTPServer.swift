import Clients
import Net
import Synchronization
import Wire

/// What a simulated TV answers to one request, and what to do once the answer is on the wire.
public struct SimHTTPReply: Sendable {
    public var response: HTTPResponse
    /// Runs after the response was written (or failed to be): a `/sim/state` that turns the TV
    /// `off` must answer first and close its listener afterwards.
    public var afterwards: (@Sendable () -> Void)?

    public init(_ response: HTTPResponse, afterwards: (@Sendable () -> Void)? = nil) {
        self.response = response
        self.afterwards = afterwards
    }
}

/// Takes a connection over from the HTTP server when its request asks for something else: a
/// WebSocket upgrade (the Roku's `/ecp-session`, the Samsung's remote channel).
public struct SimUpgrade: Sendable {
    /// Whether to take this request's connection over; false answers it as plain HTTP.
    public var accepts: @Sendable (HTTPRequest) -> Bool
    /// Serves the connection (plain TCP, or TLS on a TLS server) to its end; `leftover` is what
    /// arrived after the request (the start of the first frames). The server closes the
    /// stream afterwards.
    public var run: @Sendable (HTTPRequest, any ByteStream, _ leftover: [UInt8]) async -> Void

    public init(
        accepts: @escaping @Sendable (HTTPRequest) -> Bool,
        run: @escaping @Sendable (HTTPRequest, any ByteStream, [UInt8]) async -> Void
    ) {
        self.accepts = accepts
        self.run = run
    }
}

/// A small HTTP/1.1 server for the simulated TVs: one task per connection, keep-alive with
/// several requests per connection, `Connection: close` honoured, a malformed request
/// answered with 400 and the connection closed. Whatever a client sends, the server does
/// not trap; `stop()` closes every socket and waits for every task.
///
/// Optionally TLS (Samsung's 8002) and WebSocket upgrades (Samsung's remote channel shares
/// 8001/8002 with REST): an upgrade request is handed, with the stream, to `upgrade`, which
/// owns the connection from then on.
public final class SimHTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, SocketAddress) async -> SimHTTPReply
    /// The TLS context for the next connection (read per connection, so a test can make the
    /// TV serve a new certificate); nil serves plain HTTP.
    public typealias TLSProvider = @Sendable () -> TLSContext?

    private struct Tasks {
        var accepting: Task<Void, Never>?
        var connections: [Int: (connection: TCPConnection, task: Task<Void, Never>?)] = [:]
        var nextID = 0
        var closed = false
    }

    private let listener: TCPListener
    private let handler: Handler
    private let upgrade: SimUpgrade?
    private let tls: TLSProvider?
    private let serverHeader: String
    /// A kept-alive connection idle this long is closed, so abandoned clients cost nothing.
    private let idleTimeout: Duration
    private let tasks = Mutex(Tasks())

    /// The bound address (with the port the kernel picked when asked for port 0).
    public var address: SocketAddress { listener.address }
    public var port: UInt16 { listener.address.port }

    private init(
        listener: TCPListener, serverHeader: String, idleTimeout: Duration, tls: TLSProvider?,
        upgrade: SimUpgrade?, handler: @escaping Handler
    ) {
        self.listener = listener
        self.handler = handler
        self.upgrade = upgrade
        self.tls = tls
        self.serverHeader = serverHeader
        self.idleTimeout = idleTimeout
    }

    /// Binds `host:port` and starts accepting connections.
    public static func start(
        host: String, port: UInt16, serverHeader: String, idleTimeout: Duration = .seconds(120),
        handler: @escaping Handler
    ) throws(NetError) -> SimHTTPServer {
        start(
            listener: try TCPListener.bind(host: host, port: port), serverHeader: serverHeader,
            idleTimeout: idleTimeout, handler: handler)
    }

    /// Starts serving on a listener bound already (the caller needed its port first).
    ///
    /// - Parameters:
    ///   - tls: serve HTTPS with the context it returns (see `TLSProvider`).
    ///   - upgrade: where WebSocket upgrade requests go; nil answers them like any request.
    public static func start(
        listener: TCPListener, serverHeader: String, idleTimeout: Duration = .seconds(120),
        tls: TLSProvider? = nil, upgrade: SimUpgrade? = nil, handler: @escaping Handler
    ) -> SimHTTPServer {
        let server = SimHTTPServer(
            listener: listener, serverHeader: serverHeader, idleTimeout: idleTimeout, tls: tls,
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
                try? await EventLoop.sleep(for: .milliseconds(10))
                continue
            }
            let id = tasks.withLock { state -> Int? in
                if state.closed { return nil }
                state.nextID += 1
                state.connections[state.nextID] = (connection, nil)
                return state.nextID
            }
            guard let id else {
                connection.close()
                return
            }
            let task = Task { [self] in
                if let context = tls?() {
                    // A client that fails the handshake (or a plain-HTTP probe) just gets closed.
                    if let secure = try? await TLSConnection.accept(
                        over: connection, context: context, deadline: .now + .seconds(5))
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
        var parser = HTTPRequestParser(maxHeaderBytes: 16 * 1024, maxBodyBytes: 1 << 20)
        do {
            while true {
                while let request = try parser.next() {
                    if let upgrade, upgrade.accepts(request) {
                        // Tracked like any connection: close() and stop() end it too.
                        await upgrade.run(request, connection, parser.takeRemainingBytes())
                        return
                    }
                    guard try await answer(request, on: connection, remote: remote) else { return }
                }
                let bytes = try await connection.read(maxBytes: 16 * 1024, deadline: .now + idleTimeout)
                if bytes.isEmpty {
                    // The client half-closed: answer what is complete, then end.
                    while let request = try parser.finish() {
                        guard try await answer(request, on: connection, remote: remote) else { return }
                    }
                    return
                }
                parser.append(bytes)
            }
        } catch let error as WireError {
            var response = HTTPResponse(status: 400, body: Array("Bad Request: \(error)\n".utf8))
            response.headers.set(name: "Content-Type", value: "text/plain; charset=\"utf-8\"")
            response.headers.set(name: "Connection", value: "close")
            response.headers.set(name: "Server", value: serverHeader)
            if let bytes = try? response.encode() {
                try? await connection.write(bytes, deadline: .now + .seconds(2))
            }
        } catch {
            // Closed, reset or idle: nothing to answer.
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
        try await connection.write(try response.encode(), deadline: .now + .seconds(5))
        return keepAlive
    }
}
