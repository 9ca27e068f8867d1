import TestSupport
import Testing

@testable import Wire

@Suite("XML reader: malformed input and limits", .cpuBound)
struct XMLMalformedTests {
    static let malformedDocumentTable: [String] = [
        "", "   \n", "<?xml version=\"1.0\"?>", "<!-- only a comment -->", "<a>", "<a", "<a/", "<a x", "<a x=",
        "<a x='1",
        "<a></b>", "<a><b></a></b>", "<ab></a>", "<a></ab>", "</a>", "<a/></a>", "<a/><b/>", "<a/>text", "text<a/>",
        "<a x='1' x='2'/>", "<a x=1/>", "<a x/>", "<a x='1'y='2'/>", "<a x='<'/>", "<1a/>", "<-a/>", "< a/>",
        "<a><!-- x</a>", "<a><![CDATA[x</a>", "<a>]]></a>", "<a>\u{1}</a>", "<a>\u{0}</a>", "<a>&unknown;</a>",
        "<a>&lt</a>", "<a>& amp;</a>", "<a>&;</a>", "<a>&#;</a>", "<a>&#x;</a>", "<a>&#0;</a>", "<a>&#xD800;</a>",
        "<a>&#xDFFF;</a>", "<a>&#x110000;</a>", "<a>&#99999999999999999999;</a>", "<a>&#1;</a>", "<a>&#xFFFE;</a>",
        "<a>&#12a;</a>", "<a>&#xG;</a>", "<a>&#X41;</a>", "<a x='&bad;'/>", "<!DOCTYPE a><!DOCTYPE a><a/>",
        "<a><!DOCTYPE a></a>",
        "<a/><!DOCTYPE a>", "<a/><?xml version='1.0'?>", " <?xml version='1.0'?><a/>", "<a><?xml x?></a>",
        "<a><!ELEMENT a></a>", "<![CDATA[x]]><a/>", "<a></a><![CDATA[x]]>", "<a><?pi</a>", "<!DOCTYPE a",
        "<a></a", "<a></a x>", "<?xml version='1.0' encoding=utf-8?><a/>", "<a>\u{FFFF}</a>",
    ]

    @Test("malformed documents are refused", arguments: malformedDocumentTable)
    func malformedDocuments(document: String) {
        #expect(throws: WireError.self) { try XMLReader.parse(document) }
        do {
            _ = try XMLReader.parse(document)
        } catch {
            #expect(error.kind == .malformed && error.proto == "XML")
        }
    }

    static let invalidSequences: [[UInt8]] = [
        [0xFF], [0xC3], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xC3, 0x28],
    ]

    @Test("invalid UTF-8 anywhere is refused, even in a comment", arguments: invalidSequences)
    func invalidUTF8(sequence: [UInt8]) {
        for document in [
            Array("<a>".utf8) + sequence + Array("</a>".utf8), Array("<a/><!--".utf8) + sequence + Array("-->".utf8),
        ] {
            #expect(throws: WireError.self) { try XMLReader.parse(document) }
        }
    }

    @Test("a DTD internal subset is unsupported, so a billion-laughs document costs nothing")
    func billionLaughs() {
        var document = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            document += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        document += "]>\n<lolz>&lol9;</lolz>"
        #expect(
            throws: WireError.unsupported("XML", "DTD internal subsets are not supported (entities are never expanded)")
        ) {
            try XMLReader.parse(document)
        }
        #expect(throws: WireError.malformed("XML", "undefined entity &lol9;")) {
            try XMLReader.parse("<lolz>&lol9;</lolz>")
        }
    }

    @Test("nesting is limited to 64 levels by default")
    func depth() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        #expect(try XMLReader.parse(nested(64)).children.count == 1)
        #expect(throws: WireError.tooLarge("XML", "elements nested deeper than 64")) { try XMLReader.parse(nested(65)) }
        #expect(throws: WireError.self) { try XMLReader.parse(String(repeating: "<a>", count: 100_000)) }
        #expect(throws: WireError.self) { try XMLReader.parse(String(repeating: "<a>", count: 64) + "<b/>") }
    }

    @Test("a depth limit above the parser's own bound is capped, never a stack overflow")
    func depthCap() {
        let limits = XMLLimits(maxDepth: 1_000_000)
        let document = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(throws: WireError.tooLarge("XML", "elements nested deeper than 256")) {
            try XMLReader.parse(document, limits: limits)
        }
    }

    @Test("element, attribute and size limits are enforced")
    func limits() throws {
        let elements = "<r>" + String(repeating: "<e/>", count: 10) + "</r>"
        #expect(try XMLReader.parse(elements, limits: XMLLimits(maxElements: 11)).children.count == 10)
        #expect(throws: WireError.tooLarge("XML", "more than 10 elements")) {
            try XMLReader.parse(elements, limits: XMLLimits(maxElements: 10))
        }
        let attributes = "<r a='1' b='2'><e c='3'/></r>"
        #expect(try XMLReader.parse(attributes, limits: XMLLimits(maxAttributes: 3)).attributes.count == 2)
        #expect(throws: WireError.tooLarge("XML", "too many attributes")) {
            try XMLReader.parse(attributes, limits: XMLLimits(maxAttributes: 2))
        }
        #expect(throws: WireError.tooLarge("XML", "too many attributes")) {
            try XMLReader.parse(attributes, limits: XMLLimits(maxAttributesPerElement: 1))
        }
        let big = Array(("<r>" + String(repeating: "x", count: 100) + "</r>").utf8)
        #expect(throws: WireError.tooLarge("XML", "document exceeds 100 bytes")) {
            try XMLReader.parse(big, limits: XMLLimits(maxInputBytes: 100))
        }
        #expect(throws: WireError.tooLarge("XML", "document exceeds 100 bytes")) {
            try XMLReader.parse(big[...], limits: XMLLimits(maxInputBytes: 100))
        }
        #expect(try XMLReader.parse(big, limits: XMLLimits(maxInputBytes: big.count)).text.count == 100)
    }
}
