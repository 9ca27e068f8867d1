/// A complete WebSocket message or control frame, as the application sees it (RFC 6455 §5.4–§5.6).
public enum WebSocketMessage: Equatable, Sendable {
    /// A text message, already checked to be valid UTF-8 (§8.1).
    case text(String)
    /// A binary message.
    case binary([UInt8])
    /// A ping; the receiver answers with a pong carrying the same data (§5.5.2).
    case ping([UInt8])
    /// A pong (§5.5.3), solicited or not.
    case pong([UInt8])
    /// A close frame (§5.5.1): `code` is `nil` when the frame had no body, and the reason is
    /// empty when none was given.
    case close(code: UInt16?, reason: String)
}
