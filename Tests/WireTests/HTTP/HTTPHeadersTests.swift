import TestSupport
import Testing

@testable import Wire

@Suite("HTTP headers", .cpuBound)
struct HTTPHeadersTests {
    @Test("lookup ignores case and returns the first value")
    func caseInsensitiveLookup() {
        let headers: HTTPHeaders = ["Content-Type": "text/xml", "X-Dup": "one", "x-dup": "two"]
        #expect(headers["content-type"] == "text/xml")
        #expect(headers["CONTENT-TYPE"] == "text/xml")
        #expect(headers["X-DUP"] == "one")
        #expect(headers.values(for: "x-Dup") == ["one", "two"])
        #expect(headers.contains("x-dup"))
        #expect(!headers.contains("Content-Length"))
        #expect(headers["Missing"] == nil)
        #expect(headers.count == 3)
    }

    @Test("add keeps order; set replaces every value in place; remove drops them all")
    func mutation() {
        var headers = HTTPHeaders()
        headers.add(name: "A", value: "1")
        headers.add(name: "B", value: "2")
        headers.add(name: "a", value: "3")
        #expect(headers.map(\.name) == ["A", "B", "a"])
        headers.set(name: "A", value: "9")
        #expect(headers.map(\.value) == ["9", "2"])
        headers.set(name: "C", value: "new")
        #expect(headers.map(\.name) == ["A", "B", "C"])
        headers.remove(name: "b")
        #expect(headers.map(\.name) == ["A", "C"])
        headers["c"] = nil
        headers["D"] = "4"
        #expect(headers == ["A": "9", "D": "4"])
    }

    @Test("comma-separated tokens match whole elements, ignoring case and spaces")
    func tokens() {
        let headers: HTTPHeaders = ["Connection": "keep-alive, Upgrade", "Upgrade": "websocket"]
        #expect(headers.containsToken("upgrade", in: "connection"))
        #expect(headers.containsToken("KEEP-ALIVE", in: "Connection"))
        #expect(!headers.containsToken("close", in: "Connection"))
        #expect(!headers.containsToken("upgrad", in: "Connection"))
        let split: HTTPHeaders = ["Connection": "keep-alive", "connection": " ,close ,"]
        #expect(split.containsToken("close", in: "Connection"))
    }

    @Test("equality compares names without case, values and order exactly")
    func equality() {
        #expect(HTTPHeaders([("Host", "a")]) == HTTPHeaders([("host", "a")]))
        #expect(HTTPHeaders([("Host", "a")]) != HTTPHeaders([("Host", "A")]))
        #expect(HTTPHeaders([("A", "1"), ("B", "2")]) != HTTPHeaders([("B", "2"), ("A", "1")]))
    }

    @Test(
        "validation refuses names that are not tokens",
        arguments: ["", "Bad Name", "X\r\nEvil", "Colon:", "Ünicode", "(paren)", "Tab\t"])
    func invalidNames(name: String) {
        #expect(throws: WireError.self) { try HTTPHeaders([(name, "v")]).validate() }
    }

    @Test(
        "validation refuses values that could inject lines or hide bytes",
        arguments: ["a\r\nInjected: 1", "a\rb", "a\nb", "nul\u{0}", "bell\u{7}", "del\u{7F}"])
    func invalidValues(value: String) {
        #expect(throws: WireError.self) { try HTTPHeaders([("X", value)]).validate() }
    }

    @Test("validation accepts tabs, spaces, quotes and non-ASCII text in values")
    func validValues() throws {
        try HTTPHeaders([
            ("SOAPAction", "\"urn:schemas-upnp-org:service:RenderingControl:1#GetVolume\""),
            ("X-Name", "Hisense•Roku TV\twith tab"), ("Empty", ""),
        ]).validate()
    }
}
