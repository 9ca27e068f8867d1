/// Why a decoder refused its input.
///
/// Every codec in `Wire` throws this one type. "Not enough bytes yet" is never an error:
/// streaming decoders return `nil` for it. Each case carries the protocol and a reason
/// written for a human, so the message can go straight into a log line.
public struct WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The broad class of failure.
    public enum Kind: String, Sendable {
        /// The bytes break the protocol's grammar (bad flags, bad length encoding, bad UTF-8…).
        case malformed
        /// A length, count or size exceeds a limit we enforce (before allocating for it).
        case tooLarge
        /// Well-formed, but something we do not support (an unknown packet type, an HTTP version…).
        case unsupported
    }

    /// The protocol that was being decoded: "MQTT", "HTTP", "WebSocket", "SSDP", "XML"…
    public let proto: String
    public let kind: Kind
    /// What was wrong, e.g. "remaining length uses more than 4 bytes".
    public let reason: String

    public init(_ proto: String, _ kind: Kind, _ reason: String) {
        self.proto = proto
        self.kind = kind
        self.reason = reason
    }

    public static func malformed(_ proto: String, _ reason: String) -> WireError {
        WireError(proto, .malformed, reason)
    }

    public static func tooLarge(_ proto: String, _ reason: String) -> WireError {
        WireError(proto, .tooLarge, reason)
    }

    public static func unsupported(_ proto: String, _ reason: String) -> WireError {
        WireError(proto, .unsupported, reason)
    }

    public var description: String { "\(proto): \(reason)" }
}
