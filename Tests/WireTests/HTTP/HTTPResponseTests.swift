import TestSupport
import Testing

@testable import Wire

@Suite("HTTP response encoding", .cpuBound)
struct HTTPResponseTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("a simulator response encodes to the golden bytes with a length")
    func golden() throws {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/xml"], body: ascii("<a/>"))
        #expect(
            text(try response.encode()) == "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 4\r\n\r\n<a/>")
        #expect(text(try HTTPResponse(status: 202).encode()) == "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
    }

    @Test("chunked framing is used when the headers ask for it")
    func goldenChunked() throws {
        let response = HTTPResponse(
            status: 200, headers: ["Transfer-Encoding": "chunked"], body: Array(repeating: 0x61, count: 26))
        #expect(
            text(try response.encode())
                == "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1A\r\n" + String(repeating: "a", count: 26)
                + "\r\n0\r\n\r\n")
        let empty = HTTPResponse(status: 200, headers: ["Transfer-Encoding": "chunked"])
        #expect(text(try empty.encode()) == "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    }

    @Test("101, 204 and 304 carry no length and no body")
    func bodiless() throws {
        let upgrade = HTTPResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        #expect(
            text(try upgrade.encode())
                == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
        #expect(text(try HTTPResponse(status: 204).encode()) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(text(try HTTPResponse(status: 304).encode()) == "HTTP/1.1 304 Not Modified\r\n\r\n")
    }

    static let refused: [HTTPResponse] = [
        HTTPResponse(status: 99),
        HTTPResponse(status: 1000),
        HTTPResponse(status: 200, reason: "OK\r\nX-Evil: 1"),
        HTTPResponse(status: 200, headers: ["X\nY": "1"]),
        HTTPResponse(status: 200, headers: ["X": "a\r\n\r\n<html>"]),
        HTTPResponse(status: 204, body: [1]),
        HTTPResponse(status: 101, body: [1]),
        HTTPResponse(status: 200, headers: ["Content-Length": "3"], body: [1]),
        HTTPResponse(status: 200, headers: ["Content-Length": "1", "Transfer-Encoding": "chunked"], body: [1]),
        HTTPResponse(status: 200, headers: ["Transfer-Encoding": "gzip"], body: [1]),
        // Found by Tests/Fuzz (http-response): chunked HTTP/1.0 was encoded, which the parser
        // (rightly, RFC 9112 §6.1) refuses.
        HTTPResponse(status: 200, version: .http1_0, headers: ["Transfer-Encoding": "chunked"]),
    ]

    @Test("inconsistent or injected responses are refused by encode", arguments: refused)
    func refusedResponses(response: HTTPResponse) {
        #expect(throws: WireError.self) { try response.encode() }
    }

    @Test("an encoded response parses back to itself")
    func roundTrip() throws {
        let response = HTTPResponse(
            status: 403, reason: "Forbidden", headers: ["Content-Type": "text/plain", "Content-Length": "2"],
            body: ascii("no"))
        #expect(try decodeResponses(try response.encode()) == [response])
        let old = HTTPResponse(status: 200, version: .http1_0, headers: ["Connection": "keep-alive"])
        var expected = old
        expected.headers.add(name: "Content-Length", value: "0")
        #expect(try decodeResponses(try old.encode()) == [expected])
    }
}
