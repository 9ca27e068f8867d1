extension JSONValue {
    /// Compact JSON text with object keys sorted (byte order of their UTF-8), so equal values
    /// serialise identically.
    public func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    /// UTF-8 bytes of `serialized()`. Written straight into bytes: every state document and
    /// discovery config the bridge publishes goes through here, and building a String first
    /// (one scalar at a time) and then copying it out was a quarter of a busy bridge's CPU.
    public func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// Appends `serializedBytes()`.
    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .number(let value): out.append(contentsOf: Self.format(value).utf8)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Shortest round-tripping text; whole numbers without ".0"; non-finite values as null
    /// (JSON has no NaN or infinity).
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A quoted, escaped string. Runs of bytes that need no escape are copied at once; the
    /// escapes are `"` `\` and the controls (short forms for \n \r \t), DEL, and U+2028/U+2029
    /// (UTF-8 E2 80 A8/A9: JavaScript line terminators), as `\u00XX` in lowercase hex.
    static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                var escape: EscapeKind?
                if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                    escape = .ascii(byte)
                } else if byte == 0xE2, index + 2 < utf8.count, utf8[index + 1] == 0x80,
                    utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9
                {
                    escape = .lineSeparator(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                }
                guard let escape else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                switch escape {
                case .ascii(let byte):
                    appendEscape(byte, into: &out)
                    index += 1
                case .lineSeparator(let scalar):
                    appendUnicodeEscape(scalar, into: &out)
                    index += 3
                }
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private enum EscapeKind {
        case ascii(UInt8)
        case lineSeparator(UInt32)
    }

    private static func appendEscape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])  // \"
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])  // \\
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        default: appendUnicodeEscape(UInt32(byte), into: &out)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `\uXXXX`, lowercase hex, as the String-based writer produced.
    private static func appendUnicodeEscape(_ scalar: UInt32, into out: inout [UInt8]) {
        out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
        }
    }
}
