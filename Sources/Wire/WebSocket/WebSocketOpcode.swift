/// A WebSocket frame opcode (RFC 6455 §5.2): the low four bits of a frame's first byte.
///
/// Only the six defined opcodes can be represented; the failable initialiser returns `nil` for the
/// reserved values 0x3–0x7 and 0xB–0xF (which the frame parser rejects) and anything above 0xF.
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-bit value carried in the frame header.
    public let rawValue: UInt8

    /// `nil` for reserved opcodes (RFC 6455 §5.2: "%x3-7 are reserved for further non-control
    /// frames", "%xB-F are reserved for further control frames") and values wider than four bits.
    public init?(rawValue: UInt8) {
        switch rawValue {
        case 0x0, 0x1, 0x2, 0x8, 0x9, 0xA: self.rawValue = rawValue
        default: return nil
        }
    }

    private init(unchecked rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 0x0: a later fragment of a fragmented message (§5.4).
    public static let continuation = WebSocketOpcode(unchecked: 0x0)
    /// 0x1: a text (UTF-8) data frame.
    public static let text = WebSocketOpcode(unchecked: 0x1)
    /// 0x2: a binary data frame.
    public static let binary = WebSocketOpcode(unchecked: 0x2)
    /// 0x8: connection close (§5.5.1).
    public static let close = WebSocketOpcode(unchecked: 0x8)
    /// 0x9: ping (§5.5.2).
    public static let ping = WebSocketOpcode(unchecked: 0x9)
    /// 0xA: pong (§5.5.3).
    public static let pong = WebSocketOpcode(unchecked: 0xA)

    /// Whether this is a control opcode (close, ping, pong): the most significant opcode bit is set
    /// (§5.5). Control frames must not be fragmented and carry at most 125 bytes.
    public var isControl: Bool { rawValue & 0x8 != 0 }

    public var description: String {
        switch rawValue {
        case 0x0: "continuation"
        case 0x1: "text"
        case 0x2: "binary"
        case 0x8: "close"
        case 0x9: "ping"
        default: "pong"
        }
    }
}

/// Which end of a WebSocket connection we are. It decides the masking rule (RFC 6455 §5.1):
/// a client masks every frame it sends and a server never masks.
public enum WebSocketRole: Sendable {
    /// We opened the connection: frames we receive come from a server and must not be masked.
    case client
    /// We accepted the connection: frames we receive come from a client and must be masked.
    case server
}
