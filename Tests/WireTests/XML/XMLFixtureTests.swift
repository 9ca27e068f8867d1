import TestSupport
import Testing

@testable import Wire

@Suite("XML reader on the Roku fixtures", .cpuBound)
struct XMLFixtureTests {
    private func parse(_ name: String) throws -> XMLElement {
        try XMLReader.parse(HTTPXMLFixtures.roku(name))
    }

    @Test("device-info of a 7820X TV gives its identity, power mode and empty elements")
    func deviceInfo7820X() throws {
        let info = try parse("device-info-7820x.xml")
        #expect(info.name == "device-info")
        #expect(info.children.count == 70)
        #expect(info.childText("serial-number") == "YN00H5555555")
        #expect(info.childText("udn") == "015e5555-9000-5555-5555-b0a555555dfb")
        #expect(info.childText("model-number") == "7820X")
        #expect(info.childText("power-mode") == "PowerOn")
        #expect(info.childText("friendly-device-name") == #"58" Onn Roku TV"#)
        #expect(info.childText("wifi-mac") == "d8:13:99:f8:b0:c6")
        #expect(info.childText("ethernet-mac") == "d4:3a:2e:07:fd:cb")
        #expect(info.childText("supports-find-remote") == "true")
        #expect(info.childText("has-wifi-5G-support") == "true")
        let keyed = try #require(info.firstChild(named: "keyed-developer-id"))
        #expect(keyed.text.isEmpty && keyed.children.isEmpty && keyed.attributes.isEmpty)
        #expect(info.childText("keyed-developer-id") == "")
        #expect(info.childText("no-such-field") == nil)
        #expect(info.trimmedText.isEmpty)
    }

    @Test("device-info of a Hisense TV keeps the bullet in its names and reads `<x />` as empty")
    func deviceInfoHisense() throws {
        let info = try parse("device-info-hisense-g218x.xml")
        #expect(info.children.count == 74)
        #expect(info.childText("friendly-device-name") == "Hisense•Roku TV - X01900SGN8UY")
        #expect(info.childText("friendly-model-name") == "Hisense•Roku TV")
        #expect(info.childText("user-device-name") == "")
        #expect(info.childText("user-device-location") == "")
        #expect(info.childText("software-version") == "12.5.5")
        #expect(info.childText("serial-number") == "X01900SGN8UY")
    }

    @Test("device-info of a Roku 3 in standby reports Ready and its developer id")
    func deviceInfoStandby() throws {
        let info = try parse("device-info-standby.xml")
        #expect(info.children.count == 32)
        #expect(info.childText("power-mode") == "Ready")
        #expect(info.childText("model-name") == "Roku 3")
        #expect(info.childText("software-build") == "09021")
        #expect(info.childText("keyed-developer-id") == "70f6ed9c90cf60718a26f3a7c3e5af1c3ec29558")
        #expect(info.childText("network-type") == "ethernet")
    }

