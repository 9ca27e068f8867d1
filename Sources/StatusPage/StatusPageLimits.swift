import Clients

/// Every bound of the status page, defined once (Tests/BAD-INPUT.md lists the refusals).
public struct StatusPageLimits: Sendable {
    /// Log lines and events kept for the page (the newest).
    public static let ringCapacity = 200
    /// Broker connection changes kept for the page.
    public static let brokerHistory = 20
    /// How long a wrong token (a login, a bearer header, a cookie) waits before its 401.
    public var wrongTokenDelay = Duration.seconds(1)
    /// Wrong tokens one source address may send per `tokenFailureWindow`; past it, every
    /// request with a token from there gets 429 until the window ends.
    public var tokenFailureBudget = 10
    /// The window of `tokenFailureBudget`, from a source's first failure in it.
    public var tokenFailureWindow = Duration.seconds(60)
    /// Source addresses whose failures are counted at once (bounded memory).
    public static let tokenFailureSources = 1024
    /// Login sessions held at once; one more ends the oldest.
    public var maxSessions = 16
    /// How long a login lasts (the cookie's `Max-Age`); then the page asks for the token again.
    public var sessionLifetime = Duration.seconds(12 * 3600)
    /// Discovery answers and refusals kept for the page (the newest).
    public static let discoveryEntries = 50
    /// Event streams open at once; one more is answered 503.
    public var maxEventStreams = 8
    /// Event streams open at once from one address (not for `http.allow_from` peers, which
    /// carry every user's); one more is answered 503.
    public var maxEventStreamsPerSource = 4
    /// Messages waiting for one slow event-stream client; past it the oldest are dropped.
    public var streamBacklog = 256
    /// A comment on every event stream this often, so proxies keep it open.
    public var pingInterval = Duration.seconds(15)
    /// What one connection may send and how long it may take (`HTTPServer`).
    public var http: HTTPServerLimits

    public init() {
        http = HTTPServerLimits()
        http.maxHeaderBytes = 8 * 1024
        http.maxHeaderCount = 64
        http.maxBodyBytes = 64 * 1024
        http.maxConnections = 32
        http.maxConnectionsPerSource = 16
        http.requestDeadline = .seconds(10)
        // A browser sends its head at once: a slow one only holds a slot.
        http.headDeadline = .seconds(3)
    }
}
