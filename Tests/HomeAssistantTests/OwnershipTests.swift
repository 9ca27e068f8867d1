import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

@Suite("Recognising our retained configs", .cpuBound)
struct OwnershipTests {
    static let settings = Samples.settings(.device)

    static func tv(
        _ id: String, style: DiscoverySettings.Style, settings: DiscoverySettings? = nil,
        capabilities: TVCapabilities = TVCapabilities(power: true, keyboard: true)
    ) -> [DiscoveryMessage] {
        let identity = TVIdentity(
            id: TVID(id)!, kind: .roku, name: "TV", manufacturer: "Roku", host: "192.0.2.3", port: 8060)
        var settings = settings ?? Samples.settings(style)
        settings.style = style
        return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
    }

    /// Every capability, so every entity and topic the builder can make is there.
    static let everything = TVCapabilities(
        power: true, volumeKeys: true, volumeLevel: true, muteState: true, inputs: ["HDMI 1"], inputState: true,
        apps: ["Netflix"], keyboard: true, mediaState: true, limitedMode: true, channels: true)

    /// Every config an instance with base topic `base` holds: its bridge's and two TVs', one
    /// named like a level of the nested base topics (`floor2`).
    static func instanceConfigs(base: String, style: DiscoverySettings.Style) -> [DiscoveryMessage] {
        var settings = DiscoverySettings(baseTopic: base, version: "1")
        settings.style = style
        return DiscoveryBuilder.bridgeMessages(settings: settings)
            + tv("roku_a", style: style, settings: settings, capabilities: everything)
            + tv("floor2", style: style, settings: settings, capabilities: everything)
    }

    @Test(
        "With nested base topics (tv2mqtt, tv2mqtt/floor2, tv2mqtt/floor2/east) each instance owns its configs and no other's",
        arguments: DiscoverySettings.Style.allCases)
    func nestedInstances(style: DiscoverySettings.Style) {
        let bases = ["tv2mqtt", "tv2mqtt/floor2", "tv2mqtt/floor2/east"]
        for base in bases {
            var settings = DiscoverySettings(baseTopic: base, version: "1")
            settings.style = style
            for other in bases {
                for message in Self.instanceConfigs(base: other, style: style) where !message.isClear {
                    let owner = DiscoveryCache.owner(topic: message.topic, payload: message.payload, settings: settings)
                    if other == base {
                        #expect(owner != nil, "\(base) does not own its \(message.topic)")
                    } else {
                        #expect(owner == nil, "\(base) claims \(other)'s \(message.topic)")
                    }
                }
            }
        }
    }

    @Test("Our TV configs name their TV, in both styles", arguments: DiscoverySettings.Style.allCases)
    func ownTVConfigs(style: DiscoverySettings.Style) {
        for message in Self.tv("roku_old", style: style) {
            #expect(
                DiscoveryCache.isOwnedConfig(topic: message.topic, payload: message.payload, settings: Self.settings)
                    == TVID("roku_old"))
        }
    }

    @Test("The bridge's configs are ours but belong to no TV", arguments: DiscoverySettings.Style.allCases)
    func bridgeConfigs(style: DiscoverySettings.Style) {
        for message in DiscoveryBuilder.bridgeMessages(settings: Samples.settings(style)) {
            #expect(
                DiscoveryCache.owner(topic: message.topic, payload: message.payload, settings: Self.settings) == .bridge
            )
            #expect(
                DiscoveryCache.isOwnedConfig(topic: message.topic, payload: message.payload, settings: Self.settings)
                    == nil)
        }
    }

    @Test("Abbreviated keys are understood")
    func abbreviated() {
        let payload =
            #"{"o":{"name":"tv2mqtt"},"dev":{"ids":["tv2mqtt_roku_a"]},"cmps":{"p":{"p":"switch","cmd_t":"tv2mqtt/roku_a/set/power"}}}"#
        #expect(
            DiscoveryCache.isOwnedConfig(
                topic: "homeassistant/device/roku_a/config", payload: payload, settings: Self.settings)
                == TVID("roku_a"))
        let entity = #"{"o":{"name":"tv2mqtt"},"avty":[{"t":"tv2mqtt/bridge/state"}]}"#
        #expect(
            DiscoveryCache.isOwnedConfig(
                topic: "homeassistant/button/roku_a/home/config", payload: entity, settings: Self.settings)
                == TVID("roku_a"))
    }

    struct Foreign: CustomTestStringConvertible, Sendable {
        var why: String
        var topic: String
        var payload: String
        var testDescription: String { why }
    }

    static let good = tv("roku_a", style: .device)[0]

    static let foreign: [Foreign] = [
        Foreign(
            why: "another application", topic: good.topic,
            payload: good.payload.replacing("\"name\":\"tv2mqtt\"", with: "\"name\":\"zigbee2mqtt\"")),
        Foreign(
            why: "another instance's base topic", topic: good.topic,
            payload: tv(
                "roku_a", style: .device, settings: DiscoverySettings(baseTopic: "tv2mqtt_office", version: "1"))[0]
                .payload),
        Foreign(
            why: "no origin", topic: "homeassistant/switch/roku_a/power/config",
            payload: #"{"command_topic":"tv2mqtt/roku_a/set/power"}"#),
        Foreign(why: "another discovery prefix", topic: "ha/device/roku_a/config", payload: good.payload),
        Foreign(why: "not a config topic", topic: "homeassistant/device/roku_a/state", payload: good.payload),
        Foreign(why: "a node that is no TV id", topic: "homeassistant/device/Roku_A/config", payload: good.payload),
        Foreign(why: "an unknown platform", topic: "homeassistant/media_player/roku_a/x/config", payload: good.payload),
        Foreign(why: "an empty payload", topic: good.topic, payload: ""),
        Foreign(why: "malformed JSON", topic: good.topic, payload: "{\"origin\":"),
        Foreign(why: "a JSON array", topic: good.topic, payload: "[]"),
        Foreign(
            why: "a topic that only starts like ours", topic: good.topic,
            payload: good.payload.replacing("tv2mqtt/", with: "tv2mqttx/")),
    ]

    @Test("Anything not unmistakably ours is left alone", arguments: foreign)
    func notOurs(_ sample: Foreign) {
        #expect(DiscoveryCache.owner(topic: sample.topic, payload: sample.payload, settings: Self.settings) == nil)
    }

    @Test("At startup, our configs that are not wanted any more are cleared and nothing else")
    func staleClears() {
        let known = Self.tv("roku_known", style: .device)
        let retained =
            known + Self.tv("roku_gone", style: .device) + Self.tv("roku_known", style: .entity)
            + DiscoveryBuilder.bridgeMessages(settings: Samples.settings(.entity))
            + [Foreign(why: "", topic: "homeassistant/device/zb/config", payload: #"{"o":{"name":"Zigbee2MQTT"}}"#)]
            .map { DiscoveryMessage(topic: $0.topic, payload: $0.payload) }
        let desired = Set((known + DiscoveryBuilder.bridgeMessages(settings: Self.settings)).map(\.topic))
        let clears = DiscoveryCache.staleClears(retained: retained, desiredTopics: desired, settings: Self.settings)
        let expected =
            ["homeassistant/device/roku_gone/config"] + Self.tv("roku_known", style: .entity).map(\.topic)
            + DiscoveryBuilder.bridgeMessages(settings: Samples.settings(.entity)).map(\.topic)
        #expect(clears == expected.map(DiscoveryMessage.clear))
    }
}
