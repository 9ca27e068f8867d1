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

    @Test("every fixture cut short anywhere is an error or a value, never a crash")
    func truncatedFixtures() {
        for name in [
            "device-info-7820x.xml", "apps-tv.xml", "active-app-netflix.xml",
            "media-player-pluto-play.xml",
        ] {
            let bytes = RokuFixtures.bytes(name)
            #expect(!bytes.isEmpty)
            for end in stride(from: 0, to: bytes.count, by: 7) {
                let cut = Array(bytes[..<end])
                _ = try? RokuDeviceInfo.parse(cut)
                _ = try? RokuApp.parseList(cut)
                _ = try? RokuActiveApp.parse(cut)
                _ = try? RokuMediaPlayer.parse(cut)
            }
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
