/// Percent-encoding of URI components (RFC 3986 §2.1).
///
/// Encoding keeps only the unreserved characters (RFC 3986 §2.3: `A-Z a-z 0-9 - . _ ~`) and
/// writes every other UTF-8 byte as `%XX` with uppercase hex, so `/`, `?`, `&`, `%`, space,
/// CR, LF and NUL can never change the meaning of a path or query. Roku `Lit_` keys use
/// it per character: `€` is sent as `Lit_%E2%82%AC`.
public enum PercentEncoding {
    /// Whether a byte is an RFC 3986 §2.3 unreserved character.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Encodes one path segment: everything but unreserved characters becomes `%XX`,
    /// including `/`, so the segment stays one segment (RFC 3986 §3.3).
    public static func encodePathSegment(_ string: String) -> String {
        encode(string)
    }

    /// Encodes one query name or value: the same set as a path segment, and a space becomes
    /// `%20`, never `+` (RFC 3986 has no `+` convention; `&`, `=` and `+` are encoded too).
    public static func encodeQueryComponent(_ string: String) -> String {
        encode(string)
    }

    /// `name=value&name=value` with both sides encoded by `encodeQueryComponent(_:)`,
    /// in the given order, without the leading `?`.
    public static func buildQuery(_ items: [(String, String)]) -> String {
        items.map { encodeQueryComponent($0.0) + "=" + encodeQueryComponent($0.1) }.joined(separator: "&")
    }

    /// Decodes `%XX` sequences (RFC 3986 §2.1); a `+` stays a `+`.
    ///
    /// - Throws: `WireError` `.malformed` for a `%` not followed by two hex digits, or when
    ///   the decoded bytes are not valid UTF-8.
    public static func decode(_ string: some StringProtocol) throws(WireError) -> String {
        try decode(string, plusAsSpace: false)
    }

    /// Decodes a query name or value: like `decode(_:)`, and a `+` becomes a space, as in
    /// HTML form encoding, which some clients (python's `quote_plus`) send to Roku devices.
    public static func decodeQueryComponent(_ string: some StringProtocol) throws(WireError) -> String {
        try decode(string, plusAsSpace: true)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func encode(_ string: String) -> String {
        let utf8 = string.utf8
        guard !utf8.allSatisfy(isUnreserved) else { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func decode(_ string: some StringProtocol, plusAsSpace: Bool) throws(WireError) -> String {
        let utf8 = string.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(string)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            if byte == UInt8(ascii: "%") {
                guard index < utf8.endIndex, let high = HTTPSyntax.hexValue(utf8[index]) else {
                    throw .malformed("URI", "% is not followed by two hex digits")
                }
                index = utf8.index(after: index)
                guard index < utf8.endIndex, let low = HTTPSyntax.hexValue(utf8[index]) else {
                    throw .malformed("URI", "% is not followed by two hex digits")
                }
                index = utf8.index(after: index)
                bytes.append(UInt8(high << 4 | low))
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(HTTPSyntax.space)
            } else {
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .malformed("URI", "percent-decoded bytes are not valid UTF-8")
        }
        return decoded
    }
}
