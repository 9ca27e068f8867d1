import TestSupport
import Testing

@testable import Wire

@Suite("XML escaping", .cpuBound)
struct XMLEscapingTests {
    @Test("text escapes markup characters and CR; attributes also escape quotes and whitespace")
    func golden() {
        #expect(XMLEscaping.escapeText("a<b>&c]]>\"'\t\n\r") == "a&lt;b&gt;&amp;c]]&gt;\"'\t\n&#13;")
        #expect(XMLEscaping.escapeAttribute("a<b>&c\"'\t\n\r") == "a&lt;b&gt;&amp;c&quot;&apos;&#9;&#10;&#13;")
        #expect(XMLEscaping.escapeText("plain text €") == "plain text €")
    }

    @Test("characters XML cannot carry become U+FFFD")
    func unrepresentable() {
        #expect(XMLEscaping.escapeText("a\u{0}b\u{1B}c\u{FFFE}d\u{FFFF}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}")
        #expect(XMLEscaping.escapeAttribute("\u{7}") == "\u{FFFD}")
    }

    static let samples = [
        "", "plain", "<tag attr=\"v\">", "a & b", "]]>", "line\r\nbreak\rcr", "tab\there", "€ • ® 😀",
        "'single' \"double\"", "&amp; stays literal", "  spaces  ",
    ]

    @Test("escaped text and attributes parse back to the original", arguments: samples)
    func roundTrip(sample: String) throws {
        let document =
            "<r a=\"" + XMLEscaping.escapeAttribute(sample) + "\" b='" + XMLEscaping.escapeAttribute(sample) + "'>"
            + XMLEscaping.escapeText(sample) + "</r>"
        let root = try XMLReader.parse(document)
        #expect(root.text == sample)
        #expect(root.attribute("a") == sample)
        #expect(root.attribute("b") == sample)
    }
}
