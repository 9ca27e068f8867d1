import TestSupport
import Testing

@testable import Wire

/// Feeds `bytes` in pieces cut at `cuts`, collects every response, then signals the close.
func decodeResponses(
    _ bytes: [UInt8], cuts: [Int] = [], method: String = "GET", parser: HTTPResponseParser = HTTPResponseParser()
) throws(WireError) -> [HTTPResponse] {
    var parser = parser
    var responses: [HTTPResponse] = []
    var start = 0
    for cut in cuts + [bytes.count] {
        parser.append(bytes[start..<cut])
        start = cut
        while let response = try parser.next(requestMethod: method) { responses.append(response) }
    }
    while let response = try parser.finish(requestMethod: method) { responses.append(response) }
    return responses
}

func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("HTTP response parser", .cpuBound)
struct HTTPResponseParserTests {
    static let golden = ascii(
        "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=\"utf-8\"\r\nContent-Length: 5\r\n"
            + "Server: Roku/9.2.0 UPnP/1.0 Roku/9.2.0\r\n\r\nhello")

    @Test("a golden response decodes to its status, headers and body")
    func golden() throws {
        var parser = HTTPResponseParser()
        parser.append(Self.golden)
        let response = try #require(try parser.next())
        #expect(response.status == 200)
        #expect(response.reason == "OK")
        #expect(response.version == .http1_1)
        #expect(response.headers["content-type"] == "text/xml; charset=\"utf-8\"")
        #expect(response.headers.count == 3)
        #expect(response.body == ascii("hello"))
        #expect(response.isSuccess && response.keepAlive)
        #expect(try parser.next() == nil)
        #expect(try parser.finish() == nil)
    }

    @Test("nothing, or an incomplete head, is not yet a response")
    func needsMore() throws {
        var parser = HTTPResponseParser()
        #expect(try parser.next() == nil)
        parser.append(Self.golden.prefix(20))
        #expect(try parser.next() == nil)
        parser.append(Self.golden.dropFirst(20).dropLast(1))
        #expect(try parser.next() == nil)
        parser.append(Self.golden.suffix(1))
        #expect(try parser.next()?.body == ascii("hello"))
    }

    @Test("the Limited-mode 403 is an error response with its text body")
    func limitedMode() throws {
        let message = "ECP command not allowed in Limited mode."
        let wire = ascii(
            "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=\"utf-8\"\r\nContent-Length: \(message.utf8.count)\r\n\r\n"
                + message)
        let response = try #require(try decodeResponses(wire).first)
        #expect(response.status == 403 && !response.isSuccess)
        #expect(String(decoding: response.body, as: UTF8.self) == message)
    }

    @Test(
        "2xx is success, whatever the code",
        arguments: [(200, true), (202, true), (299, true), (199, false), (300, false), (404, false)])
    func success(status: Int, expected: Bool) {
        #expect(HTTPResponse(status: status).isSuccess == expected)
    }

    @Test("byte-at-a-time delivery gives the same response")
    func byteAtATime() throws {
        let responses = try decodeResponses(Self.golden, cuts: Array(1..<Self.golden.count))
        #expect(responses.count == 1)
        #expect(responses.first?.body == ascii("hello"))
    }

    @Test("pipelined responses decode one after another")
    func pipelined() throws {
        let wire = ascii(
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none"
                + "HTTP/1.1 204 No Content\r\n\r\n"
                + "HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n"
                + "\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nthree")
        for cuts in [[], [40, 41, 90], Array(1..<wire.count)] {
            let responses = try decodeResponses(wire, cuts: cuts)
            #expect(responses.map(\.status) == [200, 204, 202, 200])
            let bodies = responses.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(bodies == ["one", "", "two", "three"])
            #expect(responses.map(\.keepAlive) == [true, true, true, false])
        }
    }

