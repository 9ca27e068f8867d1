/// The markup `XMLParser` skips: the XML declaration, comments, processing instructions
/// and the document type declaration.
extension XMLParser {
    /// `<?xml version="1.0" encoding="…"?>` at the very start (XML 1.0 §2.8). Only UTF-8
    /// (and its subset ASCII) is read; another declared encoding would be misread.
    mutating func parseDeclaration() throws(WireError) {
        let start = index + XMLSyntax.declarationStart.count
        guard let end = find(XMLSyntax.processingInstructionEnd, from: start) else {
            throw .malformed("XML", "XML declaration is not closed")
        }
        index = end + XMLSyntax.processingInstructionEnd.count
        let content = bytes[start..<end]
        guard let key = XMLParser.firstRange(of: Array("encoding".utf8), in: content) else { return }
        var offset = key.upperBound
        while offset < end, XMLSyntax.isWhitespace(bytes[offset]) { offset += 1 }
        guard offset < end, bytes[offset] == UInt8(ascii: "=") else {
            throw .malformed("XML", "invalid encoding in the XML declaration")
        }
        offset += 1
        while offset < end, XMLSyntax.isWhitespace(bytes[offset]) { offset += 1 }
        guard offset < end, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'") else {
            throw .malformed("XML", "invalid encoding in the XML declaration")
        }
        let quote = bytes[offset]
        let valueStart = offset + 1
        guard let valueEnd = bytes[valueStart..<end].firstIndex(of: quote) else {
            throw .malformed("XML", "invalid encoding in the XML declaration")
        }
        let value = String(decoding: bytes[valueStart..<valueEnd].map(XMLSyntax.lowercased), as: UTF8.self)
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(value) else {
            throw .unsupported("XML", "encoding \(value) is not supported; only UTF-8 is read")
        }
    }

    /// `<?target …?>` (XML 1.0 §2.6). The target `xml` is reserved for the declaration,
    /// which may only come first.
    mutating func skipProcessingInstruction() throws(WireError) {
        index += 2
        let target = try scanName()
        if bytes[target].map(XMLSyntax.lowercased).elementsEqual("xml".utf8) {
            throw .malformed("XML", "XML declaration is not at the start of the document")
        }
        guard let end = find(XMLSyntax.processingInstructionEnd, from: target.upperBound) else {
            throw .malformed("XML", "processing instruction is not closed")
        }
        index = end + XMLSyntax.processingInstructionEnd.count
    }

    /// `<!-- … -->` (XML 1.0 §2.5). A `--` inside is tolerated: refusing it would reject a
    /// device's answer over a comment nobody reads.
    mutating func skipComment() throws(WireError) {
        guard let end = find(XMLSyntax.commentEnd, from: index + XMLSyntax.commentStart.count) else {
            throw .malformed("XML", "comment is not closed")
        }
        index = end + XMLSyntax.commentEnd.count
    }

    /// `<!DOCTYPE name ExternalID? >` (XML 1.0 §2.8), skipped. An internal subset
    /// (`[ … ]`) is refused rather than read: entity declarations are never expanded.
    mutating func skipDoctype() throws(WireError) {
        seenDoctype = true
        index += XMLSyntax.doctypeStart.count
        var quote: UInt8? = nil
        while index < bytes.count {
            let current = bytes[index]
            index += 1
            if let open = quote {
                if current == open { quote = nil }
            } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                quote = current
            } else if current == UInt8(ascii: "[") {
                throw .unsupported("XML", "DTD internal subsets are not supported (entities are never expanded)")
            } else if current == XMLSyntax.greaterThan {
                return
            }
        }
        throw .malformed("XML", "DOCTYPE is not closed")
    }

    static func firstRange(of literal: [UInt8], in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Range<Int>? {
        guard bytes.count >= literal.count else { return nil }
        var offset = bytes.startIndex
        while offset + literal.count <= bytes.endIndex {
            if bytes[offset..<(offset + literal.count)].elementsEqual(literal) {
                return offset..<(offset + literal.count)
            }
            offset += 1
        }
        return nil
    }
}
