/// What a `WebSocketSession` asks its driver to do, in order.
public enum WebSocketSessionAction: Equatable, Sendable {
    /// Write these bytes after everything written before (frames must never interleave).
    case write([UInt8])
    /// Hand a data message (`.text` or `.binary`) to the application.
    case deliver(WebSocketIncoming)
    /// Finish writing what is queued, then close the transport, and report `reason` as the end
    /// of the connection. Always the last action; the session is `.closed` afterwards.
    case closeTransport(WebSocketCloseReason)
}
