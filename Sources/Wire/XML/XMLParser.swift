/// The state of one `XMLReader.parse` call: a cursor over the document's bytes.
///
/// Elements are parsed by recursive descent, one call per nesting level, so each element's
/// children and text live in locals of its own call (bounded by `XMLLimits.maxDepth`).
/// It reads through an `UnsafeBufferPointer` that lives only for the parse (see
/// `XMLReader.parse`), and every read is guarded by an explicit index check: the scanning
/// loops are the hot path. Text and attribute values without `&` or CR become strings
/// straight from the input bytes.
struct XMLParser {
    /// The recursion bound whatever the limits say: each level is a stack frame.
    static let maxSupportedDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: XMLLimits
    var index = 0
    private var elementCount = 0
    private var attributeCount = 0
    var seenDoctype = false

    init(bytes: UnsafeBufferPointer<UInt8>, limits: XMLLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// `document ::= prolog element Misc*` (XML 1.0 §2.1).
    mutating func parseDocument() throws(WireError) -> XMLElement {
        try XMLUTF8.validate(bytes)
        if hasPrefix(XMLSyntax.byteOrderMark) { index = 3 }
        if hasPrefix(XMLSyntax.declarationStart), let after = byte(at: index + 5), XMLSyntax.isWhitespace(after) {
            try parseDeclaration()
        }
        var root: XMLElement? = nil
        while index < bytes.count {
            guard bytes[index] == XMLSyntax.lessThan else {
                let start = index
                while index < bytes.count, bytes[index] != XMLSyntax.lessThan { index += 1 }
                guard bytes[start..<index].allSatisfy(XMLSyntax.isWhitespace) else {
                    throw .malformed("XML", "text outside the root element")
                }
                continue
            }
            switch byte(at: index + 1) {
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if hasPrefix(XMLSyntax.commentStart) {
                    try skipComment()
                } else if hasPrefix(XMLSyntax.doctypeStart), root == nil, !seenDoctype {
                    try skipDoctype()
                } else {
                    throw .malformed("XML", "unexpected markup outside the root element")
                }
            case UInt8(ascii: "/"):
                throw .malformed("XML", "end tag without a start tag")
            case nil:
                throw .malformed("XML", "document ends after <")
            default:
                guard root == nil else {
                    throw .malformed("XML", "a second element after the root element")
                }
                root = try parseElement(depth: 1)
            }
        }
        guard let root else { throw .malformed("XML", "document has no root element") }
        return root
    }

    /// The byte at `offset`, or `nil` past the end.
    func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    func hasPrefix(_ literal: [UInt8]) -> Bool {
        index + literal.count <= bytes.count && bytes[index..<(index + literal.count)].elementsEqual(literal)
    }

    /// The offset of the next occurrence of `literal` at or after `start`.
    func find(_ literal: [UInt8], from start: Int) -> Int? {
        guard let first = literal.first, bytes.count >= literal.count else { return nil }
        var offset = start
        while offset <= bytes.count - literal.count {
            if bytes[offset] == first && bytes[offset..<(offset + literal.count)].elementsEqual(literal) {
                return offset
            }
            offset += 1
        }
        return nil
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Skips XML whitespace (XML 1.0 §2.3 `S`) and tells whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        var offset = start
        while offset < bytes.count, XMLSyntax.isWhitespace(bytes[offset]) { offset += 1 }
        index = offset
        return offset > start
    }

    /// Reads a `Name` (XML 1.0 §2.3). Non-ASCII bytes are accepted as name characters
    /// without checking their Unicode class: the input is already known to be UTF-8.
    mutating func scanName() throws(WireError) -> Range<Int> {
        let start = index
        guard index < bytes.count, XMLSyntax.isNameStart(bytes[index]) else {
            throw .malformed("XML", "invalid or missing name at byte \(start)")
        }
        var offset = start + 1
        while offset < bytes.count, XMLSyntax.isNameByte(bytes[offset]) { offset += 1 }
        index = offset
        return start..<offset
    }

    /// An element from its `<` to the end of its end tag, children included (XML 1.0 §3).
    private mutating func parseElement(depth: Int) throws(WireError) -> XMLElement {
        index += 1
        let nameRange = try scanName()
        elementCount += 1
        guard elementCount <= limits.maxElements else {
            throw .tooLarge("XML", "more than \(limits.maxElements) elements")
        }
        guard depth <= min(limits.maxDepth, Self.maxSupportedDepth) else {
            throw .tooLarge("XML", "elements nested deeper than \(min(limits.maxDepth, Self.maxSupportedDepth))")
        }
        let (attributes, isEmpty) = try parseAttributes()
        if isEmpty { return XMLElement(name: string(nameRange), attributes: attributes) }

        var children: [XMLElement] = []
        var text = XMLTextBuilder()
        while true {
            guard index < bytes.count else {
                throw .malformed("XML", "element <\(string(nameRange))> is not closed")
            }
            guard bytes[index] == XMLSyntax.lessThan else {
                try parseText(into: &text)
                continue
            }
            switch byte(at: index + 1) {
            case UInt8(ascii: "/"):
                try parseEndTag(matching: nameRange)
                return XMLElement(
                    name: string(nameRange), attributes: attributes, children: children, text: text.build(bytes))
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if hasPrefix(XMLSyntax.commentStart) {
                    try skipComment()
                } else if hasPrefix(XMLSyntax.cdataStart) {
                    try parseCDATA(into: &text)
                } else {
                    throw .malformed("XML", "unexpected markup after <! inside an element")
                }
            case nil:
                throw .malformed("XML", "document ends after <")
            default:
                children.append(try parseElement(depth: depth + 1))
            }
        }
    }

    /// The attributes of a start tag up to its `>` or `/>` (XML 1.0 §3.1 `STag`,
    /// `EmptyElemTag`); `isEmpty` for `/>`.
    private mutating func parseAttributes() throws(WireError) -> (attributes: [XMLAttribute], isEmpty: Bool) {
        var attributes: [XMLAttribute] = []
        while true {
            let separated = skipWhitespace()
            guard let current = byte(at: index) else {
                throw .malformed("XML", "document ends inside a start tag")
            }
            if current == XMLSyntax.greaterThan {
                index += 1
                return (attributes, false)
            }
            if current == UInt8(ascii: "/") {
                guard byte(at: index + 1) == XMLSyntax.greaterThan else {
                    throw .malformed("XML", "/ not followed by > in a start tag")
                }
                index += 2
                return (attributes, true)
            }
            guard separated else {
                throw .malformed("XML", "attributes must be separated by whitespace")
            }
            attributes.append(try parseAttribute(after: attributes))
        }
    }

    /// `name = "value"` (XML 1.0 §3.1 `Attribute`), unique within its element.
    private mutating func parseAttribute(after existing: [XMLAttribute]) throws(WireError) -> XMLAttribute {
        let name = string(try scanName())
        skipWhitespace()
        guard byte(at: index) == UInt8(ascii: "=") else {
            throw .malformed("XML", "attribute \(name) has no value")
        }
        index += 1
        skipWhitespace()
        guard let quote = byte(at: index), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw .malformed("XML", "value of attribute \(name) is not quoted")
        }
        index += 1
        let value = try parseAttributeValue(quote: quote)
        guard !existing.contains(where: { $0.name == name }) else {
            throw .malformed("XML", "duplicate attribute \(name)")
        }
        attributeCount += 1
        guard attributeCount <= limits.maxAttributes, existing.count < limits.maxAttributesPerElement else {
            throw .tooLarge("XML", "too many attributes")
        }
        return XMLAttribute(name: name, value: value)
    }

    /// `</name S?>` (XML 1.0 §3.1 `ETag`), which must repeat the start tag's name.
    ///
    /// The start tag's bytes are compared in place rather than scanning a second name.
    private mutating func parseEndTag(matching open: Range<Int>) throws(WireError) {
        index += 2
        let end = index + open.count
        guard end <= bytes.count, bytes[index..<end].elementsEqual(bytes[open]),
            end == bytes.count || !XMLSyntax.isNameByte(bytes[end])
        else {
            let found = (try? scanName()).map(string) ?? ""
            throw .malformed("XML", "end tag </\(found)> does not match <\(string(open))>")
        }
        index = end
        skipWhitespace()
        guard byte(at: index) == XMLSyntax.greaterThan else {
            throw .malformed("XML", "end tag is not closed by >")
        }
        index += 1
    }
}
