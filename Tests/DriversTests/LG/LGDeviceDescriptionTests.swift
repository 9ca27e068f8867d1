import TVModel
import TestSupport
import Testing
import Wire

@testable import Drivers

@Suite("LG device description", .cpuBound)
struct LGDeviceDescriptionTests {
    @Test("friendly name, model and UDN (without uuid:) are read")
    func parses() throws {
        let xml = """
            <root xmlns="urn:schemas-upnp-org:device-1-0"><device>
            <friendlyName>[LG] webOS TV OLED55C1AUB</friendlyName><modelName>OLED55C1AUB</modelName>
            <UDN>uuid:0c6a5bd2-1c16-4bd0-9cb0-6f3ec5c2b0a4</UDN></device></root>
            """
        let description = try LGDeviceDescription.parse(Array(xml.utf8))
        #expect(description.friendlyName == "[LG] webOS TV OLED55C1AUB")
        #expect(description.modelName == "OLED55C1AUB")
        #expect(description.uuid == "0c6a5bd2-1c16-4bd0-9cb0-6f3ec5c2b0a4")
    }

    @Test("the description a real webOS 1 TV serves (LG's Connect SDK) gives its name, model and UUID")
    func realTV() throws {
        let description = try LGDeviceDescription.parse(try TestFixtures.bytes("lg/upnp-description-webos1.xml"))
        #expect(
            description
                == LGDeviceDescription(
                    friendlyName: "Adnan TV", modelName: "LG Smart TV", uuid: "86ea12c3-4ad7-2117-edbd-8177429fe21e"))
    }

    @Test("the probe describes the real TV as HomeAssistantTests' golden LG sample says")
    func probedAsTheGoldenSample() throws {
        let upnp = try LGDeviceDescription.parse(try TestFixtures.bytes("lg/upnp-description-webos1.xml"))
        let uuid = "86ea12c3-4ad7-2117-edbd-8177429fe21e"
        let probed = LGProbe.description(
            hello: .object(["deviceUUID": .string(uuid)]), upnp: upnp, host: "203.0.113.70", port: 3001)
        let identity = probed.identity
        #expect(identity.id.rawValue == "lg_" + uuid)
        #expect(identity.name == "Adnan TV")
        #expect(identity.manufacturer == "LG")
        #expect(identity.model == "LG Smart TV")
        #expect(identity.serialNumber == uuid)
        #expect(identity.softwareVersion == nil)
        var expected = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true, inputState: true, keyboard: true,
            channels: true)
        expected.channelInfo = true
        expected.pairing = true
        expected.pairingPIN = true
        expected.screenControl = true
        expected.soundOutputs = [
            "tv_speaker", "external_arc", "external_optical", "bt_soundbar", "headphone", "tv_external_speaker",
        ]
        expected.toast = true
        expected.appIcons = true
        #expect(probed.capabilities == expected)
    }

    @Test("every truncation of the real description is read or refused with a DriverError, never more")
    func truncated() throws {
        let bytes = try TestFixtures.bytes("lg/upnp-description-webos1.xml")
        var refused = 0
        for length in 0..<bytes.count {
            do {
                _ = try LGDeviceDescription.parse(bytes[..<length])
            } catch {
                refused += 1
            }
        }
        #expect(refused == bytes.count, "a description cut short is never taken as whole")
    }

    @Test("not XML, or no device, is a clear error")
    func refuses() {
        #expect(throws: DriverError.self) { try LGDeviceDescription.parse(Array("{}".utf8)) }
        #expect(throws: DriverError.self) { try LGDeviceDescription.parse(Array("<root/>".utf8)) }
    }
}
