extension JSONValue {
    /// Compact JSON text with object keys sorted (byte order of their UTF-8), so equal values
    /// serialise identically.
    public func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    /// UTF-8 bytes of `serialized()`.
    public func serializedBytes() -> [UInt8] { Array(serialized().utf8) }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .integer(let value): out += String(value)
        case .number(let value): out += Self.format(value)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                members[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    /// Shortest round-tripping text; whole numbers without ".0"; non-finite values as null
    /// (JSON has no NaN or infinity).
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
