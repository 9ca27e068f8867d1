import TestSupport
import Testing

@testable import Wire

@Suite("HTTP carrying the Roku fixtures", .cpuBound)
struct HTTPFixtureTransportTests {
    static let headers: HTTPHeaders = [
        "Content-Type": "text/xml; charset=\"utf-8\"", "Server": "Roku/9.2.0 UPnP/1.0 Roku/9.2.0",
    ]

    /// The fixture framed as Roku would, with a length.
    static func withLength(_ body: [UInt8]) throws -> [UInt8] {
        try HTTPResponse(status: 200, headers: headers, body: body).encode()
    }

    /// The fixture framed in chunks of 61 bytes, with an extension on one chunk and a trailer.
    static func chunked(_ body: [UInt8]) -> [UInt8] {
        var wire = ascii("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n")
        var start = 0
        while start < body.count {
            let end = min(start + 61, body.count)
            wire += ascii(String(end - start, radix: 16) + (start == 0 ? ";first=1" : "") + "\r\n")
            wire += body[start..<end]
            wire += ascii("\r\n")
            start = end
        }
        return wire + ascii("0\r\nX-Checksum: none\r\n\r\n")
    }

    @Test(
        "every fixture arrives whole with Content-Length, split at every byte boundary",
        arguments: HTTPXMLFixtures.rokuXML)
    func contentLengthSplits(name: String) throws {
        let body = HTTPXMLFixtures.roku(name)
        let wire = try Self.withLength(body)
        for cut in 0...wire.count {
            let responses = try decodeResponses(wire, cuts: [cut])
            #expect(responses.count == 1 && responses[0].body == body, "cut at \(cut)")
        }
        #expect(try XMLReader.parse(try decodeResponses(wire)[0].body).name.isEmpty == false)
    }

    @Test("every fixture arrives whole when chunked, split at every byte boundary", arguments: HTTPXMLFixtures.rokuXML)
    func chunkedSplits(name: String) throws {
        let body = HTTPXMLFixtures.roku(name)
        let wire = Self.chunked(body)
        for cut in 0...wire.count {
            let responses = try decodeResponses(wire, cuts: [cut])
            #expect(responses.count == 1 && responses[0].body == body, "cut at \(cut)")
        }
    }

    @Test("the largest fixture survives byte-at-a-time delivery in both framings")
    func byteAtATime() throws {
        let body = HTTPXMLFixtures.roku("device-info-7820x.xml")
        for wire in [try Self.withLength(body), Self.chunked(body)] {
            let responses = try decodeResponses(wire, cuts: Array(1..<wire.count))
            #expect(responses.map(\.body) == [body])
        }
    }

    @Test("a response encoded with chunked framing parses back to its body")
    func encodedChunked() throws {
        let body = HTTPXMLFixtures.roku("apps-tv.xml")
        var headers = Self.headers
        headers.add(name: "Transfer-Encoding", value: "chunked")
        let wire = try HTTPResponse(status: 200, headers: headers, body: body).encode()
        let response = try #require(try decodeResponses(wire).first)
        #expect(response.body == body)
        #expect(response.headers == headers)
    }

    @Test("every prefix of a framed fixture is incomplete at the close, never a short response")
    func truncations() throws {
        let body = HTTPXMLFixtures.roku("media-player-pluto-play.xml")
        for wire in [try Self.withLength(body), Self.chunked(body)] {
            for length in 1..<wire.count {
                #expect(throws: WireError.self, "prefix \(length)") { try decodeResponses(Array(wire.prefix(length))) }
            }
        }
    }

    @Test(
        "corrupting any byte of a framed fixture never traps",
        arguments: [
            UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "F"), 0x00,
        ])
    func corruption(replacement: UInt8) throws {
        let body = HTTPXMLFixtures.roku("active-app-screensaver.xml")
        var failures = 0
        for wire in [try Self.withLength(body), Self.chunked(body)] {
            for position in wire.indices where wire[position] != replacement {
                var corrupted = wire
                corrupted[position] = replacement
                if (try? decodeResponses(corrupted, cuts: [position])) == nil { failures += 1 }
            }
        }
        #expect(failures > 0)
    }
}
