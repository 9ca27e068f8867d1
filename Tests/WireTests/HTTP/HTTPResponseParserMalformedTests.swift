import TestSupport
import Testing

@testable import Wire

@Suite("HTTP response parser: malformed input and limits", .cpuBound)
struct HTTPResponseParserMalformedTests {
    private func kind(of wire: String, parser: HTTPResponseParser = HTTPResponseParser()) -> WireError.Kind? {
        do {
            _ = try decodeResponses(ascii(wire), parser: parser)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test(
        "broken status lines are refused",
        arguments: [
            ("HTTP/1.1 20 OK\r\n\r\n", WireError.Kind.malformed), ("HTTP/1.1 200OK\r\n\r\n", .malformed),
            ("HTTP/1.1 099 Low\r\n\r\n", .malformed), ("HTTP/1.1  200 OK\r\n\r\n", .malformed),
            ("http/1.1 200 OK\r\n\r\n", .malformed), ("ICY 200 OK\r\n\r\n", .malformed),
            ("HTTP/1 200 OK\r\n\r\n", .malformed), ("HTTP/2.0 200 OK\r\n\r\n", .unsupported),
            ("HTTP/0.9 200 OK\r\n\r\n", .unsupported), ("HTTP/1.2 200 OK\r\n\r\n", .unsupported),
            ("HTTP/1.1 200 O\u{0}K\r\n\r\n", .malformed), ("HTTP/1.1 200 OK\rX\r\n\r\n", .malformed),
        ])
    func statusLines(wire: String, expected: WireError.Kind) {
        #expect(kind(of: wire) == expected)
    }

    @Test(
        "broken header lines are refused",
        arguments: [
            "HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\n\tfolded\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX-Nul: a\u{0}b\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nX-CR: a\rb\r\nContent-Length: 0\r\n\r\n",
        ])
    func headerLines(wire: String) {
        #expect(kind(of: wire) == .malformed)
    }

    @Test(
        "a Content-Length that is not one decimal number is refused",
        arguments: [
            "abc", "-1", "+5", "1 2", "5, 6", "0x10", "", " ", "5,", "99999999999999999999999", "1.0",
        ])
    func badContentLength(value: String) {
        #expect(kind(of: "HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\nhello") == .malformed)
    }

    @Test("repeated Content-Length fields that disagree are refused; agreeing ones are accepted")
    func repeatedContentLength() throws {
        #expect(kind(of: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 4\r\n\r\nhello") == .malformed)
        let same = try decodeResponses(
            ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5, 5\r\n\r\nhello"))
        #expect(same.first?.body == ascii("hello"))
    }

    @Test(
        "framing that could smuggle or that we cannot decode is refused",
        arguments: [
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
                WireError.Kind.malformed
            ),
            ("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .malformed),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", .malformed),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", .malformed),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", .unsupported),
        ])
    func framing(wire: String, expected: WireError.Kind) {
        #expect(kind(of: wire) == expected)
    }

    static let chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test(
        "broken chunking is refused",
        arguments: [
            "zz\r\nhello\r\n0\r\n\r\n", "\r\nhello\r\n0\r\n\r\n", "5x\r\nhello\r\n0\r\n\r\n",
            "-5\r\nhello\r\n0\r\n\r\n", "5\r\nhelloXX0\r\n\r\n", "5\r\nhello\rX0\r\n\r\n",
            "5;ext\u{1}\r\nhello\r\n0\r\n\r\n", "5\r\nhello\r\n0\r\nbad trailer\r\n\r\n",
            "0x5\r\nhello\r\n0\r\n\r\n",
        ])
    func brokenChunks(body: String) {
        #expect(kind(of: Self.chunkedHead + body) == .malformed)
    }

    @Test("chunk extensions, leading zeros, uppercase hex and trailers are accepted")
    func chunkSyntax() throws {
        let body =
            "5;name=value;flag\r\nhello\r\n000A \r\n0123456789\r\n1 ; x=\"q\"\r\n!\r\n0;end\r\nX-Trailer: yes\r\nX-Other: 1\r\n\r\n"
        let responses = try decodeResponses(ascii(Self.chunkedHead + body))
        #expect(responses.first?.body == ascii("hello0123456789!"))
    }

    @Test("a chunk larger than the body limit fails as soon as its size line is read")
    func oversizeChunk() {
        var parser = HTTPResponseParser(maxBodyBytes: 100)
        parser.append(ascii(Self.chunkedHead + "65\r\n"))
        #expect(throws: WireError.tooLarge("HTTP", "chunk size exceeds 100 bytes")) { try parser.next() }
        var huge = HTTPResponseParser()
        huge.append(ascii(Self.chunkedHead + "FFFFFFFFFFFFFFFFFFFFFFFF\r\n"))
        #expect(throws: WireError.self) { try huge.next() }
    }

    @Test("chunks that add up past the body limit fail before the last one is buffered")
    func chunkSum() throws {
        var parser = HTTPResponseParser(maxBodyBytes: 100)
        parser.append(ascii(Self.chunkedHead + "32\r\n" + String(repeating: "a", count: 50) + "\r\n"))
        #expect(try parser.next() == nil)
        parser.append(ascii("33\r\n"))
        #expect(throws: WireError.tooLarge("HTTP", "chunked body exceeds 100 bytes")) { try parser.next() }
        var exact = HTTPResponseParser(maxBodyBytes: 100)
        exact.append(ascii(Self.chunkedHead + "32\r\n" + String(repeating: "a", count: 50) + "\r\n"))
        exact.append(ascii("32\r\n" + String(repeating: "b", count: 50) + "\r\n0\r\n\r\n"))
        #expect(try exact.next()?.body.count == 100)
    }

    @Test("a chunk-size line that never ends is refused")
    func endlessChunkLine() {
        var parser = HTTPResponseParser()
        parser.append(ascii(Self.chunkedHead + "1;" + String(repeating: "x", count: 5000)))
        #expect(throws: WireError.self) { try parser.next() }
    }

    @Test("a Content-Length above the body limit fails before the body arrives")
    func contentLengthLimit() throws {
        var parser = HTTPResponseParser(maxBodyBytes: 1 << 20)
        parser.append(ascii("HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\n"))
        #expect(throws: WireError.tooLarge("HTTP", "Content-Length 1048577 exceeds the limit of 1048576 bytes")) {
            try parser.next()
        }
        var atLimit = HTTPResponseParser(maxBodyBytes: 4)
        atLimit.append(ascii("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfour"))
        #expect(try atLimit.next()?.body == ascii("four"))
    }

