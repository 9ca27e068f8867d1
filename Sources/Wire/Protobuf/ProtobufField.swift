/// One field of a Protocol Buffers message in its binary encoding
/// (<https://protobuf.dev/programming-guides/encoding/>): a field number and a value of one of
/// the four wire types still in use. Groups (wire types 3 and 4, deprecated since proto2) are
/// refused; messages are read flat and a nested message is parsed when it is asked for.
public struct ProtobufField: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        /// Wire type 0: int32, int64, uint32, uint64, sint*, bool, enum.
        case varint(UInt64)
        /// Wire type 1: fixed64, sfixed64, double.
        case fixed64(UInt64)
        /// Wire type 2: string, bytes, an embedded message, a packed repeated field.
        case bytes([UInt8])
        /// Wire type 5: fixed32, sfixed32, float.
        case fixed32(UInt32)

        var wireType: UInt8 {
            switch self {
            case .varint: 0
            case .fixed64: 1
            case .bytes: 2
            case .fixed32: 5
            }
        }
    }

    /// 1 to 2^29 − 1 (`maxNumber`).
    public let number: UInt32
    public let value: Value

    public static let maxNumber: UInt32 = (1 << 29) - 1

    public init(_ number: UInt32, _ value: Value) {
        self.number = number
        self.value = value
    }
}

/// Varints: seven bits a byte, least significant group first, the top bit set on every byte
/// but the last; at most ten bytes for 64 bits.
public enum ProtobufVarint {
    public static let maxBytes = 10

    /// The value and the bytes it took; nil when `bytes` ends inside the varint.
    /// - Throws: `malformed` for more than ten bytes or a value past 64 bits.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireError) -> (value: UInt64, used: Int)? {
        var value: UInt64 = 0
        var index = bytes.startIndex
        for shift in stride(from: UInt64(0), to: 70, by: 7) {
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            index += 1
            // The tenth byte holds bit 63 alone.
            if shift == 63 && byte > 1 { throw .malformed("protobuf", "a varint past 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return (value, index - bytes.startIndex) }
        }
        throw .malformed("protobuf", "a varint of more than \(maxBytes) bytes")
    }

    public static func encode(_ value: UInt64, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
