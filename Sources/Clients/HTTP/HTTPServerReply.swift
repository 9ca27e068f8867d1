import Net
import Wire

/// What a server answers to one request, and what to do once the answer is on the wire.
public struct HTTPServerReply: Sendable {
    public var response: HTTPResponse
    /// Runs after the response was written (or failed to be): a simulated TV's `/sim/state`
    /// that turns the TV `off` must answer first and close its listener afterwards.
    public var afterwards: (@Sendable () -> Void)?

    public init(_ response: HTTPResponse, afterwards: (@Sendable () -> Void)? = nil) {
        self.response = response
        self.afterwards = afterwards
    }
}

/// Takes a connection over from the HTTP server when its request asks for something else: a
/// WebSocket upgrade (the Roku's `/ecp-session`, the Samsung's remote channel), or a stream of
/// server-sent events.
public struct HTTPUpgrade: Sendable {
    /// Whether to take this request, from this client, over; false answers it as plain HTTP.
    public var accepts: @Sendable (HTTPRequest, SocketAddress) -> Bool
    /// Serves the connection (plain TCP, or TLS on a TLS server) to its end; `leftover` is what
    /// arrived after the request (the start of the first frames). The server closes the
    /// stream afterwards.
    public var run: @Sendable (HTTPRequest, any ByteStream, _ leftover: [UInt8], SocketAddress) async -> Void

    public init(
        accepts: @escaping @Sendable (HTTPRequest) -> Bool,
        run: @escaping @Sendable (HTTPRequest, any ByteStream, [UInt8]) async -> Void
    ) {
        self.accepts = { request, _ in accepts(request) }
        self.run = { request, stream, leftover, _ in await run(request, stream, leftover) }
    }

    /// An upgrade that also knows who asks (the status page's budgets per address).
    public init(
        acceptsFrom: @escaping @Sendable (HTTPRequest, SocketAddress) -> Bool,
        run: @escaping @Sendable (HTTPRequest, any ByteStream, [UInt8], SocketAddress) async -> Void
    ) {
        self.accepts = acceptsFrom
        self.run = run
    }
}

/// What one server accepts from its clients. Each bound is refused with its own status and
/// the connection closed; other connections are not affected.
public struct HTTPServerLimits: Sendable {
    /// Request line plus header section, in bytes (431 past it).
    public var maxHeaderBytes = 16 * 1024
    /// Header fields in one request (431 past it).
    public var maxHeaderCount = 100
    /// Body bytes (413 past it).
    public var maxBodyBytes = 1 << 20
    /// Connections open at once; one more is answered 503 and closed.
    public var maxConnections = 1024
    /// Connections open at once from one address; one more is answered 503 and closed. nil:
    /// only `maxConnections`.
    public var maxConnectionsPerSource: Int?
    /// How long a client may take to send a whole request once it has started one (408 past
    /// it), and how long a kept-alive connection may stay idle (closed quietly).
    public var requestDeadline = Duration.seconds(120)
    /// How long a client may take, from the connection's start or the last answer, until the
    /// head of its next request is complete (408 for a partial head; an idle one is closed
    /// quietly); nil: only `requestDeadline`. A short one keeps slow clients from holding slots.
    public var headDeadline: Duration?

    public init() {}
}
