import Drivers
import TVModel
import TestSupport
import Testing

@Suite("Roku ECP answers", .cpuBound)
struct RokuModelTests {
    @Test("device-info of a Roku TV that is on (Onn 7820X)")
    func deviceInfoTV() throws {
        let info = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-7820x.xml"))
        #expect(info.serialNumber == "YN00H5555555")
        #expect(info.udn == "015e5555-9000-5555-5555-b0a555555dfb")
        #expect(info.vendorName == "Onn")
        #expect(info.modelName == "100005844")
        #expect(info.modelNumber == "7820X")
        #expect(info.friendlyModelName == "Onn Roku TV")
        #expect(info.userDeviceName == "58\" Onn Roku TV")
        #expect(info.displayName == "58\" Onn Roku TV")
        #expect(info.softwareVersion == "9.2.0")
        #expect(info.powerMode == "PowerOn")
        #expect(info.isPoweredOn)
        #expect(info.isTV && !info.isStick)
        #expect(info.tunerType == "ATSC")
        #expect(info.wifiMAC == "d8:13:99:f8:b0:c6")
        #expect(info.ethernetMAC == "d4:3a:2e:07:fd:cb")
        #expect(info.macs == ["d8:13:99:f8:b0:c6", "d4:3a:2e:07:fd:cb"])
        #expect(info.supportsFindRemote == true)
        #expect(info.supportsAudioVolumeControl == nil)
    }

    @Test("device-info of a Hisense: empty user-device-name falls back to the friendly name")
    func deviceInfoHisense() throws {
        let info = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-hisense-g218x.xml"))
        #expect(info.serialNumber == "X01900SGN8UY")
        #expect(info.userDeviceName == nil)
        #expect(info.displayName == "Hisense•Roku TV - X01900SGN8UY")
        #expect(info.vendorName == "Hisense")
        #expect(info.modelName == "6Series-50")
        #expect(info.modelNumber == "G218X")
        #expect(info.softwareVersion == "12.5.5")
        #expect(info.isTV)
        #expect(info.macs == ["80:cb:bc:98:79:0a", "a0:62:fb:78:29:ee"])
        let description = try RokuDescriptionBuilder.description(
            info, apps: [], host: "127.0.0.2", port: 8060)
        #expect(description.identity.id.rawValue == "roku_x01900sgn8uy")
        #expect(description.identity.manufacturer == "Hisense")
        #expect(description.identity.model == "Hisense•Roku TV")
        #expect(description.identity.modelID == "G218X")
        #expect(description.identity.serialNumber == "X01900SGN8UY")
    }

    @Test("device-info of a Roku 3 in standby: a player, not a TV, and not on")
    func deviceInfoStandby() throws {
        let info = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-standby.xml"))
        #expect(info.serialNumber == "1GU48T017973")
        #expect(info.powerMode == "Ready")
        #expect(!info.isPoweredOn)
        #expect(!info.isTV)
        #expect(info.displayName == "My Roku 3")
        #expect(info.modelName == "Roku 3")
        #expect(info.vendorName == "Roku")
        let capabilities = RokuDescriptionBuilder.capabilities(info, apps: [])
        #expect(!capabilities.power && !capabilities.volumeKeys && !capabilities.channels)
        #expect(capabilities.inputs.isEmpty && !capabilities.inputState)
        #expect(capabilities.keyboard && capabilities.mediaState && capabilities.limitedMode)
        #expect(!capabilities.volumeLevel && !capabilities.muteState)
    }

    @Test("an unknown power-mode is kept raw and is not on")
    func unknownPowerMode() throws {
        let xml =
            "<device-info><udn>u</udn><serial-number>S1</serial-number><power-mode>Hibernate</power-mode></device-info>"
        let info = try RokuDeviceInfo.parse(Array(xml.utf8))
        #expect(info.powerMode == "Hibernate")
        #expect(!info.isPoweredOn)
    }

    @Test(
        "device-info without serial number or udn is refused",
        arguments: [
            "<device-info><udn>u</udn></device-info>",
            "<device-info><serial-number>S1</serial-number></device-info>",
            "<device-info><serial-number/><udn/></device-info>",
        ])
    func deviceInfoMissingIDs(xml: String) {
        #expect(throws: DriverError.self) { try RokuDeviceInfo.parse(Array(xml.utf8)) }
    }

