/// Hexadecimal digits, in either case: one reading of them for every codec (MAC addresses,
/// certificate pins, pairing codes, HTTP chunk sizes and percent escapes).
public enum HexDigits {
    /// The value of one digit, or nil.
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// The bytes an even number of digits spell, two digits a byte; nil for anything else.
    public static func bytes(_ digits: [UInt8]) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[pair]), let low = value(digits[pair + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
