import TestSupport
import Testing

@testable import Wire

@Suite("XML reader syntax", .cpuBound)
struct XMLReaderTests {
    @Test("the five predefined entities and character references are decoded")
    func entities() throws {
        let root = try XMLReader.parse("<a b=\"&lt;&gt;&amp;&apos;&quot;&#65;&#x42;\">&lt;&gt;&amp;&apos;&quot;</a>")
        #expect(root.text == "<>&'\"")
        #expect(root.attribute("b") == "<>&'\"AB")
        let refs = try XMLReader.parse("<a>&#65;&#x42;&#x43;&#0065;&#x20AC;&#128512;&#x10FFFF;&#9;</a>")
        #expect(refs.text.unicodeScalars.map(\.value) == [65, 66, 67, 65, 0x20AC, 128_512, 0x10FFFF, 9])
    }

    @Test("a CDATA section is literal text and joins the surrounding text")
    func cdata() throws {
        let root = try XMLReader.parse("<a>x<![CDATA[<b>&amp;</b>]]]>y<![CDATA[]]></a>")
        #expect(root.text == "x<b>&amp;</b>]y")
        #expect(root.children.isEmpty)
    }

    @Test("comments and processing instructions are skipped wherever they may appear")
    func commentsAndInstructions() throws {
        let document = """
            <?xml version="1.0"?>
            <!-- before --><?app data?>
            <root><!-- inside -->one<?pi x?>two<!-- a -- tolerated --></root>
            <!-- after --><?after?>

            """
        let root = try XMLReader.parse(document)
        #expect(root.name == "root")
        #expect(root.text == "onetwo")
    }

    @Test("a DOCTYPE without an internal subset is skipped")
    func doctype() throws {
        let root = try XMLReader.parse(#"<!DOCTYPE root SYSTEM "urn:x>y" ><root/>"#)
        #expect(root.name == "root")
        #expect(try XMLReader.parse("<!DOCTYPE html><html/>").name == "html")
    }

    @Test("a UTF-8 byte order mark and declared UTF-8 or ASCII are accepted")
    func bomAndEncoding() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try XMLReader.parse(bom + Array("<a/>".utf8)).name == "a")
        #expect(try XMLReader.parse(bom + Array("<?xml version='1.0' encoding='utf-8'?><a/>".utf8)).name == "a")
        #expect(
            try XMLReader.parse("<?xml version=\"1.0\" encoding = \"US-ASCII\" standalone=\"yes\" ?>\n<a/>").name == "a"
        )
        #expect(try XMLReader.parse("<?xml version=\"1.0\"?><a/>").name == "a")
    }

    @Test("another declared encoding is unsupported")
    func otherEncoding() {
        #expect(throws: WireError.unsupported("XML", "encoding iso-8859-1 is not supported; only UTF-8 is read")) {
            try XMLReader.parse("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>")
        }
    }

    @Test("self-closing tags, both quote styles and whitespace inside tags")
    func tagSyntax() throws {
        let root = try XMLReader.parse("<a\n  x = 'it\"s'\ty=\"it's\"\r\n><b/><c\n/><d></d\n></a  >")
        #expect(root.attribute("x") == "it\"s")
        #expect(root.attribute("y") == "it's")
        #expect(root.children.map(\.name) == ["b", "c", "d"])
        let allEmpty = root.children.allSatisfy { $0.text.isEmpty && $0.children.isEmpty }
        #expect(allEmpty)
    }

    @Test("mixed content: text holds only the element's own segments, in order")
    func mixedContent() throws {
        let root = try XMLReader.parse("<a>one<b>inner</b>two<c/>three</a>")
        #expect(root.text == "onetwothree")
        #expect(root.firstChild(named: "b")?.text == "inner")
    }

    @Test("line ends become LF in text; literal whitespace becomes spaces in attributes")
    func normalisation() throws {
        let root = try XMLReader.parse("<a v=\"1\t2\n3\r\n4\r5&#10;6&#13;\">x\r\ny\rz&#13;<![CDATA[\r\n]]></a>")
        #expect(root.text == "x\ny\nz\r\n")
        #expect(root.attribute("v") == "1 2 3 4 5\n6\r")
    }

    @Test("prefixed names are found by local name, as in a SOAP answer")
    func namespaces() throws {
        let envelope = try XMLReader.parse(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
            <s:Body><u:GetVolumeResponse xmlns:u="urn:schemas-upnp-org:service:RenderingControl:1">
            <CurrentVolume>25</CurrentVolume></u:GetVolumeResponse></s:Body></s:Envelope>
            """)
        #expect(envelope.localName == "Envelope")
        #expect(envelope.attribute("xmlns:s") == "http://schemas.xmlsoap.org/soap/envelope/")
        let body = try #require(envelope.firstChild(localName: "Body"))
        #expect(body.name == "s:Body")
        let response = try #require(envelope.firstDescendant(localName: "GetVolumeResponse"))
        #expect(response.name == "u:GetVolumeResponse")
        #expect(response.childText("CurrentVolume") == "25")
        #expect(envelope.firstDescendant(localName: "CurrentVolume")?.text == "25")
        #expect(envelope.firstDescendant(localName: "Missing") == nil)
    }

    @Test("helpers find children by exact name and trim text")
    func helpers() throws {
        let root = try XMLReader.parse("<r><x>1</x><y> two\n</y><x>3</x></r>")
        #expect(root.children(named: "x").map(\.text) == ["1", "3"])
        #expect(root.firstChild(named: "y")?.text == " two\n")
        #expect(root.childText("y") == "two")
        #expect(root.firstChild(named: "X") == nil)
        #expect(root.attribute("x") == nil)
        #expect(XMLElement(name: "p:q").localName == "q")
    }

    @Test("non-ASCII names and text survive")
    func unicode() throws {
        let root = try XMLReader.parse("<données clé=\"é\">€ 😀</données>")
        #expect(root.name == "données")
        #expect(root.attribute("clé") == "é")
        #expect(root.text == "€ 😀")
    }
}
