import HomeAssistant
import Testing

/// Every discovery topic is built and read by `DiscoveryTopics`: what it builds, it reads back.
@Suite("Discovery topics")
struct DiscoveryTopicsTests {
    let topics = DiscoveryTopics(prefix: "homeassistant")

    @Test("each layout's topic is built as Home Assistant expects and read back to its node")
    func roundTrip() {
        let device = topics.device(node: "roku_x01")
        let entity = topics.component(.switch, node: "roku_x01", key: "power")
        let trigger = topics.component(.deviceAutomation, node: "roku_x01", key: "turn_on_failed")
        #expect(device == "homeassistant/device/roku_x01/config")
        #expect(entity == "homeassistant/switch/roku_x01/power/config")
        #expect(trigger == "homeassistant/device_automation/roku_x01/turn_on_failed/config")
        for topic in [device, entity, trigger] {
            #expect(topics.node(of: topic) == "roku_x01", "\(topic)")
        }
    }

    @Test("other topics have no node: another prefix, an unknown platform, the wrong depth")
    func foreign() {
        let foreign = [
            "homeassistant/status", "other/device/x/config", "homeassistant/light2/x/y/config",
            "homeassistant/device/x/y/config", "homeassistant/switch/x/config", "homeassistant/device/x/state",
            "homeassistantx/device/x/config",
        ]
        for topic in foreign {
            #expect(topics.node(of: topic) == nil, "\(topic)")
        }
        #expect(topics.isConfig("homeassistant/light2/x/y/config"), "a config, only not one of ours")
        #expect(!topics.isConfig("homeassistant/status"))
    }

    @Test("the sweep's filters match both layouts under the prefix")
    func filters() {
        #expect(topics.everyConfig == ["homeassistant/device/+/config", "homeassistant/+/+/+/config"])
    }
}
