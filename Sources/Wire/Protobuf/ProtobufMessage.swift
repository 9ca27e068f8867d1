/// A Protocol Buffers message read into its fields, in wire order. Unknown fields are kept
/// and ignored by whoever does not ask for them, as the format requires; for a field that
/// appears more than once, the last wins (`first`/`last`) or all are read (`all`).
public struct ProtobufMessage: Equatable, Sendable {
    public var fields: [ProtobufField]

    /// The most fields one message may hold: far above any message of the protocols we speak,
    /// it bounds what a hostile peer makes us allocate.
    public static let maxFields = 4096

    public init(_ fields: [ProtobufField] = []) {
        self.fields = fields
    }

    /// Reads every field of `bytes`, which hold exactly one message.
    /// - Throws: `malformed` (a truncated field, field number 0 or past 2^29 − 1, a length past
    ///   the end, wire types 6 and 7), `unsupported` (groups), `tooLarge` (over `maxFields`).
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        var fields: [ProtobufField] = []
        var rest = bytes
        while !rest.isEmpty {
            guard fields.count < Self.maxFields else {
                throw .tooLarge("protobuf", "more than \(Self.maxFields) fields in a message")
            }
            let (field, used) = try Self.field(rest)
            fields.append(field)
            rest = rest.dropFirst(used)
        }
        self.fields = fields
    }

    public init(decoding bytes: [UInt8]) throws(WireError) {
        try self.init(decoding: bytes[...])
    }

    private static func field(_ bytes: ArraySlice<UInt8>) throws(WireError) -> (ProtobufField, Int) {
        guard let (key, keyBytes) = try ProtobufVarint.decode(bytes) else {
            throw .malformed("protobuf", "a field key cut short")
        }
        let number = key >> 3
        guard number >= 1, number <= UInt64(ProtobufField.maxNumber) else {
            throw .malformed("protobuf", "field number \(number) out of range")
        }
        let body = bytes.dropFirst(keyBytes)
        let value: ProtobufField.Value
        let used: Int
        switch key & 7 {
        case 0:
            guard let (varint, varintBytes) = try ProtobufVarint.decode(body) else {
                throw .malformed("protobuf", "field \(number): a varint cut short")
            }
            (value, used) = (.varint(varint), varintBytes)
        case 1:
            guard body.count >= 8 else { throw .malformed("protobuf", "field \(number): a fixed64 cut short") }
            (value, used) = (.fixed64(littleEndian(body.prefix(8))), 8)
        case 2:
            guard let (length, lengthBytes) = try ProtobufVarint.decode(body) else {
                throw .malformed("protobuf", "field \(number): a length cut short")
            }
            guard length <= UInt64(body.count - lengthBytes) else {
                throw .malformed(
                    "protobuf", "field \(number): \(length) bytes announced, \(body.count - lengthBytes) left")
            }
            let start = body.startIndex + lengthBytes
            (value, used) = (.bytes(Array(body[start..<start + Int(length)])), lengthBytes + Int(length))
        case 5:
            guard body.count >= 4 else { throw .malformed("protobuf", "field \(number): a fixed32 cut short") }
            (value, used) = (.fixed32(UInt32(truncatingIfNeeded: littleEndian(body.prefix(4)))), 4)
        case 3, 4:
            throw .unsupported("protobuf", "field \(number): groups (wire types 3 and 4)")
        default:
            throw .malformed("protobuf", "field \(number): wire type \(key & 7)")
        }
        return (ProtobufField(UInt32(number), value), keyBytes + used)
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    // MARK: Reading fields by number

    /// The last occurrence of field `number` (the format's rule for a repeated scalar).
    public func last(_ number: UInt32) -> ProtobufField.Value? {
        fields.last { $0.number == number }?.value
    }

    public func all(_ number: UInt32) -> [ProtobufField.Value] {
        fields.filter { $0.number == number }.map(\.value)
    }

    public func has(_ number: UInt32) -> Bool { fields.contains { $0.number == number } }

    /// A varint field as unsigned; nil when absent or of another wire type.
    public func uint(_ number: UInt32) -> UInt64? {
        guard case .varint(let value)? = last(number) else { return nil }
        return value
    }

    /// An int32 or enum field: negative values travel as ten-byte varints.
    public func int32(_ number: UInt32) -> Int32? {
        uint(number).map { Int32(truncatingIfNeeded: Int64(bitPattern: $0)) }
    }

    public func bool(_ number: UInt32) -> Bool? { uint(number).map { $0 != 0 } }

    public func bytes(_ number: UInt32) -> [UInt8]? {
        guard case .bytes(let value)? = last(number) else { return nil }
        return value
    }

    /// A string field; nil when absent, of another wire type, or not UTF-8.
    public func string(_ number: UInt32) -> String? {
        bytes(number).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// An embedded message.
    /// - Throws: what decoding it throws.
    public func message(_ number: UInt32) throws(WireError) -> ProtobufMessage? {
        guard let bytes = bytes(number) else { return nil }
        return try ProtobufMessage(decoding: bytes)
    }

    // MARK: Writing

    /// The binary encoding, fields in order.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            ProtobufVarint.encode(UInt64(field.number) << 3 | UInt64(field.value.wireType), into: &bytes)
            switch field.value {
            case .varint(let value): ProtobufVarint.encode(value, into: &bytes)
            case .fixed64(let value):
                for shift in stride(from: 0, to: 64, by: 8) {
                    bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
                }
            case .fixed32(let value):
                for shift in stride(from: 0, to: 32, by: 8) {
                    bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
                }
            case .bytes(let value):
                ProtobufVarint.encode(UInt64(value.count), into: &bytes)
                bytes += value
            }
        }
        return bytes
    }

    public mutating func append(_ number: UInt32, uint value: UInt64) {
        fields.append(ProtobufField(number, .varint(value)))
    }

    /// An int32 or enum: a negative value is sign-extended to 64 bits, as the format says.
    public mutating func append(_ number: UInt32, int32 value: Int32) {
        fields.append(ProtobufField(number, .varint(UInt64(bitPattern: Int64(value)))))
    }

    public mutating func append(_ number: UInt32, bool value: Bool) { append(number, uint: value ? 1 : 0) }
    public mutating func append(_ number: UInt32, bytes value: [UInt8]) {
        fields.append(ProtobufField(number, .bytes(value)))
    }
    public mutating func append(_ number: UInt32, string value: String) { append(number, bytes: Array(value.utf8)) }
    public mutating func append(_ number: UInt32, message value: ProtobufMessage) {
        append(number, bytes: value.encoded())
    }
}
