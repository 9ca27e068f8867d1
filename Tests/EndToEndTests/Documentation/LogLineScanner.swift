import Glibc

/// Finds the log calls in Swift source text, without compiling it: a small lexer that knows
/// comments, string literals (with interpolation, multi-line and raw) and brackets, enough to
/// read a call's arguments and a literal message's fixed parts. For `LogLineTableTests`.
struct LogLineScanner {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    /// One call of `needle` (which ends with "("): its line and its top-level arguments.
    struct Call {
        let line: Int
        let arguments: [String]
    }

    /// Every call of each of `needles` in code (not in comments or strings), where the byte
    /// before it does not continue an identifier (so `logger.error(` does not match
    /// `mylogger.error(`), by needle; one pass over the file.
    func calls(of needles: [String]) -> [String: [Call]] {
        let patterns = needles.map { ($0, Array($0.utf8)) }
        var found: [String: [Call]] = [:]
        var index = 0
        var line = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if let end = skipCommentOrString(at: index) {
                line += bytes[index..<end].count { $0 == UInt8(ascii: "\n") }
                index = end
                continue
            }
            if index == 0 || !Self.continuesIdentifier(bytes[index - 1]) {
                for (needle, pattern) in patterns where byte == pattern[0] && bytes[index...].starts(with: pattern) {
                    let open = index + pattern.count - 1
                    found[needle, default: []].append(Call(line: line, arguments: arguments(openingAt: open)))
                }
            }
            index += 1
        }
        return found
    }

    /// The fixed parts of a string literal argument, split where an interpolation stands
    /// (`"request \(action) failed: \(why)"` → ["request ", " failed: ", ""]); nil when the
    /// argument does not start with a string literal.
    static func literalParts(_ argument: String) -> [String]? {
        scanLiteral(Array(argument.utf8))?.parts
    }

    /// A literal's fixed parts, and the code of its interpolations (which may hold literals).
    private static func scanLiteral(_ text: [UInt8]) -> (parts: [String], interpolations: [[UInt8]])? {
        var index = 0
        var hashes = 0
        while index < text.count && text[index] == UInt8(ascii: "#") {
            hashes += 1
            index += 1
        }
        guard index < text.count, text[index] == UInt8(ascii: "\"") else { return nil }
        let scanner = LogLineScanner(bytes: text)
        let quotes = text[index...].starts(with: Array("\"\"\"".utf8)) ? 3 : 1
        index += quotes
        var parts: [[UInt8]] = [[]]
        var interpolations: [[UInt8]] = []
        while index < text.count {
            if scanner.closes(at: index, quotes: quotes, hashes: hashes) { break }
            if text[index] == UInt8(ascii: "\\"), scanner.hashes(at: index + 1) >= hashes {
                let after = index + 1 + hashes
                if after < text.count && text[after] == UInt8(ascii: "(") {
                    index = scanner.skipBrackets(at: after)
                    interpolations.append(Array(text[(after + 1)..<max(after + 1, index - 1)]))
                    parts.append([])
                    continue
                }
                if after < text.count {
                    let escaped = text[after]
                    parts[parts.count - 1].append(escaped == UInt8(ascii: "n") ? UInt8(ascii: " ") : escaped)
                }
                index = after + 1
                continue
            }
            parts[parts.count - 1].append(text[index])
            index += 1
        }
        return (parts.map { String(decoding: $0, as: UTF8.self) }, interpolations)
    }

    /// Every string literal's fixed parts in code (not comments), for "does this text still exist".
    func allLiteralParts() -> [String] {
        var parts: [String] = []
        var index = 0
        while index < bytes.count {
            if let end = skipCommentOrString(at: index) {
                if let literal = Self.scanLiteral(Array(bytes[index..<end])) {
                    parts += literal.parts
                    for code in literal.interpolations { parts += LogLineScanner(bytes: code).allLiteralParts() }
                }
                index = end
            } else {
                index += 1
            }
        }
        return parts
    }

    // MARK: lexing

    private init(bytes: [UInt8]) { self.bytes = bytes }

    static func continuesIdentifier(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    private func hashes(at start: Int) -> Int {
        var index = start
        while index < bytes.count && bytes[index] == UInt8(ascii: "#") { index += 1 }
        return index - start
    }

    private func closes(at index: Int, quotes: Int, hashes: Int) -> Bool {
        guard bytes[index...].starts(with: [UInt8](repeating: UInt8(ascii: "\""), count: quotes)) else { return false }
        return self.hashes(at: index + quotes) >= hashes
    }

    /// The end (exclusive) of the comment or string literal starting at `index`, or nil.
    private func skipCommentOrString(at index: Int) -> Int? {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
            return bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        }
        if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
            var end = index + 2
            while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) {
                end += 1
            }
            return min(bytes.count, end + 2)
        }
        let hashes = byte == UInt8(ascii: "#") ? self.hashes(at: index) : 0
        guard index + hashes < bytes.count, bytes[index + hashes] == UInt8(ascii: "\"") else { return nil }
        var cursor = index + hashes
        let quotes = bytes[cursor...].starts(with: Array("\"\"\"".utf8)) ? 3 : 1
        cursor += quotes
        while cursor < bytes.count {
            if closes(at: cursor, quotes: quotes, hashes: hashes) { return cursor + quotes + hashes }
            if bytes[cursor] == UInt8(ascii: "\\") && self.hashes(at: cursor + 1) >= hashes {
                let after = cursor + 1 + hashes
                if after < bytes.count && bytes[after] == UInt8(ascii: "(") {
                    cursor = skipBrackets(at: after)
                } else {
                    cursor = after + 1
                }
                continue
            }
            cursor += 1
        }
        return bytes.count
    }

    /// The index after the bracket that closes the one at `open`.
    private func skipBrackets(at open: Int) -> Int {
        var depth = 0
        var index = open
        while index < bytes.count {
            if let end = skipCommentOrString(at: index) {
                index = end
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return bytes.count
    }

    /// The top-level arguments of the call whose "(" is at `open`, as written (trimmed).
    private func arguments(openingAt open: Int) -> [String] {
        let close = skipBrackets(at: open) - 1
        var arguments: [String] = []
        var start = open + 1
        var index = start
        while index < close {
            if let end = skipCommentOrString(at: index) {
                index = end
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                index = skipBrackets(at: index)
                continue
            case UInt8(ascii: ","):
                arguments.append(Self.trimmed(bytes[start..<index]))
                start = index + 1
            default: break
            }
            index += 1
        }
        if start < close { arguments.append(Self.trimmed(bytes[start..<close])) }
        return arguments
    }

    private static func trimmed(_ slice: ArraySlice<UInt8>) -> String {
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
        let kept = slice.drop { blank.contains($0) }.reversed().drop { blank.contains($0) }.reversed()
        return String(decoding: Array(kept), as: UTF8.self)
    }
}
