import HomeAssistant
import MQTTInterface
import TVModel
import Testing
import Wire

/// Issue 17: the `turn_on` device triggers and the event entity in both discovery styles.
@Suite("Device triggers and the event entity")
struct DeviceTriggerTests {
    @Test("entity style: one device_automation config per trigger, on the TV's event topic, and ours to clear")
    func entityStyleTriggers() throws {
        let settings = Samples.settings(.entity)
        let (identity, capabilities) = try Samples.rokuTV()
        let messages = DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings)
        let node = identity.id.rawValue
        for (key, subtype) in [("turn_on_requested", "requested"), ("turn_on_failed", "failed")] {
            let topic = "homeassistant/device_automation/\(node)/\(key)/config"
            let found = messages.first { $0.topic == topic }
            let message = try #require(found)
            let config = try JSONParser.parse(message.payload)
            #expect(config["automation_type"] == "trigger")
            #expect(config["type"] == "turn_on")
            #expect(config["subtype"] == .string(subtype))
            #expect(config["payload"] == .string(key))
            #expect(config["topic"] == .string("tv2mqtt/\(node)/event"))
            #expect(config["device"]?["identifiers"] == [.string("tv2mqtt_" + node)])
            #expect(
                DiscoveryCache.isOwnedConfig(topic: topic, payload: message.payload, settings: settings) == identity.id)
        }
        let clears = DiscoveryBuilder.clearMessages(for: identity.id, settings: settings).map(\.topic)
        #expect(clears.contains("homeassistant/device_automation/\(node)/turn_on_failed/config"))
    }

    @Test("a TV that cannot be switched on (a stick) gets no triggers; every TV gets the event entity")
    func stickHasNoTriggers() throws {
        let settings = Samples.settings(.entity)
        let (identity, capabilities) = try Samples.rokuStick()
        let topics = DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings).map(
            \.topic)
        let triggers = topics.filter { $0.contains("/device_automation/") }
        #expect(triggers.isEmpty)
        let event = "homeassistant/event/\(identity.id.rawValue)/event/config"
        #expect(topics.contains(event))
    }

    @Test("the event entity lists exactly the per-TV event types and reads <base>/<tv>/event")
    func eventEntity() throws {
        let (identity, capabilities) = try Samples.samsungTV()
        let message = try #require(
            DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: Samples.settings(.device))
                .first)
        let event = try JSONParser.parse(message.payload)["components"]?["event"]
        #expect(event?["platform"] == "event")
        let types = JSONValue.array(TVEventType.allCases.map { .string($0.rawValue) })
        #expect(event?["event_types"] == types)
        #expect(event?["state_topic"] == .string("tv2mqtt/\(identity.id.rawValue)/event"))
        #expect(event?["value_template"] == nil)
    }
}
