import TestSupport
import Testing

@testable import Wire

/// Feeds `bytes` in pieces cut at `cuts` and collects every request, then signals the close.
func decodeRequests(
    _ bytes: [UInt8], cuts: [Int] = [], parser: HTTPRequestParser = HTTPRequestParser()
) throws(WireError) -> [HTTPRequest] {
    var parser = parser
    var requests: [HTTPRequest] = []
    var start = 0
    for cut in cuts + [bytes.count] {
        parser.append(bytes[start..<cut])
        start = cut
        while let request = try parser.next() { requests.append(request) }
    }
    while let request = try parser.finish() { requests.append(request) }
    return requests
}

@Suite("HTTP request parser", .cpuBound)
struct HTTPRequestParserTests {
    static let keypress = ascii("POST /keypress/Home HTTP/1.1\r\nHost: 203.0.113.20:8060\r\nContent-Length: 0\r\n\r\n")

    @Test("a golden Roku keypress decodes to its parts")
    func golden() throws {
        let requests = try decodeRequests(Self.keypress)
        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.target == "/keypress/Home")
        #expect(request.version == .http1_1)
        #expect(request.headers["host"] == "203.0.113.20:8060")
        #expect(request.body.isEmpty)
        #expect(try request.pathSegments == ["keypress", "Home"])
        #expect(request.keepAlive)
    }

    @Test("requests split anywhere or byte by byte decode the same")
    func splits() throws {
        let body = ascii(#"<?xml version="1.0"?><s:Envelope><s:Body/></s:Envelope>"#)
        let wire =
            Self.keypress
            + ascii("POST /upnp/control/RenderingControl1 HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.count)\r\n\r\n")
            + body + ascii("GET /query/apps HTTP/1.1\r\nHost: h\r\n\r\n")
        let singleCuts = (1..<wire.count).map { [$0] }
        for cuts in [[]] + singleCuts + [Array(1..<wire.count)] {
            let requests = try decodeRequests(wire, cuts: cuts)
            #expect(requests.map(\.target) == ["/keypress/Home", "/upnp/control/RenderingControl1", "/query/apps"])
            #expect(requests.map(\.body) == [[], body, []])
        }
    }

    @Test("a chunked request body is decoded")
    func chunkedBody() throws {
        let wire = ascii(
            "POST /input HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        #expect(try decodeRequests(wire).first?.body == ascii("abcde"))
    }

    @Test("HTTP/1.0 may omit Host; HTTP/1.1 must send exactly one")
    func host() throws {
        #expect(try decodeRequests(ascii("GET / HTTP/1.0\r\n\r\n")).first?.keepAlive == false)
        #expect(throws: WireError.self) { try decodeRequests(ascii("GET / HTTP/1.1\r\n\r\n")) }
        #expect(throws: WireError.self) { try decodeRequests(ascii("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")) }
    }

    @Test(
        "broken request lines are refused",
        arguments: [
            ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", WireError.Kind.malformed),
            ("GET / HTTP/1.1 extra\r\nHost: h\r\n\r\n", .malformed),
            ("GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", .malformed),
            ("GET\r\nHost: h\r\n\r\n", .malformed),
            ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", .malformed),
            ("GET /\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n", .malformed),
            ("GET /€ HTTP/1.1\r\nHost: h\r\n\r\n", .malformed),
            ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupported),
            ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .unsupported),
            ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", .malformed),
            (
                "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                .malformed
            ),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", .unsupported),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", .malformed),
        ])
    func brokenRequests(wire: String, expected: WireError.Kind) {
        do {
            let requests = try decodeRequests(ascii(wire))
            Issue.record("decoded \(requests.count) requests")
        } catch {
            #expect(error.kind == expected)
        }
    }

    @Test("limits: a long head and a large body are refused before buffering")
    func limits() throws {
        var small = HTTPRequestParser(maxHeaderBytes: 64)
        small.append(ascii("GET / HTTP/1.1\r\nHost: h\r\nX-Pad: " + String(repeating: "x", count: 64)))
        #expect(throws: WireError.self) { try small.next() }
        var body = HTTPRequestParser(maxBodyBytes: 10)
        body.append(ascii("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n"))
        #expect(throws: WireError.tooLarge("HTTP", "Content-Length 11 exceeds the limit of 10 bytes")) {
            try body.next()
        }
    }

    @Test("a close inside a request is an error; a close between requests is not")
    func close() throws {
        var parser = HTTPRequestParser()
        parser.append(Self.keypress + ascii("\r\n") + Self.keypress)
        #expect(try parser.next() != nil)
        #expect(try parser.finish()?.target == "/keypress/Home")
        #expect(try parser.finish() == nil)
        for wire in ["GET / HTTP/1.1\r\nHo", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nab"] {
            #expect(throws: WireError.self) { try decodeRequests(ascii(wire)) }
        }
    }

    @Test("after an upgrade request the bytes that follow are handed over untouched")
    func upgrade() throws {
        let frame: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 0x69, 0x67, 0x6F, 0x68, 0x6E]
        var parser = HTTPRequestParser()
        parser.append(
            ascii(
                "GET /ecp-session HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: ecp-2\r\n\r\n") + frame)
        let request = try #require(try parser.next())
        #expect(request.headers.containsToken("Upgrade", in: "connection"))
        #expect(parser.takeRemainingBytes() == frame)
    }

    @Test("after an error the parser keeps reporting it")
    func sticky() {
        var parser = HTTPRequestParser()
        parser.append(ascii("BAD\r\n\r\n"))
        #expect(throws: WireError.self) { try parser.next() }
        parser.append(Self.keypress)
        #expect(throws: WireError.self) { try parser.next() }
    }
}
