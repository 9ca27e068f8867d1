/// How and why a WebSocket connection ended: the last thing `WebSocketConnection.incoming` yields.
public struct WebSocketCloseReason: Equatable, Sendable, CustomStringConvertible {
    /// Who ended the connection.
    public enum Initiator: String, Equatable, Sendable {
        /// We did: `close(code:reason:)`, a protocol violation by the peer that we failed the
        /// connection for, or a keepalive that found the peer silent.
        case local
        /// The peer sent a close frame first.
        case peer
        /// The transport ended (end of stream, reset, timeout) without a close handshake.
        case transport
    }

    /// The close code: the one the initiator put in its close frame, 1005 when its frame had
    /// none, 1006 when no close frame was exchanged (RFC 6455 §7.1.5, §7.4.1).
    public var code: UInt16
    /// The close frame's reason text, or our own explanation for 1006 and failures.
    public var reason: String
    public var initiator: Initiator
    /// Whether both close frames were exchanged (RFC 6455 §7.1.4 "closed cleanly").
    public var wasClean: Bool

    public init(code: UInt16, reason: String, initiator: Initiator, wasClean: Bool) {
        self.code = code
        self.reason = reason
        self.initiator = initiator
        self.wasClean = wasClean
    }

    public var description: String {
        let who =
            switch initiator {
            case .local: "closed by us"
            case .peer: "closed by the peer"
            case .transport: "connection lost"
            }
        let text = reason.isEmpty ? "" : ": \(reason)"
        return "\(who) with code \(code)\(text)\(wasClean ? "" : " (no close handshake)")"
    }
}

/// What a `WebSocketConnection` hands to the application: data messages, then how it ended.
///
/// Pings, pongs and close frames are handled by the connection itself (RFC 6455 §5.5) and never
/// appear here; the last element is always `.closed`.
public enum WebSocketIncoming: Equatable, Sendable {
    /// A text message, valid UTF-8 (§8.1).
    case text(String)
    /// A binary message.
    case binary([UInt8])
    /// The connection ended; nothing follows.
    case closed(WebSocketCloseReason)
}
