import Harness
import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

/// The Home Assistant YAML under examples/homeassistant names only entities the bridge
/// creates: a Roku TV configured as `living_room` and a Samsung TV as `bedroom`, plus the
/// bridge's own. A renamed key or a typo in an example fails here, not in a user's setup.
@Suite("Home Assistant examples")
struct ExampleYAMLTests {
    static let examples = TestFixtures.repositoryDirectory + "/examples/homeassistant"
    static let platforms = ["switch", "select", "sensor", "binary_sensor", "button", "text", "number", "event"]
    /// Actions of those platforms (`button.press`…), which look like entity ids but are not.
    static let actions: Set<String> = ["press", "turn_on", "turn_off", "turn_", "toggle", "select_option", "set_value"]

    /// Every `default_entity_id` in the discovery the bridge publishes for the example TVs.
    static func createdEntityIDs() throws -> Set<String> {
        let settings = Samples.settings(.device)
        var (roku, rokuCapabilities) = try Samples.rokuTV()
        roku.id = TVID("living_room")!
        rokuCapabilities.channelList = ["7.1 KQED"]  // a Roku TV whose tuner has scanned channels
        var (samsung, samsungCapabilities) = try Samples.samsungTV()
        samsung.id = TVID("bedroom")!
        let messages =
            DiscoveryBuilder.messages(for: roku, capabilities: rokuCapabilities, settings: settings)
            + DiscoveryBuilder.messages(for: samsung, capabilities: samsungCapabilities, settings: settings)
            + DiscoveryBuilder.bridgeMessages(settings: settings)
        var ids: Set<String> = []
        for message in messages where !message.isClear {
            let config = try JSONParser.parse(Array(message.payload.utf8))
            for (_, component) in config["components"]?.objectValue ?? [:] {
                if let id = component["default_entity_id"]?.stringValue { ids.insert(id) }
            }
        }
        return ids
    }

    /// `platform.object_id` words in a YAML text.
    static func entityIDs(in text: String) -> Set<String> {
        var found: Set<String> = []
        let characters = Array(text.unicodeScalars)
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
        var index = 0
        while index < characters.count {
            guard isWord(characters[index]), index == 0 || !isWord(characters[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count && (isWord(characters[end]) || characters[end] == ".") { end += 1 }
            let word = String(String.UnicodeScalarView(characters[index..<end]))
            let parts = word.split(separator: ".")
            if parts.count == 2, platforms.contains(String(parts[0])), !actions.contains(String(parts[1])) {
                found.insert(word)
            }
            index = end
        }
        return found
    }

    @Test(
        "every entity id an example names is one the bridge creates",
        arguments: ["universal-media-player.yaml", "remote-card.yaml", "automations.yaml"])
    func namesOnlyCreatedEntities(file: String) throws {
        let text = try #require(FileText.read(Self.examples + "/" + file))
        let named = Self.entityIDs(in: text)
        #expect(!named.isEmpty, "\(file) names no entities")
        let unknown = named.subtracting(try Self.createdEntityIDs()).sorted()
        #expect(unknown.isEmpty, "\(file) names entities the bridge does not create: \(unknown)")
    }

    @Test("the scanner finds entity ids and skips service names")
    func scanner() {
        let text = """
            entity_id: switch.living_room_power
            action: button.press
            action: "switch.turn_{{ 'on' }}"
            template: "{{ states('sensor.x_y') }}"
            source_list: select.living_room_app|options
            """
        let found = Self.entityIDs(in: text)
        #expect(found == ["switch.living_room_power", "sensor.x_y", "select.living_room_app"])
    }
}
