import Configuration
import Harness
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge
@testable import Drivers

/// The TV part of the bad-input catalogue (Tests/BAD-INPUT.md): a fake TV answering garbage
/// behind the real Roku driver and HTTP client, and a bridge that keeps serving another TV.
@Suite("Bad-input catalogue: misbehaving TVs")
struct MisbehavingTVTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let answer: [UInt8]
        let kind: DriverError.Kind
        /// What the error message must contain.
        let message: String
        var testDescription: String { name }

        init(_ name: String, _ answer: String, _ kind: DriverError.Kind, _ message: String) {
            self.name = name
            self.answer = Array(answer.utf8)
            self.kind = kind
            self.message = message
        }
    }

    static func ok(_ body: String) -> String { "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)" }

    static let cases: [Case] = [
        Case(
            "garbage XML", ok("<device-info><udn>x</udn"), .badResponse,
            "the Roku's device-info is not valid XML: end tag is not closed by >"),
        Case(
            "JSON instead of XML", ok(#"{"device-info":{"udn":"x"}}"#), .badResponse,
            "the Roku's device-info is not valid XML: text outside the root element"),
        Case(
            "the wrong XML document", ok("<apps><app id=\"1\">A</app></apps>"), .badResponse,
            "the Roku's device-info has <apps> where <device-info> was expected"),
        Case(
            "an oversize body (Content-Length 50 MB)", "HTTP/1.1 200 OK\r\nContent-Length: 50000000\r\n\r\n<a>",
            .badResponse, "bad answer: HTTP: Content-Length 50000000 exceeds the limit of 1048576 bytes"),
        Case(
            "an oversize chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFF\r\n<a>", .badResponse,
            "bad answer: HTTP: chunk size exceeds 1048576 bytes"),
        Case(
            "Content-Length longer than the body", "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n<device-info>",
            .badResponse, "bad answer: HTTP: connection closed after 13 of 500 body bytes"),
        Case(
            "Content-Length not a number", "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n<a/>", .badResponse,
            "bad answer: HTTP: Content-Length is not a decimal number"),
        Case(
            "Content-Lengths that disagree",
            "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n<a/>", .badResponse,
            "bad answer: HTTP: conflicting Content-Length values"),
        Case(
            "broken chunking", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n",
            .badResponse, "bad answer: HTTP: chunk size is not hexadecimal"),
        Case("not HTTP at all", "SSH-2.0-OpenSSH_9.6\r\n\r\n", .badResponse, "bad answer: HTTP: invalid status line"),
        Case(
            "a header line without a colon", "HTTP/1.1 200 OK\r\nbogus\r\n\r\n", .badResponse,
            "bad answer: HTTP: header line without a colon"),
    ]

    static let settings = DriverSettings(
        wolTargets: [], wolRepeat: 1, connectTimeout: .seconds(5), requestTimeout: .seconds(10), wakeWait: .seconds(1))

    // On a frozen clock: each case ends in what the fake TV sent, or in its closing.
    @Test("the Roku driver turns each bad answer into a clear DriverError", .frozenClock, arguments: cases)
    func badAnswer(_ testCase: Case) async throws {
        let tv = try MisbehavingTV(host: "127.0.0.35", answer: testCase.answer)
        defer { tv.stop() }
        var caught: DriverError?
        do {
            _ = try await RokuProbe.describe(host: tv.host, port: tv.port, settings: Self.settings)
        } catch {
            caught = error
        }
        let error = try #require(caught, "the garbage was accepted")
        #expect(error.kind == testCase.kind, "\(error.message)")
        #expect(error.message.contains(testCase.message), "\(error.message)")
        let printable = !error.message.unicodeScalars.contains { $0.value < 0x20 }
        #expect(printable, "control characters in \(error.message)")
        #expect(tv.requests >= 1)
    }

    static let samsungCases: [Case] = [
        Case(
            "garbage JSON", ok(#"{"device":{"name":"x"},"#), .badResponse,
            "Samsung device info (/api/v2/) is not usable JSON (JSON: expected a member name at byte 23)"),
        Case(
            "XML instead of JSON", ok("<device><name>x</name></device>"), .badResponse,
            "Samsung device info (/api/v2/) is not usable JSON (JSON: unexpected character at byte 0)"),
        Case("a JSON array", ok("[1,2]"), .badResponse, "Samsung device info: expected a JSON object, got array"),
        Case(
            "deep nesting", ok(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)), .badResponse,
            "Samsung device info (/api/v2/) is not usable JSON (JSON: nesting deeper than 16)"),
        Case(
            "an oversize body (Content-Length 50 MB)", "HTTP/1.1 200 OK\r\nContent-Length: 50000000\r\n\r\n{",
            .badResponse, "bad answer: HTTP: Content-Length 50000000 exceeds the limit of 1048576 bytes"),
        Case(
            "broken chunking", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n{}\r\n0\r\n\r\n",
            .badResponse, "bad answer: HTTP: chunk size is not hexadecimal"),
    ]

    @Test(
        "the Samsung driver turns each bad REST answer into a clear DriverError", .frozenClock,
        arguments: samsungCases)
    func badSamsungAnswer(_ testCase: Case) async throws {
        let tv = try MisbehavingTV(host: "127.0.0.35", answer: testCase.answer)
        defer { tv.stop() }
        let http = SamsungHTTP(host: tv.host, restPort: tv.port, upnpPort: tv.port, settings: Self.settings)
        var caught: DriverError?
        do {
            _ = try await http.deviceInfo()
        } catch {
            caught = error
        }
        await http.closeIdle()
        let error = try #require(caught, "the garbage was accepted")
        #expect(error.kind == testCase.kind, "\(error.message)")
        #expect(error.message.contains(testCase.message), "\(error.message)")
    }

    @Test("a configured TV that answers garbage stays offline; the other TV keeps working")
    func bridgeCarriesOn() async throws {
        let bad = try MisbehavingTV(host: "127.0.0.36", answer: Array(Self.ok("<device-info><udn>").utf8))
        defer { bad.stop() }
        try await withRokus { fixture, rokus in
            let good = try await rokus.start("127.0.0.37")
            let configuration = fixture.configuration {
                var attic = BridgeConfiguration.ConfiguredTV(
                    host: bad.host, kind: .roku, name: "Attic", id: TVID("attic"), port: bad.port)
                attic.macs = ["02:aa:bb:cc:dd:02"]
                $0.tvs = [
                    BridgeConfiguration.ConfiguredTV(
                        host: good.host, kind: .roku, name: "Den", id: TVID("den"), port: good.port),
                    attic,
                ]
            }
            try await fixture.startBridge(
                configuration,
                factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
            await fixture.expectMessage("tv2mqtt/attic/availability") { $0.text == "offline" }
            await fixture.expectState("den") { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/den/set/key", "home")
            await expectReceived(rokus.log) { $0["kind"] == "keypress" && $0["key"] == "Home" }
            let reported = fixture.logs.lines.filter { $0.contains("127.0.0.36") && $0.contains("XML") }
            #expect(!reported.isEmpty, "\(fixture.logs.lines.suffix(10))")
            #expect(bad.requests >= 1)
        }
    }
}
