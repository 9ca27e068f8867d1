/// Byte classes, literals and reference decoding for `XMLParser` (XML 1.0 §2).
enum XMLSyntax {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let ampersand = UInt8(ascii: "&")
    static let space: UInt8 = 0x20
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    static let declarationStart: [UInt8] = Array("<?xml".utf8)
    static let processingInstructionEnd: [UInt8] = Array("?>".utf8)
    static let commentStart: [UInt8] = Array("<!--".utf8)
    static let commentEnd: [UInt8] = Array("-->".utf8)
    static let cdataStart: [UInt8] = Array("<![CDATA[".utf8)
    static let cdataEnd: [UInt8] = Array("]]>".utf8)
    static let doctypeStart: [UInt8] = Array("<!DOCTYPE".utf8)

    /// The five entities every document has (XML 1.0 §4.6).
    private static let predefinedEntities: [(name: [UInt8], byte: UInt8)] = [
        (Array("lt".utf8), lessThan), (Array("gt".utf8), greaterThan), (Array("amp".utf8), ampersand),
        (Array("apos".utf8), UInt8(ascii: "'")), (Array("quot".utf8), UInt8(ascii: "\"")),
    ]

    /// `S` (XML 1.0 §2.3): space, tab, CR, LF.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// ASCII `NameStartChar` (XML 1.0 §2.3), and any byte of a non-ASCII character.
    static func isNameStart(_ byte: UInt8) -> Bool {
        byte < 64 ? byte == UInt8(ascii: ":") : byte >= 128 || (nameBytesAbove64 >> (byte &- 64)) & 1 == 1
    }

    /// ASCII `NameChar` (XML 1.0 §2.3), and any byte of a non-ASCII character.
    static func isNameByte(_ byte: UInt8) -> Bool {
        byte < 64 ? (nameBytesBelow64 >> byte) & 1 == 1 : byte >= 128 || (nameBytesAbove64 >> (byte &- 64)) & 1 == 1
    }

    /// Bit n set when byte n is a name byte: `-` `.` `0-9` `:`.
    private static let nameBytesBelow64: UInt64 = 0b111_1111_1111 << 48 | 0b11 << 45
    /// Bit n set when byte 64 + n is a name byte: `A-Z` `_` `a-z`.
    private static let nameBytesAbove64: UInt64 = (1 << 26 - 1) << 1 | 1 << 31 | (1 << 26 - 1) << 33

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `Char` (XML 1.0 §2.2): the code points a document may contain.
    static func isCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Decodes the reference starting with `&` at `start` and appends its UTF-8 bytes:
    /// one of the five predefined entities (XML 1.0 §4.6) or a character reference
    /// `&#N;` / `&#xH;` (§4.1). Returns the offset after the `;`.
    ///
    /// - Throws: `.malformed` for an unterminated reference, an entity name that is not
    ///   predefined (no DTD is read, so no other entity exists), bad digits, or a
    ///   character that is not a `Char` (U+0000, surrogates, U+FFFE…).
    static func decodeReference(
        in bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, into output: inout [UInt8]
    ) throws(WireError) -> Int {
        var semicolon = start + 1
        while semicolon < end, bytes[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < end else {
            throw .malformed("XML", "& is not the start of a reference ending in ;")
        }
        let body = bytes[(start + 1)..<semicolon]
        guard let first = body.first else { throw .malformed("XML", "empty reference &;") }
        if first == UInt8(ascii: "#") {
            let scalar = try characterReference(body.dropFirst())
            Unicode.UTF8.encode(scalar) { output.append($0) }
            return semicolon + 1
        }
        guard let replacement = predefinedEntities.first(where: { body.elementsEqual($0.name) })?.byte else {
            throw .malformed("XML", "undefined entity &\(String(decoding: body.prefix(32), as: UTF8.self));")
        }
        output.append(replacement)
        return semicolon + 1
    }

    /// The scalar of `N` or `xH` in `&#N;` / `&#xH;`.
    private static func characterReference(_ digits: Slice<UnsafeBufferPointer<UInt8>>) throws(WireError)
        -> Unicode.Scalar
    {
        var rest = digits
        let hex = rest.first == UInt8(ascii: "x")
        if hex { rest = rest.dropFirst() }
        guard !rest.isEmpty else { throw .malformed("XML", "character reference without digits") }
        var value: UInt32 = 0
        for digit in rest {
            let digitValue: UInt32
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digitValue = UInt32(digit &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digitValue = UInt32(digit &- UInt8(ascii: "a")) &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digitValue = UInt32(digit &- UInt8(ascii: "A")) &+ 10
            default: throw .malformed("XML", "invalid digit in a character reference")
            }
            value = value &* (hex ? 16 : 10) &+ digitValue
            guard value <= 0x10FFFF else { throw .malformed("XML", "character reference beyond U+10FFFF") }
        }
        guard isCharacter(value), let scalar = Unicode.Scalar(value) else {
            throw .malformed("XML", "character reference to a character XML does not allow")
        }
        return scalar
    }
}
