/// One WebSocket frame (RFC 6455 §5.2) with its payload unmasked.
///
/// Frames are what travels on the wire; `WebSocketMessageAssembler` turns them into messages.
/// Masking is a property of the encoding, not of the frame: `encode(maskingKey:)` masks when given
/// a key (a client must, §5.1), and `WebSocketFrameParser` hands back payloads already unmasked.
public struct WebSocketFrame: Equatable, Sendable {
    /// Whether this is the final fragment of a message (§5.4). Always set on control frames.
    public var fin: Bool
    /// The three RSV bits (RSV1 is 0b100), zero unless an extension was negotiated (§5.2).
    public var rsv: UInt8
    public var opcode: WebSocketOpcode
    /// The application data, unmasked.
    public var payload: [UInt8]

    public init(fin: Bool = true, rsv: UInt8 = 0, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.rsv = rsv & 0x7
        self.opcode = opcode
        self.payload = payload
    }

    /// The largest payload a control frame may carry (§5.5).
    public static let maxControlPayload = 125

    /// The frame's bytes on the wire.
    ///
    /// - Parameter maskingKey: four bytes from a strong random source, fresh for every frame (§5.3),
    ///   or `nil` to send unmasked (what a server does). Any count other than four is a programming
    ///   error and traps.
    public func encode(maskingKey: [UInt8]?) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(maskingKey: maskingKey, into: &bytes)
        return bytes
    }

    /// Appends the frame's bytes to `bytes`, so several frames can share one write buffer.
    public func encode(maskingKey: [UInt8]?, into bytes: inout [UInt8]) {
        precondition(maskingKey == nil || maskingKey?.count == 4, "a WebSocket masking key is four bytes")
        let count = payload.count
        bytes.reserveCapacity(bytes.count + 14 + count)
        bytes.append((fin ? 0x80 : 0) | (rsv & 0x7) << 4 | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        // The minimal length encoding is mandatory (§5.2: "the minimal number of bytes MUST be used").
        if count <= 125 {
            bytes.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes.append(UInt8(truncatingIfNeeded: count >> 8))
            bytes.append(UInt8(truncatingIfNeeded: count))
        } else {
            bytes.append(maskBit | 127)
            let length = UInt64(count)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        guard let key = maskingKey else {
            bytes.append(contentsOf: payload)
            return
        }
        bytes.append(contentsOf: key)
        let start = bytes.count
        bytes.append(contentsOf: payload)
        WebSocketMask.apply(key: (key[0], key[1], key[2], key[3]), to: &bytes, range: start..<bytes.count)
    }
}

extension WebSocketFrame {
    /// A single-frame text message.
    public static func text(_ text: String) -> WebSocketFrame {
        WebSocketFrame(opcode: .text, payload: Array(text.utf8))
    }

    /// A single-frame binary message.
    public static func binary(_ bytes: [UInt8]) -> WebSocketFrame {
        WebSocketFrame(opcode: .binary, payload: bytes)
    }

    /// A ping (§5.5.2). Application data beyond the 125-byte control-frame limit is cut off.
    public static func ping(_ payload: [UInt8] = []) -> WebSocketFrame {
        WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(maxControlPayload)))
    }

    /// A pong (§5.5.3), normally echoing a ping's application data. Data beyond 125 bytes is cut off.
    public static func pong(_ payload: [UInt8] = []) -> WebSocketFrame {
        WebSocketFrame(opcode: .pong, payload: Array(payload.prefix(maxControlPayload)))
    }

    /// A close frame (§5.5.1): empty when `code` is `nil`, otherwise the code in network order
    /// followed by the UTF-8 reason. The reason is shortened, on a character boundary, to the
    /// 123 bytes that fit in a control frame.
    public static func close(code: UInt16?, reason: String = "") -> WebSocketFrame {
        guard let code else { return WebSocketFrame(opcode: .close) }
        var payload: [UInt8] = [UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code)]
        var reasonBytes = 0
        for character in reason {
            let size = character.utf8.count
            guard reasonBytes + size <= maxControlPayload - 2 else { break }
            payload.append(contentsOf: character.utf8)
            reasonBytes += size
        }
        return WebSocketFrame(opcode: .close, payload: payload)
    }
}
