import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

/// Entities a driver declares through generic capabilities: the `find_remote` button pressing
/// the key the driver names, and its diagnostic text sensors. No row names a vendor.
@Suite("Entities drivers declare", .cpuBound)
struct DeclaredEntitiesTests {
    static let identity = TVIdentity(
        id: TVID("den")!, kind: TVKind(rawValue: "acme"), name: "Den", manufacturer: "Acme", host: "127.0.0.2",
        port: 7000)
    static let sensor = DiagnosticSensor(key: "remote_setting", name: "Remote setting", icon: "mdi:cog")

    static func components(_ capabilities: TVCapabilities, _ settings: DiscoverySettings) throws -> JSONValue {
        let message = try #require(
            DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: settings).first)
        return try #require(try JSONParser.parse(message.payload)["components"])
    }

    @Test("the driver's key is find_remote's press; its sensors read their own field; shadowing keys are ignored")
    func declared() throws {
        var capabilities = TVCapabilities()
        capabilities.findRemoteKey = "BEEP"
        capabilities.diagnosticSensors = [
            Self.sensor, DiagnosticSensor(key: "power", name: "Shadow"), DiagnosticSensor(key: "app", name: "Shadow"),
            DiagnosticSensor(key: "Bad Key", name: "Bad"),
        ]
        let settings = DiscoverySettings(version: "1")
        let components = try Self.components(capabilities, settings)
        #expect(components["find_remote"]?["payload_press"] == "BEEP")
        #expect(components["find_remote"]?["command_topic"] == "tv2mqtt/den/set/key")
        let sensor = try #require(components["remote_setting"])
        #expect(sensor["platform"] == "sensor" && sensor["entity_category"] == "diagnostic")
        #expect(sensor["name"] == "Remote setting" && sensor["icon"] == "mdi:cog")
        let template = sensor["value_template"]?.stringValue ?? ""
        #expect(template.contains("value_json.remote_setting"), "\(template)")
        // "power" and "app" stay the table's switch and select (stubs here: no power, no apps).
        #expect(components["power"]?.objectValue == ["platform": "switch"])
        #expect(components["app"]?.objectValue == ["platform": "select"])
        #expect(components["Bad Key"] == nil)
    }

    @Test("a declared switch and select read their own field and send to set/<key>; shadowing keys are ignored")
    func declaredControls() throws {
        var capabilities = TVCapabilities()
        capabilities.controls = [
            Samples.artSwitch,
            DeclaredControl(key: "picture_mode", platform: .select, name: "Picture mode", options: ["vivid", "movie"]),
            DeclaredControl(key: "screen", platform: .switch, name: "Shadow"),
            DeclaredControl(key: "key", platform: .switch, name: "Shadow"),
        ]
        let components = try Self.components(capabilities, DiscoverySettings(version: "1"))
        // The config the table's own art_mode row made before drivers declared it.
        let art = try #require(components["art_mode"]?.objectValue)
        let expected: [String: JSONValue] = [
            "platform": "switch", "name": "Art mode", "icon": "mdi:image-frame",
            "unique_id": "tv2mqtt_den_art_mode", "object_id": "den_art_mode",
            "default_entity_id": "switch.den_art_mode",
            "state_topic": "tv2mqtt/den/state", "command_topic": "tv2mqtt/den/set/art_mode",
            "availability": [["topic": "tv2mqtt/bridge/state"], ["topic": "tv2mqtt/den/availability"]],
            "availability_mode": "all", "value_template": art["value_template"] ?? .null,
        ]
        #expect(art == expected)
        let template = art["value_template"]?.stringValue ?? ""
        #expect(template.contains("value_json.art_mode") && template.contains("'OFF'"), "\(template)")
        let select = try #require(components["picture_mode"])
        #expect(select["platform"] == "select" && select["options"] == ["vivid", "movie"])
        #expect(select["command_topic"] == "tv2mqtt/den/set/picture_mode")
        // "screen" stays the table's switch (a stub: no screen control); a property is no key.
        #expect(components["screen"]?.objectValue == ["platform": "switch"])
        #expect(components["key"] == nil)
    }

    @Test("a sensor another vendor declares is a removal stub here, and removing a TV clears its entity topic")
    func knownButUndeclared() throws {
        var settings = DiscoverySettings(version: "1")
        settings.diagnosticSensors = [Self.sensor]
        let components = try Self.components(TVCapabilities(), settings)
        #expect(components["remote_setting"]?.objectValue?.keys.sorted() == ["platform"])
        #expect(components["find_remote"]?.objectValue?.keys.sorted() == ["platform"])
        settings.style = .entity
        let cleared = DiscoveryBuilder.clearMessages(for: Self.identity.id, settings: settings).map(\.topic)
        #expect(cleared.contains("homeassistant/sensor/den/remote_setting/config"))
        let entityTopics = DiscoveryBuilder.messages(
            for: Self.identity, capabilities: TVCapabilities(), settings: settings
        ).map(\.topic)
        let published = entityTopics.contains { $0.contains("remote_setting") }
        #expect(!published, "\(entityTopics)")
    }
}
