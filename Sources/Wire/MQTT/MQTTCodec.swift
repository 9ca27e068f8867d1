/// MQTT 3.1.1 data-type primitives shared by every packet (§1.5, §2.2.3).
///
/// Writers append to a caller's `[UInt8]`; readers consume from a `ByteReader` positioned
/// inside a packet whose length is already known, so running out of bytes there is
/// malformed input, never "wait for more".
enum MQTTCodec {
    static let proto = "MQTT"
    /// The largest value the 4-byte remaining-length varint can carry (§2.2.3, Table 2.4).
    static let maxRemainingLength = 268_435_455
    /// UTF-8 strings and binary data carry a two-byte length prefix (§1.5.3).
    static let maxStringLength = 65_535

    static func malformed(_ reason: String) -> WireError { .malformed(proto, reason) }
    static func tooLarge(_ reason: String) -> WireError { .tooLarge(proto, reason) }

    // MARK: - Encoding

    /// Checks a string may be encoded and returns its size with the length prefix.
    ///
    /// Swift strings are always well-formed Unicode, so only the length limit and the
    /// ban on U+0000 (§1.5.3, [MQTT-1.5.3-2]) remain to be checked.
    static func encodedSize(ofString value: String, _ field: String) throws(WireError) -> Int {
        let utf8 = value.utf8
        let count = utf8.count
        guard count <= maxStringLength else {
            throw tooLarge("\(field) is \(count) bytes; a string holds at most 65535 (§1.5.3)")
        }
        guard !utf8.contains(0) else { throw malformed("\(field) contains U+0000 (§1.5.3)") }
        return 2 + count
    }

    /// Checks binary data may be encoded (§1.5.3 length prefix) and returns its size with the prefix.
    static func encodedSize(ofBinary value: [UInt8], _ field: String) throws(WireError) -> Int {
        guard value.count <= maxStringLength else {
            throw tooLarge("\(field) is \(value.count) bytes; at most 65535 fit the length prefix")
        }
        return 2 + value.count
    }

    /// Checks a packet identifier that the packet requires (§2.3.1, [MQTT-2.3.1-1]).
    static func checkPacketID(_ id: UInt16, _ packet: String) throws(WireError) {
        guard id != 0 else { throw malformed("\(packet) packet identifier is 0 (§2.3.1)") }
    }

    static func appendUInt16(_ value: UInt16, to buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a length-prefixed string already checked by `encodedSize(ofString:_:)`.
    static func appendString(_ value: String, to buffer: inout [UInt8]) {
        let utf8 = value.utf8
        appendUInt16(UInt16(truncatingIfNeeded: utf8.count), to: &buffer)
        buffer.append(contentsOf: utf8)
    }

    /// Appends length-prefixed binary data already checked by `encodedSize(ofBinary:_:)`.
    static func appendBinary(_ value: [UInt8], to buffer: inout [UInt8]) {
        appendUInt16(UInt16(truncatingIfNeeded: value.count), to: &buffer)
        buffer.append(contentsOf: value)
    }

    /// Number of bytes the remaining-length varint takes for `length` (§2.2.3).
    static func remainingLengthSize(_ length: Int) -> Int {
        switch length {
        case ..<128: 1
        case ..<16_384: 2
        case ..<2_097_152: 3
        default: 4
        }
    }

    /// Appends the remaining-length varint: 7 bits per byte, least significant first (§2.2.3).
    static func appendRemainingLength(_ length: Int, to buffer: inout [UInt8]) {
        var value = length
        repeat {
            var byte = UInt8(truncatingIfNeeded: value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            buffer.append(byte)
        } while value > 0
    }

    // MARK: - Decoding

    static func readUInt8(_ reader: inout ByteReader, _ field: String) throws(WireError) -> UInt8 {
        guard let value = reader.readUInt8() else { throw malformed("packet ends inside \(field)") }
        return value
    }

    static func readUInt16(_ reader: inout ByteReader, _ field: String) throws(WireError) -> UInt16 {
        guard let value = reader.readUInt16() else { throw malformed("packet ends inside \(field)") }
        return value
    }

    /// Reads a non-zero packet identifier (§2.3.1, [MQTT-2.3.1-1]).
    static func readPacketID(_ reader: inout ByteReader, _ packet: String) throws(WireError) -> UInt16 {
        let id = try readUInt16(&reader, "the \(packet) packet identifier")
        try checkPacketID(id, packet)
        return id
    }

    /// Reads length-prefixed binary data (§1.5.3 framing, no UTF-8 rules).
    static func readBinary(_ reader: inout ByteReader, _ field: String) throws(WireError) -> ArraySlice<UInt8> {
        let length = try readUInt16(&reader, "the length of \(field)")
        guard let bytes = reader.readBytes(Int(length)) else {
            throw malformed("\(field) is longer than the packet")
        }
        return bytes
    }

    /// Reads a UTF-8 string: well-formed, no surrogates, no U+0000 (§1.5.3, [MQTT-1.5.3-1/2]).
    ///
    /// The stdlib's validating initialiser rejects overlong forms and encoded surrogates.
    static func readString(_ reader: inout ByteReader, _ field: String) throws(WireError) -> String {
        let bytes = try readBinary(&reader, field)
        guard !bytes.contains(0) else { throw malformed("\(field) contains U+0000 (§1.5.3)") }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw malformed("\(field) is not well-formed UTF-8 (§1.5.3)")
        }
        return string
    }

    /// Fails when a packet has bytes after its last field.
    static func expectEnd(_ reader: ByteReader, _ packet: String) throws(WireError) {
        guard reader.isAtEnd else {
            throw malformed("\(packet) has \(reader.remaining) unexpected trailing bytes")
        }
    }
}
