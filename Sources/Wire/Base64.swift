/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4).
///
/// Used for the WebSocket handshake key and accept value (RFC 6455 §4.2.2), Samsung client names
/// and `SendInputString` text, and the `content-data` of Roku ECP-2 responses.
///
/// Decoding is strict, as RFC 4648 §3.3 recommends for data from a peer: characters outside the
/// alphabet (including whitespace and line breaks), a length that is not a multiple of four,
/// misplaced or excess padding, and non-zero bits left over in the final group (§3.5) are all
/// `malformed`. Padding is required (§3.2): unpadded input is rejected rather than guessed at,
/// because every producer we talk to (Roku, Samsung, RFC 6455 peers) pads.
public enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xFF when the byte is not in the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    private static let padding = UInt8(ascii: "=")

    /// The padded base64 text of `bytes` (RFC 4648 §4).
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: encodeToBytes(bytes), as: UTF8.self)
    }

    /// The padded base64 text of `bytes` as ASCII bytes, for writing straight into a buffer.
    public static func encodeToBytes(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(second == nil ? padding : alphabet[Int(group >> 6 & 0x3F)])
            output.append(third == nil ? padding : alphabet[Int(group & 0x3F)])
        }
        return output
    }

    /// The bytes encoded by padded base64 `text`.
    ///
    /// - Throws: `WireError` `malformed` for anything but canonical padded base64 (RFC 4648 §3.2, §3.3, §3.5).
    public static func decode(_ text: String) throws(WireError) -> [UInt8] {
        try decode(bytes: text.utf8)
    }

    /// The bytes encoded by padded base64 given as ASCII bytes (for example a slice of a JSON buffer).
    ///
    /// - Throws: `WireError` `malformed` for anything but canonical padded base64 (RFC 4648 §3.2, §3.3, §3.5).
    public static func decode(bytes text: some Collection<UInt8>) throws(WireError) -> [UInt8] {
        let count = text.count
        guard count % 4 == 0 else { throw .malformed("Base64", "length \(count) is not a multiple of 4") }
        var output: [UInt8] = []
        output.reserveCapacity(count / 4 * 3)
        var group: UInt32 = 0
        var filled = 0
        var padded = 0
        var position = 0
        for character in text {
            defer { position &+= 1 }
            if character == padding {
                // Padding may only occupy the last one or two places of the final group (§3.2).
                guard position >= count - 2, filled >= 2 else {
                    throw .malformed("Base64", "misplaced padding at offset \(position)")
                }
                padded += 1
                continue
            }
            guard padded == 0 else { throw .malformed("Base64", "data after padding at offset \(position)") }
            let value = values[Int(character)]
            guard value != 0xFF else { throw .malformed("Base64", "byte 0x\(hex(character)) at offset \(position)") }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 0:
            break
        case 2:
            // Two characters carry 12 bits: one byte plus four bits that must be zero (§3.5).
            guard group & 0x0F == 0 else { throw .malformed("Base64", "non-zero trailing bits") }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            // Three characters carry 18 bits: two bytes plus two bits that must be zero (§3.5).
            guard group & 0x03 == 0 else { throw .malformed("Base64", "non-zero trailing bits") }
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            throw .malformed("Base64", "final group is incomplete")
        }
        return output
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
