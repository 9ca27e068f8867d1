/// Character data and attribute values: entity decoding and the normalisation of
/// line ends (XML 1.0 §2.11) and attribute whitespace (§3.3.3).
extension XMLParser {
    /// The value up to the closing quote, entities decoded and whitespace normalised
    /// (XML 1.0 §3.3.3: each literal tab, LF, CR or CRLF becomes one space).
    mutating func parseAttributeValue(quote: UInt8) throws(WireError) -> String {
        let start = index
        var end = start
        var plain = true
        while end < bytes.count {
            let current = bytes[end]
            if current == quote { break }
            if current == XMLSyntax.lessThan {
                throw .malformed("XML", "< inside an attribute value")
            }
            if current == XMLSyntax.ampersand || current < 0x20 { plain = false }
            end += 1
        }
        guard end < bytes.count else {
            throw .malformed("XML", "document ends inside an attribute value")
        }
        index = end + 1
        if plain { return string(start..<end) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(end - start)
        var offset = start
        while offset < end {
            let current = bytes[offset]
            if current == XMLSyntax.ampersand {
                offset = try XMLSyntax.decodeReference(in: bytes, at: offset, end: end, into: &decoded)
                continue
            }
            offset += 1
            if current == XMLSyntax.cr, offset < end, bytes[offset] == XMLSyntax.lf { offset += 1 }
            decoded.append(XMLSyntax.isWhitespace(current) ? XMLSyntax.space : current)
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Character data up to the next `<` (XML 1.0 §2.4): references decoded, CR and CRLF
    /// turned into LF (§2.11), `]]>` refused.
    mutating func parseText(into text: inout XMLTextBuilder) throws(WireError) {
        let start = index
        var end = start
        var plain = true
        while end < bytes.count {
            let current = bytes[end]
            if current == XMLSyntax.lessThan { break }
            if current == XMLSyntax.ampersand || current == XMLSyntax.cr || current == UInt8(ascii: "]") {
                plain = false
            }
            end += 1
        }
        index = end
        if plain {
            text.append(start..<end, of: bytes)
            return
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(end - start)
        var offset = start
        while offset < end {
            let current = bytes[offset]
            switch current {
            case XMLSyntax.ampersand:
                offset = try XMLSyntax.decodeReference(in: bytes, at: offset, end: end, into: &decoded)
                continue
            case XMLSyntax.cr:
                decoded.append(XMLSyntax.lf)
                offset += 1
                if offset < end, bytes[offset] == XMLSyntax.lf { offset += 1 }
                continue
            case UInt8(ascii: "]"):
                if offset + 2 < end, bytes[offset + 1] == UInt8(ascii: "]"), bytes[offset + 2] == XMLSyntax.greaterThan
                {
                    throw .malformed("XML", "]]> in character data")
                }
            default:
                break
            }
            decoded.append(current)
            offset += 1
        }
        text.append(decoded, of: bytes)
    }

    /// `<![CDATA[…]]>` (XML 1.0 §2.7): literal text, only line ends normalised.
    mutating func parseCDATA(into text: inout XMLTextBuilder) throws(WireError) {
        let start = index + XMLSyntax.cdataStart.count
        guard let end = find(XMLSyntax.cdataEnd, from: start) else {
            throw .malformed("XML", "CDATA section is not closed")
        }
        index = end + XMLSyntax.cdataEnd.count
        guard bytes[start..<end].contains(XMLSyntax.cr) else {
            text.append(start..<end, of: bytes)
            return
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(end - start)
        var offset = start
        while offset < end {
            let current = bytes[offset]
            offset += 1
            if current == XMLSyntax.cr {
                if offset < end, bytes[offset] == XMLSyntax.lf { offset += 1 }
                decoded.append(XMLSyntax.lf)
            } else {
                decoded.append(current)
            }
        }
        text.append(decoded, of: bytes)
    }
}
