/// Limits that keep a hostile JSON document from costing more than it should.
public struct JSONLimits: Sendable {
    /// Nesting depth of arrays and objects.
    public var maxDepth: Int
    /// Input size in bytes.
    public var maxBytes: Int
    public static let `default` = JSONLimits(maxDepth: 32, maxBytes: 1 << 20)

    public init(maxDepth: Int, maxBytes: Int) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// A strict RFC 8259 parser: no comments, trailing commas, NaN, unescaped control characters,
/// lone surrogates or invalid UTF-8; duplicate object keys are refused (a command must not be
/// ambiguous). Errors name the byte offset.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private let limits: JSONLimits

    /// Parses one JSON text (surrounding whitespace allowed).
    public static func parse(_ input: some Collection<UInt8>, limits: JSONLimits = .default) throws(WireError)
        -> JSONValue
    {
        guard input.count <= limits.maxBytes else {
            throw .tooLarge("JSON", "document of \(input.count) bytes exceeds \(limits.maxBytes)")
        }
        var parser = JSONParser(bytes: Array(input), limits: limits)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    public static func parse(_ text: String, limits: JSONLimits = .default) throws(WireError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    private init(bytes: [UInt8], limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func error(_ reason: String) -> WireError {
        .malformed("JSON", "\(reason) at byte \(index)")
    }

    /// A member name as an error message shows it: quoted, at most 64 scalars, controls
    /// (C0, DEL, C1, U+2028/9) as `\uXXXX`. The message is logged and published, so a name
    /// holding CR/LF must not split the line (found by the command fuzz target).
    static func quoted(_ key: String) -> String {
        var out = "'"
        for scalar in key.unicodeScalars.prefix(64) {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
                let hex = String(value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + (key.unicodeScalars.count > 64 ? "…'" : "'")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(WireError) -> JSONValue {
        let text = literal.withUTF8Buffer { Array($0) }
        guard index + text.count <= bytes.count, Array(bytes[index..<index + text.count]) == text else {
            throw error("invalid literal")
        }
        index += text.count
        return value
    }

    private mutating func parseValue(depth: Int) throws(WireError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(WireError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw .tooLarge("JSON", "nesting deeper than \(limits.maxDepth)") }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            guard members.updateValue(value, forKey: key) == nil else {
                throw error("duplicate member \(Self.quoted(key))")
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(WireError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw .tooLarge("JSON", "nesting deeper than \(limits.maxDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(WireError) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= 0x30 && first <= 0x39 else { throw error("invalid number") }
        if first == 0x30 {
            index += 1
        } else {
            while let byte = current, byte >= 0x30 && byte <= 0x39 { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, byte >= 0x30 && byte <= 0x39 else { throw error("invalid number") }
            while let byte = current, byte >= 0x30 && byte <= 0x39 { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, byte >= 0x30 && byte <= 0x39 else { throw error("invalid number") }
            while let byte = current, byte >= 0x30 && byte <= 0x39 { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .number(value)
    }

    private mutating func parseString() throws(WireError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ parser: JSONParser, upTo end: Int, into scalars: inout String.UnicodeScalarView) -> Bool {
            guard runStart < end else { return true }
            guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            return true
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                guard flushRun(self, upTo: index, into: &scalars) else { throw error("invalid UTF-8 in a string") }
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            guard flushRun(self, upTo: index, into: &scalars) else { throw error("invalid UTF-8 in a string") }
            index += 1
            guard let escape = current else { throw error("unterminated escape") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
            default: throw error("invalid escape")
            }
            runStart = index
        }
    }

    /// `\uXXXX`, joining a surrogate pair (`\uD83D\uDE00`); lone surrogates are refused.
    private mutating func parseUnicodeEscape() throws(WireError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("lone surrogate")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("lone surrogate") }
        return scalar
    }

    private mutating func parseHex4() throws(WireError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
