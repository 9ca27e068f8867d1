/// Limits and timers of one WebSocket connection (frames of at most 1 MiB).
public struct WebSocketConfiguration: Sendable, Equatable {
    /// The largest frame payload accepted; a longer frame fails the connection with 1009
    /// before any of its payload is buffered.
    public var maxFrameSize: Int
    /// The largest reassembled message accepted (1009 beyond it).
    public var maxMessageSize: Int
    /// How long to wait for the peer's close frame after sending ours (RFC 6455 §7.1.1),
    /// then the transport is closed anyway.
    public var closeTimeout: Duration
    /// How long one write may take before the peer is considered stuck.
    public var writeTimeout: Duration
    /// Send a ping after this long without traffic from the peer; `nil` for no keepalive.
    public var keepAliveInterval: Duration?
    /// After a keepalive ping, declare the peer dead when nothing at all arrives within this.
    public var keepAliveTimeout: Duration
    /// Received messages the application has not taken yet, in bytes, above which the connection
    /// stops reading until it does (a consumer stalled longer than the keepalive allows is then
    /// reported as a silent peer).
    public var maxBufferedIncomingBytes: Int

    public init(
        maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20,
        closeTimeout: Duration = .seconds(3),
        writeTimeout: Duration = .seconds(5), keepAliveInterval: Duration? = nil,
        keepAliveTimeout: Duration = .seconds(5), maxBufferedIncomingBytes: Int = 4 << 20
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.closeTimeout = closeTimeout
        self.writeTimeout = writeTimeout
        self.keepAliveInterval = keepAliveInterval
        self.keepAliveTimeout = keepAliveTimeout
        self.maxBufferedIncomingBytes = maxBufferedIncomingBytes
    }
}