    @Test("apps: inputs are type tvin; an app without a type is an app")
    func apps() throws {
        let apps = try RokuApp.parseList(RokuFixtures.bytes("apps-tv.xml"))
        #expect(apps.count == 10)
        #expect(apps.filter(\.isInput).map(\.id) == ["tvinput.hdmi2", "tvinput.hdmi1", "tvinput.dtv"])
        #expect(apps.filter(\.isInput).map(\.name) == ["Satellite TV", "Blu-ray player", "Antenna TV"])
        #expect(apps[3] == RokuApp(id: "11", name: "Roku Channel Store", type: "appl"))
        #expect(apps.contains(RokuApp(id: "14", name: "MLB.TV®")))
        let info = try RokuDeviceInfo.parse(RokuFixtures.bytes("device-info-7820x.xml"))
        let capabilities = RokuDescriptionBuilder.capabilities(info, apps: apps)
        #expect(capabilities.inputs == ["Satellite TV", "Blu-ray player", "Antenna TV"])
        #expect(capabilities.apps.first == "Roku Channel Store")
        #expect(capabilities.apps.count == 7)
        #expect(capabilities.power && capabilities.volumeKeys && capabilities.channels)
        #expect(capabilities.inputState, "a Roku TV's active app says which input shows")
    }

    @Test("apps: entries without id or name, and duplicate ids, are skipped")
    func appsLenient() throws {
        let xml = """
            <apps>
              <app id="12" type="appl">Netflix</app><app>No id</app><app id="13"/>
              <app id="12">Netflix again</app><unknown/>
              <app id="2285" type="appl" subtype="rsga" version="1">Hulu</app>
            </apps>
            """
        let apps = try RokuApp.parseList(Array(xml.utf8))
        #expect(apps.map(\.id) == ["12", "2285"])
    }

    @Test("active-app: Netflix")
    func activeNetflix() throws {
        let active = try RokuActiveApp.parse(RokuFixtures.bytes("active-app-netflix.xml"))
        #expect(active == RokuActiveApp(name: "Netflix", id: "12", type: "appl"))
        #expect(!active.isHome && !active.isInput)
    }

    @Test("active-app: the home screen with a screensaver over it")
    func activeScreensaver() throws {
        let active = try RokuActiveApp.parse(RokuFixtures.bytes("active-app-screensaver.xml"))
        #expect(active.isHome)
        #expect(active.name == "Roku")
        #expect(active.id == nil)
        #expect(active.screensaver == "Default screensaver")
    }

    @Test(
        "active-app: the newer home screen id 562859 and type home are the home screen",
        arguments: [
            #"<active-app><app id="562859" type="home" version="1">Roku Dynamic Menu</app></active-app>"#,
            #"<active-app><app type="home">Home</app></active-app>"#,
            "<active-app><app/></active-app>",
        ])
    func activeHome(xml: String) throws {
        let active = try RokuActiveApp.parse(Array(xml.utf8))
        #expect(active.isHome && active.name == "Roku" && active.id == nil)
    }

    @Test("active-app: a TV input")
    func activeInput() throws {
        let xml =
            #"<active-app><app id="tvinput.hdmi1" type="tvin" version="1.0.0">Blu-ray player</app></active-app>"#
        let active = try RokuActiveApp.parse(Array(xml.utf8))
        #expect(active.isInput && active.id == "tvinput.hdmi1" && active.name == "Blu-ray player")
    }

    @Test("media-player: playing, with position and duration in seconds")
    func mediaPlay() throws {
        let player = try RokuMediaPlayer.parse(RokuFixtures.bytes("media-player-pluto-play.xml"))
        #expect(player.state == "play")
        #expect(player.mediaState == .playing)
        #expect(player.position == 38.813)
        #expect(player.duration == 6496.762)
        #expect(player.isLive == false)
        #expect(!player.error)
    }

    @Test("media-player: close is idle, without position")
    func mediaClose() throws {
        let player = try RokuMediaPlayer.parse(RokuFixtures.bytes("media-player-close.xml"))
        #expect(player.mediaState == .idle)
        #expect(player.position == nil && player.duration == nil)
    }

    @Test(
        "media-player states",
        arguments: [
            ("play", MediaState.playing), ("pause", .paused), ("buffer", .buffering),
            ("open", .buffering),
            ("startup", .buffering), ("stop", .stopped), ("close", .idle),
        ])
    func mediaStates(state: String, expected: MediaState) throws {
        let player = try RokuMediaPlayer.parse(
            Array("<player error=\"false\" state=\"\(state)\"/>".utf8))
        #expect(player.mediaState == expected)
    }

    @Test("media-player: odd values give no number rather than a crash")
    func mediaOdd() throws {
        let xml = """
            <player state="weird"><position>-5 ms</position><duration>99999999999999999999 ms</duration></player>
            """
        let player = try RokuMediaPlayer.parse(Array(xml.utf8))
        #expect(player.mediaState == nil && player.state == "weird")
        #expect(player.position == nil && player.duration == nil)
    }
}
