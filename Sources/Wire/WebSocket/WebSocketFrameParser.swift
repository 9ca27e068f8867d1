/// Splits a WebSocket byte stream into frames (RFC 6455 §5.2), validating each header as soon as
/// its bytes arrive.
///
/// Feed it what the socket delivered with `append(_:)`, then call `next()` until it returns `nil`
/// ("need more bytes"). Frames come back with their payloads unmasked. A thrown `WireError` means
/// the connection must be failed (§7.1.7); the parser then keeps throwing the same error.
///
/// Enforced, in header order:
/// - RSV1–3 must be zero: no extension is ever negotiated (§5.2);
/// - reserved opcodes are refused (§5.2);
/// - control frames must have FIN set and at most 125 bytes of payload (§5.5);
/// - a client refuses masked frames and a server refuses unmasked ones (§5.1);
/// - the length must use the minimal encoding, and a 64-bit length must have its top bit clear (§5.2);
/// - a payload longer than `maxFrameSize` is `tooLarge` before any of it is buffered.
public struct WebSocketFrameParser: Sendable {
    /// Which end we are; decides which masking the peer must use.
    public let role: WebSocketRole
    /// The largest payload accepted in one frame.
    public let maxFrameSize: Int

    private var buffer = InputBuffer()
    private var failure: WireError?

    public init(role: WebSocketRole, maxFrameSize: Int = 1 << 20) {
        self.role = role
        self.maxFrameSize = max(0, maxFrameSize)
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count }

    /// Adds bytes received from the peer.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(bytes)
    }

    /// The next complete frame, or `nil` when more bytes are needed.
    ///
    /// - Throws: `WireError` `malformed` for a protocol violation, `tooLarge` for a frame over
    ///   `maxFrameSize`.
    public mutating func next() throws(WireError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try parseFrame()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func parseFrame() throws(WireError) -> WebSocketFrame? {
        let bytes = buffer.readable
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let first = bytes[start]
        let second = bytes[start + 1]

        let fin = first & 0x80 != 0
        let rsv = first >> 4 & 0x7
        guard rsv == 0 else { throw .malformed("WebSocket", "RSV bits set without a negotiated extension") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .malformed("WebSocket", "reserved opcode 0x\(String(first & 0x0F, radix: 16))")
        }
        let length7 = Int(second & 0x7F)
        if opcode.isControl {
            guard fin else { throw .malformed("WebSocket", "fragmented \(opcode) frame") }
            guard length7 <= WebSocketFrame.maxControlPayload else {
                throw .malformed("WebSocket", "\(opcode) frame longer than 125 bytes")
            }
        }
        let masked = second & 0x80 != 0
        switch (role, masked) {
        case (.client, true): throw .malformed("WebSocket", "masked frame from the server")
        case (.server, false): throw .malformed("WebSocket", "unmasked frame from the client")
        default: break
        }

        var headerLength = 2
        let payloadLength: Int
        switch length7 {
        case 126:
            guard bytes.count >= 4 else { return nil }
            let length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            guard length > 125 else { throw .malformed("WebSocket", "non-minimal 16-bit length \(length)") }
            payloadLength = length
            headerLength = 4
        case 127:
            guard bytes.count >= 10 else { return nil }
            var length: UInt64 = 0
            for offset in 2..<10 { length = length << 8 | UInt64(bytes[start + offset]) }
            guard length >> 63 == 0 else { throw .malformed("WebSocket", "64-bit length with the top bit set") }
            guard length > 0xFFFF else { throw .malformed("WebSocket", "non-minimal 64-bit length \(length)") }
            guard length <= UInt64(maxFrameSize) else {
                throw .tooLarge("WebSocket", "frame of \(length) bytes exceeds the \(maxFrameSize)-byte limit")
            }
            payloadLength = Int(length)
            headerLength = 10
        default:
            payloadLength = length7
        }
        guard payloadLength <= maxFrameSize else {
            throw .tooLarge("WebSocket", "frame of \(payloadLength) bytes exceeds the \(maxFrameSize)-byte limit")
        }

        let keyOffset = start + headerLength
        if masked { headerLength += 4 }
        guard bytes.count - headerLength >= payloadLength else { return nil }
        let payloadStart = start + headerLength
        var payload = Array(bytes[payloadStart..<payloadStart + payloadLength])
        if masked {
            let key = (bytes[keyOffset], bytes[keyOffset + 1], bytes[keyOffset + 2], bytes[keyOffset + 3])
            WebSocketMask.apply(key: key, to: &payload, range: 0..<payloadLength)
        }
        buffer.consume(headerLength + payloadLength)
        return WebSocketFrame(fin: fin, rsv: rsv, opcode: opcode, payload: payload)
    }
}
