import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

/// Entity style is the discovery for Home Assistant before 2024.11, so its configs must suit
/// every release from 2024.3 on (the oldest the README supports): Home Assistant 2024.3.3's own
/// schemas, read in its homeassistant/components/mqtt (mixins.py, discovery.py, sensor.py).
/// Tests/homeassistant/verify.sh --ha 2024.3.3 checks the same against the real release.
@Suite("Entity style suits Home Assistant 2024.3", .cpuBound)
struct EntityStyleCompatibilityTests {
    /// mixins.py MQTT_ENTITY_DEVICE_INFO_SCHEMA of 2024.3: a plain vol.Schema, so any other key
    /// (`model_id` came in 2024.9) refuses the whole config ("extra keys not allowed").
    static let deviceKeys: Set<String> = [
        "identifiers", "connections", "manufacturer", "model", "name", "hw_version", "serial_number", "sw_version",
        "via_device", "suggested_area", "configuration_url",
    ]
    /// discovery.py MQTT_ORIGIN_INFO_SCHEMA of 2024.3.
    static let originKeys: Set<String> = ["name", "sw_version", "support_url"]

    /// Every entity-style config of the three sample TVs, the bridge, and TVs of every kind with
    /// every capability and every identity field set.
    static func configs(merge: Bool = false) throws -> [(topic: String, config: [String: JSONValue])] {
        let settings = Samples.settings(.entity, merge: merge)
        var messages = DiscoveryBuilder.bridgeMessages(settings: settings)
        for (identity, capabilities) in [try Samples.rokuTV(), try Samples.rokuStick(), try Samples.samsungTV()] {
            messages += DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
        }
        let everything = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true, inputs: ["HDMI1"], apps: ["Netflix"],
            keyboard: true, mediaState: true, limitedMode: true, channels: true)
        for kind in [TVKind.roku, .samsung] {
            let identity = TVIdentity(
                id: TVID("tv-1")!, kind: kind, name: "Living Room", manufacturer: "M", model: "Model",
                modelID: "ID", serialNumber: "S", softwareVersion: "1.0", host: "203.0.113.2", port: 8060,
                macs: ["aa:bb:cc:dd:ee:01"])
            messages += DiscoveryBuilder.messages(for: identity, capabilities: everything, settings: settings)
        }
        return try messages.map { ($0.topic, try JSONParser.parse($0.payload).objectValue ?? [:]) }
    }

    @Test("Entity style sends only device and origin keys Home Assistant 2024.3 accepts", arguments: [false, true])
    func deviceAndOriginKeys(merge: Bool) throws {
        let configs = try Self.configs(merge: merge)
        #expect(configs.count > 80)
        for (topic, config) in configs {
            let device = Set(config["device"]?.objectValue?.keys ?? [:].keys)
            let origin = Set(config["origin"]?.objectValue?.keys ?? [:].keys)
            #expect(device.subtracting(Self.deviceKeys).isEmpty, "\(topic): \(device.subtracting(Self.deviceKeys))")
            #expect(origin.subtracting(Self.originKeys).isEmpty, "\(topic): \(origin.subtracting(Self.originKeys))")
            #expect(device.contains("identifiers") && device.contains("name") && origin.contains("name"))
        }
    }

    @Test("Device style, for Home Assistant 2024.11 and later, still names the model id")
    func deviceStyleKeepsModelID() throws {
        let (identity, capabilities) = try Samples.rokuTV()
        let message = DiscoveryBuilder.messages(
            for: identity, capabilities: capabilities, settings: Samples.settings(.device))[0]
        let device = try JSONParser.parse(message.payload)["device"]
        #expect(device?["model_id"] == "7820X")
        #expect(device?["model"] == "Onn Roku TV")
    }

    /// sensor.py of 2024.3 takes a rendered `None` as unknown only for numeric sensors: a text
    /// sensor shows the text "None" (and it has no `options`, so no enum sensor either; later
    /// releases refuse a `None` outside the options with an error). Home Assistant 2024.10
    /// (core PR #127032) takes it as unknown for every sensor.
    @Test("No entity-style sensor renders 'None'; a text sensor with nothing to show renders unknown")
    func sensorsRenderUnknown() throws {
        var sensors = 0
        for (topic, config) in try Self.configs() where topic.hasPrefix("homeassistant/sensor/") {
            sensors += 1
            let template = try #require(config["value_template"]?.stringValue, "\(topic)")
            #expect(!template.contains("'None'"), "\(topic): \(template)")
            #expect(template.hasSuffix(" else 'unknown' }}"), "\(topic): \(template)")
            #expect(config["device_class"] != "enum" && config["options"] == nil, "\(topic)")
        }
        #expect(sensors > 10)
    }

    @Test("The other entity-style platforms keep 'None', which 2024.3 already takes as unknown")
    func otherPlatformsKeepNone() throws {
        for (topic, config) in try Self.configs()
        where !topic.hasPrefix("homeassistant/sensor/") && !topic.hasPrefix("homeassistant/device_automation/") {
            guard let template = config["value_template"]?.stringValue, template != "{{ '' }}" else { continue }
            #expect(template.hasSuffix(" else 'None' }}"), "\(topic): \(template)")
        }
    }
}
