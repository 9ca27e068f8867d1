import Bridge
import Clients
import Configuration
import Net
import Support
import Wire

/// The status page's HTTP server (`http.listen`): the page, its data (`api/state`), its live
/// feed (`api/events`) and its commands, which take the bridge's own command and request paths
/// (`StatusRoutes`). Started before the bridge runs, so a port that cannot be bound stops the
/// start with its reason.
public final class StatusServer: Sendable {
    let routes: StatusRoutes
    private let server: HTTPServer

    /// The bound port (the one asked for, or the kernel's pick for port 0).
    public var port: UInt16 { server.port }
    /// Connections open now (a test waits for the server to have taken them in).
    public var connectionCount: Int { server.connectionCount }

    private init(routes: StatusRoutes, server: HTTPServer) {
        self.routes = routes
        self.server = server
    }

    /// Binds `settings.listen` and serves the page for `service`, fed by `feed`.
    public static func start(
        service: BridgeService, feed: StatusFeed, settings: BridgeConfiguration.HTTP, logger: Logger,
        limits: StatusPageLimits = StatusPageLimits()
    ) throws(NetError) -> StatusServer {
        guard let listen = settings.listen else { throw NetError(.misuse, "status page", "http.listen is not set") }
        let listener = try TCPListener.bind(host: listen.host, port: listen.port)
        feed.attach(service)
        // The port bound (the kernel's pick for 0) is the one a request's `Host` names.
        var bound = settings
        bound.listen?.port = listener.address.port
        let routes = StatusRoutes(
            service: service, feed: feed, settings: bound, limits: limits, logger: logger.labeled("http"))
        // By parsed address (`StatusRoutes.peerSet`), not by text.
        let allowed = StatusRoutes.peerSet(settings.allowFrom)
        var admits: (@Sendable (SocketAddress) -> Bool)?
        if !settings.allowFrom.isEmpty {
            admits = { (address: SocketAddress) -> Bool in allowed.contains(address.canonicalIP) }
        }
        var httpLimits = limits.http
        // The ingress gateway carries every user's connections: no share per address for it.
        if !allowed.isEmpty { httpLimits.maxConnectionsPerSource = nil }
        let server = HTTPServer.start(
            listener: listener, serverHeader: "tv2mqtt", limits: httpLimits, admits: admits,
            upgrade: HTTPUpgrade(
                acceptsFrom: { routes.isEventStream($0, from: $1) },
                run: { request, stream, _, remote in await routes.streamEvents(request, to: stream, from: remote) }),
            handler: { request, remote in await routes.handle(request, from: remote) })
        routes.logger.info("status page on http://\(listen)/", [("token", settings.token.isEmpty ? "no" : "yes")])
        return StatusServer(routes: routes, server: server)
    }

    /// Closes the socket, every connection and every event stream at once, without waiting
    /// for requests in flight (a `tv/pair` may wait for the TV): the bridge's exit must not.
    public func close() {
        routes.feed.closeAllStreams()
        server.close()
    }

    /// `close()`, then waits until every connection's task has ended.
    public func stop() async {
        routes.feed.closeAllStreams()
        await server.stop()
    }
}
