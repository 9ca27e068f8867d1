import TestSupport
import Testing

@testable import Wire

@Suite("HTTP request encoding and targets", .cpuBound)
struct HTTPRequestTests {
    static let host: HTTPHeaders = ["Host": "203.0.113.20:8060"]

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    @Test("a Roku device-info query encodes to the golden bytes")
    func goldenGet() throws {
        let request = HTTPRequest(method: "GET", target: "/query/device-info", headers: Self.host)
        #expect(text(try request.encode()) == "GET /query/device-info HTTP/1.1\r\nHost: 203.0.113.20:8060\r\n\r\n")
    }

    @Test("a POST without a body carries Content-Length: 0, as Roku expects")
    func goldenKeypress() throws {
        let request = HTTPRequest(method: "POST", target: "/keypress/Home", headers: Self.host)
        #expect(
            text(try request.encode())
                == "POST /keypress/Home HTTP/1.1\r\nHost: 203.0.113.20:8060\r\nContent-Length: 0\r\n\r\n")
        for method in ["PUT", "PATCH"] {
            let bytes = try HTTPRequest(method: method, target: "/", headers: Self.host).encode()
            #expect(text(bytes).contains("Content-Length: 0\r\n"))
        }
    }

    @Test("a launch with a built query keeps the encoded target as given")
    func goldenLaunch() throws {
        let target = "/launch/12?" + PercentEncoding.buildQuery([("contentId", "80057281 s1"), ("mediaType", "movie")])
        let request = HTTPRequest(method: "POST", target: target, headers: Self.host)
        #expect(
            text(try request.encode())
                == "POST /launch/12?contentId=80057281%20s1&mediaType=movie HTTP/1.1\r\n"
                + "Host: 203.0.113.20:8060\r\nContent-Length: 0\r\n\r\n")
    }

    @Test("a SOAP call sends its headers in order, then the length and the body")
    func goldenSOAP() throws {
        let body = Array(#"<?xml version="1.0"?><s:Envelope/>"#.utf8)
        let request = HTTPRequest(
            method: "POST", target: "/upnp/control/RenderingControl1",
            headers: [
                "Host": "192.0.2.5:9197", "Content-Type": "text/xml; charset=\"utf-8\"",
                "SOAPAction": "\"urn:schemas-upnp-org:service:RenderingControl:1#GetVolume\"",
            ],
            body: body)
        let expected =
            "POST /upnp/control/RenderingControl1 HTTP/1.1\r\nHost: 192.0.2.5:9197\r\n"
            + "Content-Type: text/xml; charset=\"utf-8\"\r\n"
            + "SOAPAction: \"urn:schemas-upnp-org:service:RenderingControl:1#GetVolume\"\r\n"
            + "Content-Length: 34\r\n\r\n" + #"<?xml version="1.0"?><s:Envelope/>"#
        #expect(text(try request.encode()) == expected)
    }

    @Test("a GET with a body gets a length; a caller's correct length is not repeated")
    func lengths() throws {
        let get = try HTTPRequest(method: "GET", target: "/", headers: Self.host, body: [1, 2]).encode()
        #expect(text(get).hasSuffix("Content-Length: 2\r\n\r\n\u{1}\u{2}"))
        var headers = Self.host
        headers.add(name: "content-length", value: "2")
        let given = try HTTPRequest(method: "POST", target: "/", headers: headers, body: [1, 2]).encode()
        #expect(text(given) == "POST / HTTP/1.1\r\nHost: 203.0.113.20:8060\r\ncontent-length: 2\r\n\r\n\u{1}\u{2}")
    }

    @Test("a caller's wrong Content-Length is refused")
    func wrongLength() {
        var headers = Self.host
        headers.add(name: "Content-Length", value: "3")
        #expect(throws: WireError.self) {
            try HTTPRequest(method: "POST", target: "/", headers: headers, body: [1, 2]).encode()
        }
    }

    static let injections: [HTTPRequest] = [
        HTTPRequest(method: "GET /x", target: "/", headers: host),
        HTTPRequest(method: "", target: "/", headers: host),
        HTTPRequest(method: "GET", target: "", headers: host),
        HTTPRequest(method: "GET", target: "/a b", headers: host),
        HTTPRequest(method: "GET", target: "/a\r\nX: y", headers: host),
        HTTPRequest(method: "GET", target: "/a\nb", headers: host),
        HTTPRequest(method: "GET", target: "/a\u{0}", headers: host),
        HTTPRequest(method: "GET", target: "/€", headers: host),
        HTTPRequest(method: "GET", target: "/", headers: ["Host": "a\r\nX-Evil: 1"]),
        HTTPRequest(method: "GET", target: "/", headers: ["Host": "a", "X\r\nEvil": "1"]),
        HTTPRequest(method: "GET", target: "/", headers: ["Host": "a", "X": "nul\u{0}"]),
        HTTPRequest(method: "GET", target: "/", headers: ["Accept": "*/*"]),
    ]

    @Test("injection attempts and a missing Host are refused by encode", arguments: injections)
    func injection(request: HTTPRequest) {
        #expect(throws: WireError.self) { try request.encode() }
    }

    @Test("a chunked request body is unsupported")
    func chunkedRequest() {
        let request = HTTPRequest(
            method: "POST", target: "/", headers: ["Host": "a", "Transfer-Encoding": "chunked"], body: [1])
        #expect(throws: WireError.unsupported("HTTP", "requests are sent with Content-Length, not Transfer-Encoding")) {
            try request.encode()
        }
    }

    @Test("an encoded request parses back to itself")
    func roundTrip() throws {
        let request = HTTPRequest(
            method: "POST", target: "/input?a=1", headers: ["Host": "h", "X-Multi": "1", "x-multi": "2"],
            body: Array("payload".utf8))
        var parser = HTTPRequestParser()
        parser.append(try request.encode())
        let decoded = try #require(try parser.next())
        var expected = request
        expected.headers.add(name: "Content-Length", value: "7")
        #expect(decoded == expected)
    }

    @Test("the target splits into an encoded path, decoded segments and query items")
    func targetParts() throws {
        let request = HTTPRequest(
            method: "POST", target: "/keypress/Lit_%E2%82%AC?contentId=a%20b+c&flag&x=1=2&&y=", headers: Self.host)
        #expect(request.path == "/keypress/Lit_%E2%82%AC")
        #expect(try request.pathSegments == ["keypress", "Lit_€"])
        #expect(request.query == "contentId=a%20b+c&flag&x=1=2&&y=")
        let items = try request.queryItems
        #expect(items.map(\.name) == ["contentId", "flag", "x", "y"])
        #expect(items.map(\.value) == ["a b c", "", "1=2", ""])
    }

    @Test("an encoded slash stays inside its segment")
    func encodedSlash() throws {
        let request = HTTPRequest(method: "POST", target: "/keypress/Lit_%2F", headers: Self.host)
        #expect(try request.pathSegments == ["keypress", "Lit_/"])
        #expect(try request.queryItems.isEmpty)
        #expect(request.query == nil)
    }

    @Test("absolute-form and fragment targets still give the path")
    func otherForms() throws {
        #expect(HTTPRequest(method: "GET", target: "http://192.0.2.2:8060/query/apps?x=1").path == "/query/apps")
        #expect(HTTPRequest(method: "GET", target: "http://192.0.2.2:8060").path == "/")
        #expect(HTTPRequest(method: "GET", target: "/a#frag").path == "/a")
        #expect(HTTPRequest(method: "GET", target: "/a?q=1#frag").query == "q=1")
        #expect(try HTTPRequest(method: "GET", target: "/").pathSegments == [])
    }

    @Test("broken escapes in the target are reported, not trapped")
    func brokenEscapes() {
        #expect(throws: WireError.self) { try HTTPRequest(method: "GET", target: "/a%zz").pathSegments }
        #expect(throws: WireError.self) { try HTTPRequest(method: "GET", target: "/a?x=%FF").queryItems }
    }
}