    @Test("a body running to the close is bounded too")
    func closeDelimitedLimit() {
        var parser = HTTPResponseParser(maxBodyBytes: 10)
        parser.append(ascii("HTTP/1.1 200 OK\r\n\r\n0123456789"))
        #expect(throws: Never.self) { try parser.next() }
        parser.append(ascii("!"))
        #expect(throws: WireError.tooLarge("HTTP", "body exceeds 10 bytes")) { try parser.next() }
    }

    @Test("the header limit holds however the bytes arrive, and a head exactly at it passes")
    func headerLimit() throws {
        let head = "HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "p", count: 100) + "\r\nContent-Length: 0\r\n\r\n"
        let size = head.utf8.count
        #expect(try decodeResponses(ascii(head), parser: HTTPResponseParser(maxHeaderBytes: size)).count == 1)
        for cuts in [[], [size - 1], Array(1..<size)] {
            #expect(throws: WireError.tooLarge("HTTP", "header section exceeds \(size - 1) bytes")) {
                try decodeResponses(ascii(head), cuts: cuts, parser: HTTPResponseParser(maxHeaderBytes: size - 1))
            }
        }
        var endless = HTTPResponseParser()
        endless.append(ascii("HTTP/1.1 200 OK\r\nX: " + String(repeating: "y", count: 17_000)))
        #expect(throws: WireError.self) { try endless.next() }
        var blankLines = HTTPResponseParser()
        blankLines.append(Array(repeating: 0x0A, count: 17_000))
        #expect(throws: WireError.self) { try blankLines.next() }
    }
}
