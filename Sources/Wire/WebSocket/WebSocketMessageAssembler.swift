/// Reassembles fragmented WebSocket messages and decodes control frames (RFC 6455 §5.4, §5.5).
///
/// Push every frame the parser returns, in order; a message comes back when one is complete.
/// Control frames may arrive between the fragments of a data message and are returned at once.
/// A thrown `WireError` means the connection must be failed (close code from
/// `WebSocketCloseCode.forError`).
///
/// Enforced:
/// - a continuation frame needs a message in progress, and a new text/binary frame may not start
///   while one is in progress (§5.4);
/// - control frames are unfragmented and at most 125 bytes (§5.5), even if built by hand;
/// - the assembled message stays within `maxMessageSize`, checked before each fragment is appended;
/// - text is valid UTF-8 (§8.1), checked once the message is complete;
/// - a close body is empty or at least two bytes, its code is valid on the wire (§7.4) and its
///   reason is valid UTF-8 (§5.5.1).
public struct WebSocketMessageAssembler: Sendable {
    /// The largest assembled data message accepted.
    public let maxMessageSize: Int

    private var fragmentOpcode: WebSocketOpcode?
    private var fragments: [UInt8] = []

    public init(maxMessageSize: Int = 1 << 20) {
        self.maxMessageSize = max(0, maxMessageSize)
    }

    /// Whether a fragmented data message has started and not yet finished.
    public var isAssembling: Bool { fragmentOpcode != nil }

    /// Takes the next frame; returns a message when one is complete, `nil` while fragments are pending.
    ///
    /// - Throws: `WireError` `malformed` for a sequencing or content violation, `tooLarge` when the
    ///   message would exceed `maxMessageSize`.
    public mutating func push(_ frame: WebSocketFrame) throws(WireError) -> WebSocketMessage? {
        if frame.opcode.isControl { return try Self.controlMessage(frame) }
        switch (frame.opcode, fragmentOpcode) {
        case (.continuation, nil):
            throw .malformed("WebSocket", "continuation frame without a message to continue")
        case (.continuation, let started?):
            try checkSize(adding: frame.payload.count)
            fragments.append(contentsOf: frame.payload)
            guard frame.fin else { return nil }
            let payload = fragments
            fragments = []
            fragmentOpcode = nil
            return try Self.dataMessage(started, payload)
        case (_, .some):
            throw .malformed("WebSocket", "new \(frame.opcode) frame inside a fragmented message")
        case (_, nil):
            try checkSize(adding: frame.payload.count)
            if frame.fin { return try Self.dataMessage(frame.opcode, frame.payload) }
            fragmentOpcode = frame.opcode
            fragments = frame.payload
            return nil
        }
    }

    private func checkSize(adding count: Int) throws(WireError) {
        guard count <= maxMessageSize - fragments.count else {
            throw .tooLarge("WebSocket", "message exceeds the \(maxMessageSize)-byte limit")
        }
    }

    private static func dataMessage(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(WireError)
        -> WebSocketMessage
    {
        guard opcode == .text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw .malformed("WebSocket", "text message is not valid UTF-8")
        }
        return .text(text)
    }

    private static func controlMessage(_ frame: WebSocketFrame) throws(WireError) -> WebSocketMessage {
        guard frame.fin, frame.payload.count <= WebSocketFrame.maxControlPayload else {
            throw .malformed("WebSocket", "control frame fragmented or longer than 125 bytes")
        }
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        default: return try closeMessage(frame.payload)
        }
    }

    private static func closeMessage(_ payload: [UInt8]) throws(WireError) -> WebSocketMessage {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .malformed("WebSocket", "close body of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode.isValidOnWire(code) else {
            throw .malformed("WebSocket", "close code \(code) is not allowed on the wire")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw .malformed("WebSocket", "close reason is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }
}
