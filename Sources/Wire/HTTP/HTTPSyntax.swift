/// Byte classes and small scanners shared by the HTTP/1.1 encoder and parsers.
///
/// Everything works on UTF-8 bytes so that parsing never iterates `Character`s.
enum HTTPSyntax {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let crlf: [UInt8] = [0x0D, 0x0A]

    /// `tchar` of RFC 9110 §5.6.2: the characters allowed in methods, field names and codings.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A non-empty run of `tchar` (RFC 9110 §5.6.2 `token`).
    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }

    /// `field-vchar` plus the spaces allowed inside a field value (RFC 9110 §5.5): every byte
    /// except the controls. CR, LF and NUL are what header injection needs; the other
    /// controls are refused as well so that what we encode our own parser accepts.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> Int? { HexDigits.value(byte).map(Int.init) }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// ASCII case-insensitive equality, as field names and tokens compare (RFC 9110 §5.1).
    static func equalsIgnoringCase(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { lowercased($0) == lowercased($1) }
    }

    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        equalsIgnoringCase(a.utf8, b.utf8)
    }

    /// The slice without leading and trailing spaces and tabs (RFC 9110 §5.6.3 `OWS`).
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// Splits a comma-separated list value (RFC 9110 §5.6.1), trimming each element and
    /// dropping empty ones, as the list grammar allows.
    static func listElements(_ value: String) -> [Substring] {
        value.split(separator: ",").compactMap { element in
            let trimmedElement = element.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            var end = trimmedElement.endIndex
            while end > trimmedElement.startIndex {
                let before = trimmedElement.index(before: end)
                guard trimmedElement[before] == " " || trimmedElement[before] == "\t" else { break }
                end = before
            }
            let result = trimmedElement[..<end]
            return result.isEmpty ? nil : Substring(result)
        }
    }

    /// Appends the decimal digits of a non-negative integer.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