    @Test("a HEAD response has no body whatever its Content-Length says")
    func head() throws {
        let wire = ascii(
            "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        let responses = try decodeResponses(wire, method: "HEAD")
        #expect(responses.count == 2)
        let noBodies = responses.allSatisfy { $0.body.isEmpty }
        #expect(noBodies)
    }

    @Test("204 and 304 have no body; 1xx interim responses are skipped")
    func noBodyStatuses() throws {
        let wire = ascii(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        let responses = try decodeResponses(wire)
        #expect(responses.map(\.status) == [204, 304, 200])
        #expect(responses.map(\.body) == [[], [], ascii("ok")])
    }

    @Test("101 Switching Protocols stops the parser and leaves the next bytes to the caller")
    func switchingProtocols() throws {
        let frame: [UInt8] = [0x81, 0x02, 0x68, 0x69]
        let wire =
            ascii(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n") + frame
        var parser = HTTPResponseParser()
        parser.append(wire)
        let response = try #require(try parser.next())
        #expect(response.status == 101 && response.body.isEmpty)
        #expect(response.headers.containsToken("upgrade", in: "Connection"))
        #expect(parser.isUpgraded)
        #expect(try parser.next() == nil)
        parser.append([0x88, 0x00])
        #expect(parser.takeRemainingBytes() == frame + [0x88, 0x00])
        #expect(parser.takeRemainingBytes().isEmpty)
    }

    @Test("a body without length runs to the close and the connection is not reused")
    func closeDelimited() throws {
        var parser = HTTPResponseParser()
        parser.append(ascii("HTTP/1.0 200 OK\r\nServer: old\r\n\r\npart one, "))
        #expect(try parser.next() == nil)
        parser.append(ascii("part two"))
        #expect(try parser.next() == nil)
        let response = try #require(try parser.finish())
        #expect(response.body == ascii("part one, part two"))
        #expect(!response.keepAlive)
        #expect(try parser.finish() == nil)
    }

    @Test(
        "keep-alive follows the version and the Connection header",
        arguments: [
            ("HTTP/1.1", "", true), ("HTTP/1.1", "Connection: close\r\n", false),
            ("HTTP/1.1", "Connection: Keep-Alive, CLOSE\r\n", false), ("HTTP/1.0", "", false),
            ("HTTP/1.0", "Connection: keep-alive\r\n", true),
        ])
    func keepAlive(version: String, header: String, expected: Bool) throws {
        let responses = try decodeResponses(ascii("\(version) 200 OK\r\n\(header)Content-Length: 0\r\n\r\n"))
        #expect(responses.map(\.keepAlive) == [expected])
    }

    @Test("bare LF line ends and a missing reason phrase are tolerated")
    func lenientLines() throws {
        let responses = try decodeResponses(ascii("HTTP/1.1 200\nContent-Length: 2\n\nokHTTP/1.1 404 \r\n\r\n"))
        #expect(responses.map(\.status) == [200, 404])
        #expect(responses.map(\.reason) == ["", ""])
        #expect(responses.first?.body == ascii("ok"))
    }

    @Test("the stream closing inside a response is an error, not a short response")
    func truncatedAtEOF() {
        let cases = [
            "HTTP/1.1 200 OK\r\nContent-Len",
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n",
        ]
        for wire in cases {
            #expect(throws: WireError.self, "\(wire)") { try decodeResponses(ascii(wire)) }
        }
    }

    @Test("only line ends left at the close are not a response")
    func blankLinesAtEOF() throws {
        #expect(try decodeResponses(ascii("HTTP/1.1 204 No Content\r\n\r\n\r\n")).count == 1)
        #expect(try decodeResponses([]).isEmpty)
    }

    @Test("a Content-Length that is too short makes the next response garbage, which is refused")
    func lengthTooShort() throws {
        var parser = HTTPResponseParser()
        parser.append(
            ascii("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nhelloHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        #expect(try parser.next()?.body == ascii("hel"))
        #expect(throws: WireError.self) { try parser.next() }
    }

    @Test("a Content-Length that is too long waits, then fails at the close")
    func lengthTooLong() throws {
        var parser = HTTPResponseParser()
        parser.append(ascii("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello"))
        #expect(try parser.next() == nil)
        #expect(throws: WireError.malformed("HTTP", "connection closed after 5 of 6 body bytes")) {
            try parser.finish()
        }
    }

    @Test("after an error the parser keeps reporting it")
    func stickyError() {
        var parser = HTTPResponseParser()
        parser.append(ascii("HTTP/1.1 2x0 OK\r\n\r\n"))
        #expect(throws: WireError.self) { try parser.next() }
        parser.append(ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        #expect(throws: WireError.self) { try parser.next() }
        #expect(throws: WireError.self) { try parser.finish() }
    }
}
