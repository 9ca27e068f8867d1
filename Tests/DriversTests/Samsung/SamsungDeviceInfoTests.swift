import Drivers
import TVModel
import TestSupport
import Testing

@Suite("Samsung REST device info", .cpuBound)
struct SamsungDeviceInfoTests {
    @Test("a 2020 TV: every field, PowerState on, token auth, isSupport decoded from its string")
    func q60() throws {
        let info = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.q60))
        #expect(info.name == "[TV] Samsung Q60 Series (55)")
        #expect(info.modelName == "QE55Q60TAUXXU")
        #expect(info.modelCode == "20_MUSEL_UHD")
        #expect(info.deviceID == "uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
        #expect(info.wifiMAC == "64:1C:AE:00:11:22")
        #expect(info.powerState == .on)
        #expect(info.frameTV == false)
        #expect(info.tokenAuth == true)
        #expect(info.os == "Tizen")
        #expect(info.networkType == "wireless")
        #expect(info.type == "Samsung SmartTV")
        #expect(info.firmwareVersion == nil, "\"Unknown\" is dropped")
        #expect(info.ip == "192.0.2.60")
        #expect(info.apiVersion == "2.0.25")
        #expect(info.support?["remote_touchPad"] == "true")
        #expect(info.tvID?.rawValue == "samsung_0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
    }

    @Test("the description matches the sample the Home Assistant golden tests use")
    func descriptionMatchesGoldenSample() throws {
        let info = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.q60))
        let event = try SamsungEvent.decode(
            TestFixtures.bytes("samsung/event_ed_installedApp_get.json"))
        guard case .installedApps(let installed) = event else {
            Issue.record("expected the app list, got \(event)")
            return
        }
        let apps = installed.map { TVApp(id: $0.appID, name: $0.name) }
        let description = try info.tvDescription(host: "192.0.2.60", apps: apps)
        let expectedIdentity = TVIdentity(
            id: try #require(
                TVID(kind: .samsung, hardwareID: "uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9")),
            kind: .samsung, name: "[TV] Samsung Q60 Series (55)", manufacturer: "Samsung",
            model: "QE55Q60TAUXXU",
            modelID: "20_MUSEL_UHD", host: "192.0.2.60", port: 8001, macs: ["64:1c:ae:00:11:22"])
        var expectedCapabilities = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true,
            inputs: ["HDMI", "Source"], apps: ["YouTube", "Deezer"],
            keyboard: true,
            channels: true)
        expectedCapabilities.pairing = true  // the remote channel's approval prompt: the pair button
        #expect(description.identity == expectedIdentity)
        #expect(description.capabilities == expectedCapabilities)
        #expect(
            description.apps == [
                TVApp(id: "111299001912", name: "YouTube"), TVApp(id: "3201608010191", name: "Deezer"),
            ])
        #expect(description.identity.port == 8001)
    }

    @Test("a 2016 TV: no PowerState, id instead of duid, firmware kept, broken isSupport ignored")
    func ku6400() throws {
        let info = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.ku6400))
        #expect(info.powerState == nil)
        #expect(info.tokenAuth == false)
        #expect(info.deviceID == "uuid:11112222-3333-4444-5555-666677778888")
        #expect(info.firmwareVersion == "T-JZMDEUC-1250.5")
        #expect(info.support == nil)
        let description = try info.tvDescription(host: "198.51.100.9", port: 8001)
        #expect(description.identity.id.rawValue == "samsung_11112222-3333-4444-5555-666677778888")
        #expect(description.identity.softwareVersion == "T-JZMDEUC-1250.5")
        #expect(description.identity.macs == ["5c:49:7d:aa:bb:cc"])
        #expect(
            description.identity.host == "198.51.100.9", "the address we reached, not the TV's own idea")
        #expect(description.capabilities.apps.isEmpty)
    }

    @Test("a Frame TV: FrameTVSupport from an isSupport object, standby, MAC with dashes normalised")
    func frame() throws {
        let info = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.frame))
        #expect(info.frameTV)
        #expect(info.powerState == .standby)
        #expect(info.macs == ["f4:7b:5e:01:02:03"])
        #expect(info.tvID?.rawValue == "samsung_frame-0001")
        #expect(try info.tvDescription(host: "h").identity.name == "The Frame")
        // The switch the Home Assistant golden files were made with (HomeAssistantTests' Samples),
        // declared by a Frame and by the vendor; a TV that is not a Frame declares none.
        let art = DeclaredControl(
            key: "art_mode", platform: .switch, name: "Art mode", icon: "mdi:image-frame", stateFileFlag: "artMode")
        #expect(try info.tvDescription(host: "h").capabilities.controls == [art])
        #expect(Vendor.samsung.controls == [art])
        let tv = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.q60))
        #expect(try tv.tvDescription(host: "h").capabilities.controls.isEmpty)
    }

    @Test("lenient: real booleans, a bare-number field, top-level id only, unknown PowerState")
    func lenient() throws {
        let text =
            #"{"device":{"FrameTVSupport":true,"PowerState":"Suspend","wifiMac":"nonsense","modelName":42},"id":"uuid:abc"}"#
        let info = try SamsungDeviceInfo.parse(utf8(text))
        #expect(info.frameTV)
        #expect(info.powerState == .other("Suspend"))
        #expect(info.macs.isEmpty)
        #expect(info.modelName == "42")
        #expect(info.deviceID == "uuid:abc")
        #expect(try info.tvDescription(host: "h").identity.name == "42", "no name: the model stands in")
    }

    @Test("power readings (on only when PowerState is on, or reachable without PowerState)")
    func powerReading() throws {
        let q60 = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.q60))
        let old = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.ku6400))
        let frame = try SamsungDeviceInfo.parse(utf8(SamsungRESTSamples.frame))
        #expect(SamsungPowerReading(info: q60) == SamsungPowerReading(power: true, powerMode: "on"))
        #expect(SamsungPowerReading(info: old) == SamsungPowerReading(power: true, powerMode: nil))
        #expect(
            SamsungPowerReading(info: frame) == SamsungPowerReading(power: false, powerMode: "standby"))
        #expect(
            SamsungPowerReading(info: nil) == SamsungPowerReading(power: false, powerMode: "unreachable"))
        let odd = SamsungDeviceInfo(powerState: .other("Suspend"))
        #expect(
            SamsungPowerReading(info: odd) == SamsungPowerReading(power: false, powerMode: "Suspend"))
    }

    @Test(
        "garbage is a badResponse error, never a trap",
        arguments: [
            "", "{", "[1,2]", "\"text\"", "null", "{\"device\":", "{}", "{\"device\":{}}", "{\"a\":1}",
            "\u{FF}\u{FE}", "{\"device\":{\"name\":\"x\"},}",
        ])
    func garbage(text: String) {
        #expect(throws: DriverError.self) { try SamsungDeviceInfo.parse(utf8(text)) }
    }

    @Test("invalid UTF-8, oversized and deeply nested documents are refused")
    func limits() {
        #expect(throws: DriverError.self) {
            try SamsungDeviceInfo.parse([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D])
        }
        let big = "{\"device\":{\"name\":\"" + String(repeating: "a", count: 300 * 1024) + "\"}}"
        #expect(throws: DriverError.self) { try SamsungDeviceInfo.parse(utf8(big)) }
        let deep =
            "{\"device\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(throws: DriverError.self) { try SamsungDeviceInfo.parse(utf8(deep)) }
    }

    @Test("a reply without any id gives no description")
    func noID() throws {
        let info = try SamsungDeviceInfo.parse(utf8(#"{"device":{"name":"TV"}}"#))
        #expect(info.tvID == nil)
        #expect(throws: DriverError.self) { try info.tvDescription(host: "h") }
    }
}
