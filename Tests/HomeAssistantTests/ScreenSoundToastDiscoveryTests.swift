import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

/// The entities by capability: the `screen` switch, the `sound_output` select and the
/// `toast` notify entity, which entity style (Home Assistant from 2024.3, before MQTT notify
/// came in 2024.5) leaves out.
@Suite("Screen, sound output and toast entities", .cpuBound)
struct ScreenSoundToastDiscoveryTests {
    static let identity = TVIdentity(
        id: TVID("den")!, kind: TVKind(rawValue: "acme"), name: "Den", manufacturer: "Acme", host: "127.0.0.2",
        port: 7000)

    static var capabilities: TVCapabilities {
        var capabilities = TVCapabilities(power: true)
        capabilities.screenControl = true
        capabilities.soundOutputs = ["tv_speaker", "external_arc", "tv_speaker"]
        capabilities.toast = true
        return capabilities
    }

    @Test("device style: a switch and a select reading their fields, a notify entity on set/toast")
    func deviceStyle() throws {
        let settings = DiscoverySettings(version: "1")
        let message = try #require(
            DiscoveryBuilder.messages(for: Self.identity, capabilities: Self.capabilities, settings: settings).first)
        let components = try #require(try JSONParser.parse(message.payload)["components"])
        let screen = try #require(components["screen"])
        #expect(screen["platform"] == "switch" && screen["command_topic"] == "tv2mqtt/den/set/screen")
        #expect(screen["state_topic"] == "tv2mqtt/den/state")
        #expect(screen["value_template"]?.stringValue?.contains("value_json.screen") == true)
        let output = try #require(components["sound_output"])
        #expect(output["platform"] == "select" && output["options"] == ["tv_speaker", "external_arc"])
        #expect(output["command_topic"] == "tv2mqtt/den/set/sound_output")
        #expect(output["value_template"]?.stringValue?.contains("value_json.sound_output") == true)
        let toast = try #require(components["toast"])
        #expect(toast["platform"] == "notify" && toast["command_topic"] == "tv2mqtt/den/set/toast")
        #expect(toast["state_topic"] == nil && toast["value_template"] == nil)
        // Without the capabilities: removal stubs only.
        let plain = try #require(
            DiscoveryBuilder.messages(for: Self.identity, capabilities: TVCapabilities(), settings: settings).first)
        let stubs = try #require(try JSONParser.parse(plain.payload)["components"])
        #expect(stubs["toast"]?.objectValue == ["platform": "notify"])
        #expect(stubs["sound_output"]?.objectValue == ["platform": "select"])
    }

    @Test("entity style: screen and sound_output are published, the toast entity is neither sent nor cleared")
    func entityStyle() throws {
        var settings = DiscoverySettings(version: "1")
        settings.style = .entity
        let topics = DiscoveryBuilder.messages(
            for: Self.identity, capabilities: Self.capabilities, settings: settings
        ).map(\.topic)
        #expect(topics.contains("homeassistant/switch/den/screen/config"))
        #expect(topics.contains("homeassistant/select/den/sound_output/config"))
        let notify = topics.filter { $0.contains("/notify/") }
        #expect(notify.isEmpty, "\(notify)")
        let cleared = DiscoveryBuilder.clearMessages(for: Self.identity.id, settings: settings).map(\.topic)
        #expect(cleared.contains("homeassistant/select/den/sound_output/config"))
        let clearedNotify = cleared.filter { $0.contains("/notify/") }
        #expect(clearedNotify.isEmpty, "\(clearedNotify)")
    }
}