    @Test("the app list keeps ids and types as attributes and names as text")
    func apps() throws {
        let apps = try parse("apps-tv.xml")
        let list = apps.children(named: "app")
        #expect(apps.name == "apps")
        #expect(list.count == 10)
        let ids = list.map { $0.attribute("id") ?? "" }
        #expect(
            ids == [
                "tvinput.hdmi2", "tvinput.hdmi1", "tvinput.dtv", "11", "12", "13", "14", "26", "27", "28",
            ])
        let inputsFirst = list.prefix(3).allSatisfy {
            $0.attribute("type") == "tvin" && $0.attribute("version") == "1.0.0"
        }
        #expect(inputsFirst)
        #expect(list[3].attribute("type") == nil)
        #expect(
            list.map(\.text) == [
                "Satellite TV", "Blu-ray player", "Antenna TV", "Roku Channel Store", "Netflix",
                "Amazon Video on Demand", "MLB.TV®", "Free FrameChannel Service", "Mediafly", "Pandora",
            ])
        #expect(
            list[0].attributes == [
                XMLAttribute(name: "id", value: "tvinput.hdmi2"), XMLAttribute(name: "type", value: "tvin"),
                XMLAttribute(name: "version", value: "1.0.0"),
            ])
    }

    @Test("active-app while Netflix runs")
    func activeAppNetflix() throws {
        let active = try parse("active-app-netflix.xml")
        let app = try #require(active.firstChild(named: "app"))
        #expect(app.attribute("id") == "12")
        #expect(app.attribute("type") == "appl")
        #expect(app.attribute("version") == "4.1.218")
        #expect(app.text == "Netflix")
        #expect(active.firstChild(named: "screensaver") == nil)
    }

    @Test("active-app while the screensaver shows has a bare home app and a screensaver element")
    func activeAppScreensaver() throws {
        let active = try parse("active-app-screensaver.xml")
        #expect(active.children.map(\.name) == ["app", "screensaver"])
        let app = try #require(active.firstChild(named: "app"))
        #expect(app.text == "Roku" && app.attributes.isEmpty)
        let saver = try #require(active.firstChild(named: "screensaver"))
        #expect(saver.attribute("id") == "55545")
        #expect(saver.attribute("type") == "ssvr")
        #expect(saver.attribute("version") == "2.0.1")
        #expect(saver.text == "Default screensaver")
    }

    @Test("media-player while Pluto TV plays gives state, plugin and times as text")
    func mediaPlayerPlaying() throws {
        let player = try parse("media-player-pluto-play.xml")
        #expect(player.name == "player")
        #expect(player.attribute("state") == "play")
        #expect(player.attribute("error") == "false")
        #expect(player.childText("position") == "38813 ms")
        #expect(player.childText("duration") == "6496762 ms")
        #expect(player.childText("runtime") == "15000 ms")
        #expect(player.childText("is_live") == "false")
        let plugin = try #require(player.firstChild(named: "plugin"))
        #expect(plugin.attribute("name") == "Pluto TV - It's Free TV")
        #expect(plugin.attribute("id") == "74519")
        #expect(plugin.attribute("bandwidth") == "10000000 bps")
        #expect(player.firstChild(named: "stream_segment")?.attribute("media_sequence") == "68")
        #expect(player.firstChild(named: "format")?.attribute("video") == "mpeg4_10b")
    }

    @Test("media-player with nothing playing is in state close")
    func mediaPlayerClosed() throws {
        let player = try parse("media-player-close.xml")
        #expect(player.attribute("state") == "close")
        #expect(player.children.map(\.name) == ["format", "is_live"])
        #expect(player.firstChild(named: "format")?.attribute("captions") == "none")
        #expect(player.childText("position") == nil)
    }

    @Test(
        "every prefix of a fixture either fails or, once the root has closed, parses to the same tree",
        arguments: HTTPXMLFixtures.rokuXML)
    func truncation(name: String) throws {
        let bytes = HTTPXMLFixtures.roku(name)
        let full = try XMLReader.parse(bytes)
        var firstSuccess: Int? = nil
        for length in 0..<bytes.count {
            if let tree = try? XMLReader.parse(bytes.prefix(length)) {
                firstSuccess = firstSuccess ?? length
                #expect(tree == full)
            } else {
                #expect(firstSuccess == nil, "prefix \(length) failed after a shorter one parsed")
            }
        }
        // Only the final newline after the root's end tag may be missing.
        #expect(firstSuccess == bytes.count - 1)
    }

    @Test(
        "corrupting any byte of a fixture never traps",
        arguments: [UInt8(ascii: "<"), UInt8(ascii: "&"), 0x00, 0xC3, UInt8(ascii: "/"), UInt8(ascii: "\"")])
    func corruption(replacement: UInt8) {
        let bytes = HTTPXMLFixtures.roku("media-player-pluto-play.xml")
        var outcomes = 0
        for position in bytes.indices {
            var corrupted = bytes
            corrupted[position] = replacement
            outcomes += (try? XMLReader.parse(corrupted)) == nil ? 1 : 0
        }
        #expect(outcomes > 0)
    }
}
