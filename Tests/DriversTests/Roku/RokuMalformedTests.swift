import Drivers
import TestSupport
import Testing

@Suite("Roku ECP answers that are broken", .cpuBound)
struct RokuMalformedTests {
    static let documents: [String] = [
        "", "   ", "not xml", "<device-info>", "<device-info><udn>u</udn>",
        "<device-info><udn>u</udn><serial-number>S</serial-number></device-inf>",
        "<apps><app id=\"1\">x</apps>", "<active-app>", "<player state=\"play\"",
        "<!DOCTYPE x [<!ENTITY a \"b\">]><device-info/>", "<a><b></a></b>", "\u{0}\u{1}<x/>",
    ]

    @Test("truncated or malformed XML is a badResponse, never a crash", arguments: documents)
    func malformed(text: String) {
        let bytes = Array(text.utf8)
        #expect(throws: DriverError.self) { try RokuDeviceInfo.parse(bytes) }
        #expect(throws: DriverError.self) { try RokuApp.parseList(bytes) }
        #expect(throws: DriverError.self) { try RokuActiveApp.parse(bytes) }
        #expect(throws: DriverError.self) { try RokuMediaPlayer.parse(bytes) }
    }

    @Test(
        "every fixture cut short before its root closes is a badResponse error from its parser and from the others; cut after it, it parses to the whole"
    )
    func truncatedFixtures() throws {
        try expectTruncation("device-info-7820x.xml", RokuDeviceInfo.parse)
        try expectTruncation("apps-tv.xml", RokuApp.parseList)
        try expectTruncation("active-app-netflix.xml", RokuActiveApp.parse)
        try expectTruncation("media-player-pluto-play.xml", RokuMediaPlayer.parse)
    }

    /// Every prefix of fixture `name`: `parse` fails with badResponse until the root element's
    /// end tag is in (only the final newline may be missing), then gives the whole fixture's
    /// value; no parser (the other documents', or its own) accepts a prefix before that.
    private func expectTruncation<T: Equatable>(_ name: String, _ parse: ([UInt8]) throws(DriverError) -> T) throws {
        let bytes = RokuFixtures.bytes(name)
        let whole = try parse(bytes)
        let rootClosed = try #require(bytes.lastIndex(of: UInt8(ascii: ">"))) + 1
        let parsers: [([UInt8]) -> Bool] = [
            { (try? RokuDeviceInfo.parse($0)) != nil }, { (try? RokuApp.parseList($0)) != nil },
            { (try? RokuActiveApp.parse($0)) != nil }, { (try? RokuMediaPlayer.parse($0)) != nil },
        ]
        for end in 0..<bytes.count {
            let cut = Array(bytes[..<end])
            if end >= rootClosed {
                let value = try parse(cut)
                #expect(value == whole, "\(name) cut at \(end)")
                continue
            }
            let error = #expect(throws: DriverError.self, "\(name) cut at \(end)") { try parse(cut) }
            #expect(error?.kind == .badResponse, "\(name) cut at \(end)")
            let accepted = parsers.count { $0(cut) }
            #expect(accepted == 0, "\(name) cut at \(end) accepted by \(accepted) parser(s)")
        }
    }

    @Test("the wrong root element is refused")
    func wrongRoot() throws {
        let error = #expect(throws: DriverError.self) {
            try RokuDeviceInfo.parse(RokuFixtures.bytes("apps-tv.xml"))
        }
        #expect(error?.kind == .badResponse)
    }

    @Test("an oversized answer is refused before it is parsed")
    func oversized() {
        var xml = "<apps>"
        let entry =
            "<app id=\"1\">xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</app>"
        while xml.utf8.count < 600 * 1024 { xml += entry }
        xml += "</apps>"
        let error = #expect(throws: DriverError.self) { try RokuApp.parseList(Array(xml.utf8)) }
        #expect(error?.kind == .badResponse)
    }

    @Test("deep nesting is refused, not recursed into")
    func deep() {
        let xml = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(throws: DriverError.self) { try RokuDeviceInfo.parse(Array(xml.utf8)) }
    }
}
