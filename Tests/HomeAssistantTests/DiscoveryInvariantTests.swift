import HomeAssistant
import MQTTInterface
import TVModel
import TestSupport
import Testing
import Wire

/// Properties every TV's configs keep, over many capability combinations and both styles.
@Suite("Discovery invariants", .cpuBound)
struct DiscoveryInvariantTests {
    /// One entity as Home Assistant sees it: its platform and its config without device and origin.
    struct Entity: Equatable {
        var key: String
        var platform: String
        var config: [String: JSONValue]
    }

    /// The names the bridge writes in a state document.
    static let stateDocumentFields = Set(StateDocument.Field.allCases.map(\.rawValue))

    static let awkwardApps = ["it's", "a\\b", "{{ x }}", "100%", "MLB.TV®", "Netflix", "Netflix", "", "tab\there"]

    /// A sample of the 256 sets of boolean capabilities: every 7th, all of them on, and each one
    /// alone, so every capability is seen on and off with every kind, app list and input list
    /// (all 256 cost seven seconds of CPU in a debug build, starving the suite's network tests).
    static let sample = Set(Array(stride(from: 0, to: 256, by: 7)) + [255] + (0..<8).map { 1 << $0 }).sorted()

    static let combinations: [(TVKind, TVCapabilities)] = sample.map { index in
        let bit = { (n: Int) in index & (1 << n) != 0 }
        let apps = [[], ["Netflix", "YouTube"], awkwardApps][index % 3]
        let inputs = index % 5 < 2 ? [] : ["HDMI1", "Antenna TV"]
        let capabilities = TVCapabilities(
            power: bit(0), volumeKeys: bit(1), volumeLevel: bit(2), muteState: bit(3), inputs: inputs, apps: apps,
            keyboard: bit(4), mediaState: bit(5), limitedMode: bit(6), channels: bit(7))
        return (index.nonzeroBitCount % 2 == 0 ? .roku : .samsung, capabilities)
    }

    static func identity(_ kind: TVKind, id: String = "tv-1_a") -> TVIdentity {
        TVIdentity(
            id: TVID(id)!, kind: kind, name: "Living Room", manufacturer: kind == .roku ? "Roku" : "Samsung",
            model: "M", host: "203.0.113.2", port: 8060, macs: ["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"])
    }

    static func entities(_ kind: TVKind, _ capabilities: TVCapabilities, _ settings: DiscoverySettings) throws
        -> [Entity]
    {
        let messages = DiscoveryBuilder.messages(
            for: identity(kind), capabilities: capabilities, settings: settings)
        switch settings.style {
        case .device:
            #expect(messages.count == 1)
            let payload = try JSONParser.parse(messages[0].payload)
            let topLevelKeys = payload.objectValue.map { Set($0.keys) }
            #expect(topLevelKeys == ["components", "device", "origin"])
            return (payload["components"]?.objectValue ?? [:]).compactMap { key, value in
                var config = value.objectValue ?? [:]
                let platform = config.removeValue(forKey: "platform")?.stringValue ?? "?"
                return config.isEmpty ? nil : Entity(key: key, platform: platform, config: config)
            }.sorted { $0.key < $1.key }
        case .entity:
            return try messages.map { message in
                var config = try JSONParser.parse(message.payload).objectValue ?? [:]
                #expect(config["device"] != nil && config["origin"] != nil)
                config["device"] = nil
                config["origin"] = nil
                let levels = message.topic.split(separator: "/").map(String.init)
                return Entity(key: levels[3], platform: levels[1], config: config)
            }.sorted { $0.key < $1.key }
        }
    }

    @Test("Device and entity style describe the same entities with the same options")
    func stylesAgree() throws {
        for (kind, capabilities) in Self.combinations {
            let device = try Self.entities(kind, capabilities, Samples.settings(.device))
            let entity = try Self.entities(kind, capabilities, Samples.settings(.entity))
            #expect(device.map(Self.asEntityStyle) == entity, "\(kind) \(capabilities)")
            let triggers = DeviceTrigger.tv.filter { $0.applies(capabilities) }.map(\.key)
            let rows = EntityTable.entities(for: capabilities, kind: kind).map(\.key)
            #expect(device.map(\.key) == (rows + triggers).sorted())
        }
    }

    @Test("A device config keeps a platform-only stub for exactly the rows the TV lacks")
    func stubsForMissingRows() throws {
        for (kind, capabilities) in Self.combinations.prefix(64) {
            let message = DiscoveryBuilder.messages(
                for: Self.identity(kind), capabilities: capabilities, settings: Samples.settings(.device))[0]
            let components = try JSONParser.parse(message.payload)["components"]?.objectValue ?? [:]
            // The sensors and controls a vendor may declare are stubs too (none of these TVs
            // declares one).
            let known = Samples.settings.diagnosticSensors.map(\.key) + Samples.settings.controls.map(\.key)
            #expect(Set(components.keys) == Set(EntityTable.tv.map(\.key) + DeviceTrigger.tv.map(\.key) + known))
            for key in known { #expect(components[key]?.objectValue?.count == 1, "\(key)") }
            for trigger in DeviceTrigger.tv {
                let component = components[trigger.key]?.objectValue ?? [:]
                #expect(component["platform"] == "device_automation")
                #expect((component.count == 1) == !trigger.applies(capabilities), "\(trigger.key)")
            }
            for row in EntityTable.tv {
                let component = components[row.key]?.objectValue ?? [:]
                #expect(component["platform"] == .string(row.platform.rawValue))
                #expect((component.count == 1) == !row.applies(capabilities, kind), "\(row.key)")
            }
        }
    }

    @Test("No two entities of any TVs or the bridge share a unique_id or an entity id")
    func uniqueIDsAreUnique() throws {
        let settings = Samples.settings(.entity)
        let capabilities = Self.combinations.last!.1  // every capability on
        let perTV = EntityTable.entities(for: capabilities, kind: .roku).count
        let all: [DiscoveryMessage] =
            DiscoveryBuilder.bridgeMessages(settings: settings)
            + ["tv-1_a", "tv-1-a", "roku_x1", "samsung_x1"].flatMap { id in
                DiscoveryBuilder.messages(
                    for: Self.identity(.roku, id: id), capabilities: capabilities, settings: settings)
            }
        // Device triggers are not entities: no unique_id.
        let configs = try all.filter { !$0.topic.contains("/device_automation/") }.map {
            try JSONParser.parse($0.payload)
        }
        let uniqueIDs = configs.compactMap { $0["unique_id"]?.stringValue }
        #expect(uniqueIDs.count == configs.count)
        #expect(Set(uniqueIDs).count == uniqueIDs.count)
        // Entity ids are slugs, so "tv-1_a" and "tv-1-a" collide there; Home Assistant then adds "_2".
        let entityIDs = configs.compactMap { $0["default_entity_id"]?.stringValue }
        #expect(perTV > 20)
        #expect(Set(entityIDs).count == entityIDs.count - perTV)
    }

    @Test("Every entity but power, connected, event and pair needs the TV available as well as the bridge")
    func availability() throws {
        let settings = Samples.settings(.device)
        for (kind, capabilities) in Self.combinations {
            for entity in try Self.entities(kind, capabilities, settings) where entity.platform != "device_automation" {
                let topics = entity.config["availability"]?.arrayValue?.compactMap { $0["topic"]?.stringValue }
                // The event entity and the pair button must work while the TV is off.
                let bridgeOnly = ["power", "connected", "event", "pair"].contains(entity.key)
                #expect(
                    topics
                        == (bridgeOnly
                            ? ["tv2mqtt/bridge/state"] : ["tv2mqtt/bridge/state", "tv2mqtt/tv-1_a/availability"]))
                #expect(entity.config["availability_mode"] == "all")
            }
        }
    }

    @Test("MAC connections appear only when merging with native devices", arguments: DiscoverySettings.Style.allCases)
    func connectionsOnlyWhenMerging(style: DiscoverySettings.Style) throws {
        for merge in [false, true] {
            let messages = DiscoveryBuilder.messages(
                for: Self.identity(.samsung), capabilities: Self.combinations.last!.1,  // every capability on
                settings: Samples.settings(style, merge: merge))
            for message in messages {
                let device = try JSONParser.parse(message.payload)["device"]
                let expected: JSONValue? = merge ? [["mac", "aa:bb:cc:dd:ee:01"], ["mac", "aa:bb:cc:dd:ee:02"]] : nil
                #expect(device?["connections"] == expected)
                #expect(device?["identifiers"] == ["tv2mqtt_tv-1_a"])
                #expect(device?["via_device"] == "tv2mqtt_bridge_tv2mqtt")
            }
        }
    }

    @Test("Templates read only fields of the state document")
    func templatesReadStateDocumentFields() throws {
        for (kind, capabilities) in Self.combinations {
            for entity in try Self.entities(kind, capabilities, Samples.settings(.device)) {
                guard let template = entity.config["value_template"]?.stringValue else { continue }
                if entity.platform == EntityDescription.Platform.deviceAutomation.rawValue {
                    // A device trigger reads the TV's event topic, not the state document.
                    #expect(template == DeviceTrigger.valueTemplate)
                    continue
                }
                let fields = Self.fieldsRead(by: template)
                let readsNothing = template == "{{ '' }}"  // the keyboard's, always empty
                #expect(!fields.isEmpty || readsNothing, "\(entity.key): \(template)")
                #expect(fields.isSubset(of: Self.stateDocumentFields), "\(entity.key): \(fields)")
            }
        }
    }

    @Test("Select and enum templates can only yield one of their options or None")
    func optionTemplatesYieldOptions() throws {
        for (kind, capabilities) in Self.combinations {
            for entity in try Self.entities(kind, capabilities, Samples.settings(.device)) {
                guard let options = entity.config["options"]?.arrayValue?.compactMap(\.stringValue) else {
                    #expect(entity.platform != "select")
                    continue
                }
                #expect(!options.isEmpty && Set(options).count == options.count && !options.contains(""))
                let template = try #require(entity.config["value_template"]?.stringValue)
                let field = try #require(Self.fieldsRead(by: template).first)
                let value = "value_json." + field
                let head = "{{ \(value) if value_json is mapping and \(value) in "
                let tail = " else 'None' }}"
                #expect(template.hasPrefix(head) && template.hasSuffix(tail))
                let list = template.dropFirst(head.count).dropLast(tail.count)
                #expect(try JinjaLiteral.decodeList(String(list)) == options, "\(entity.key)")
            }
        }
    }

    @Test("Topics hold only [a-zA-Z0-9_/-]")
    func topicCharacters() throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/")
        for style in DiscoverySettings.Style.allCases {
            let settings = Samples.settings(style)
            var messages = DiscoveryBuilder.bridgeMessages(settings: settings)
            messages += DiscoveryBuilder.clearMessages(for: TVID("tv-1_a")!, settings: settings)
            for (kind, capabilities) in Self.combinations.prefix(100) {
                messages += DiscoveryBuilder.messages(
                    for: Self.identity(kind), capabilities: capabilities, settings: settings)
            }
            for message in messages {
                #expect(message.topic.allSatisfy(allowed.contains), "\(message.topic)")
                guard !message.isClear else { continue }
                for topic in try Self.topics(in: JSONParser.parse(message.payload)) {
                    #expect(topic.allSatisfy(allowed.contains), "\(topic)")
                    #expect(topic.hasPrefix("tv2mqtt/"))
                }
            }
        }
    }

    @Test("Entity ids are valid Home Assistant ids of the entity's platform, object ids their slugs")
    func entityIDs() throws {
        for (kind, capabilities) in Self.combinations.prefix(40) {
            for entity in try Self.entities(kind, capabilities, Samples.settings(.device))
            where entity.platform != "device_automation" {
                let objectID = try #require(entity.config["object_id"]?.stringValue)
                #expect(entity.config["default_entity_id"] == .string(entity.platform + "." + objectID))
                #expect(objectID == "tv_1_a_" + entity.key)
                #expect(Self.isEntityObjectID(objectID))
                #expect(entity.config["unique_id"] == .string("tv2mqtt_tv-1_a_" + entity.key))
            }
        }
        for text in ["Roku__X", "_a-b_", "--", "x", "ÄÖ tv"] {
            let slug = DiscoveryBuilder.entityObjectID(text)
            #expect(slug.isEmpty || Self.isEntityObjectID(slug), "\(text) → \(slug)")
        }
    }

    @Test("A stick gets no power, volume, mute or input entities; buttons press shared keys")
    func stickAndButtons() throws {
        let (identity, capabilities) = try Samples.rokuStick()
        let settings = Samples.settings(.entity)
        let entities = try Self.entities(identity.kind, capabilities, settings)
        let keys = Set(entities.map(\.key))
        #expect(keys.isDisjoint(with: ["power", "volume", "mute", "input", "volume_up", "volume_down", "mute_toggle"]))
        for entity in entities where entity.platform == "button" {
            let press = try #require(entity.config["payload_press"]?.stringValue)
            #expect(SharedKey(rawValue: press) != nil)
            #expect(entity.config["command_topic"] == "tv2mqtt/tv-1_a/set/key")
            let disabled = ["info", "rewind", "fast_forward", "replay", "channel_up", "channel_down", "search"]
            #expect((entity.config["enabled_by_default"] == false) == disabled.contains(entity.key))
        }
    }

    /// A device-style entity as entity style, for Home Assistant from 2024.3, sends it: a sensor
    /// is a plain text sensor (no enum options) whose template renders `unknown`, not `None`.
    static func asEntityStyle(_ entity: Entity) -> Entity {
        guard entity.platform == "sensor" else { return entity }
        var entity = entity
        if entity.config["device_class"] == "enum" {
            entity.config["device_class"] = nil
            entity.config["options"] = nil
        }
        if let template = entity.config["value_template"]?.stringValue, template.hasSuffix(" else 'None' }}") {
            entity.config["value_template"] = .string(template.dropLast(" else 'None' }}".count) + " else 'unknown' }}")
        }
        return entity
    }

    static func isEntityObjectID(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("_") && !text.hasSuffix("_") && !text.contains("__")
            && text.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The `value_json.<field>` names a template reads.
    static func fieldsRead(by template: String) -> Set<String> {
        var fields: Set<String> = []
        var rest = Substring(template)
        while let range = rest.firstRange(of: "value_json.") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0 == "_" }
            fields.insert(String(name))
            rest = rest[range.upperBound...]
        }
        return fields
    }

    static func topics(in config: JSONValue) -> [String] {
        var topics: [String] = []
        for (key, value) in config.objectValue ?? [:] {
            if key.hasSuffix("topic"), let topic = value.stringValue { topics.append(topic) }
            if key == "availability" { topics += value.arrayValue?.compactMap { $0["topic"]?.stringValue } ?? [] }
            if key == "components" { topics += value.objectValue?.values.flatMap(Self.topics) ?? [] }
        }
        return topics
    }
}

/// Decodes the Jinja string literals `ValueTemplate` writes, the way Jinja's lexer does
/// (`\xHH` escapes; every other character stands for itself).
enum JinjaLiteral {
    struct Malformed: Error {}

    static func decodeList(_ text: String) throws -> [String] {
        var scalars = Array(text.unicodeScalars)[...]
        guard scalars.popFirst() == "[", scalars.popLast() == "]" else { throw Malformed() }
        var result: [String] = []
        while !scalars.isEmpty {
            guard scalars.popFirst() == "'" else { throw Malformed() }
            var value = String.UnicodeScalarView()
            while let scalar = scalars.popFirst(), scalar != "'" {
                if scalar == "\\" {
                    guard scalars.popFirst() == "x", scalars.count >= 2,
                        let code = UInt32(String(String.UnicodeScalarView(scalars.prefix(2))), radix: 16),
                        let decoded = Unicode.Scalar(code)
                    else { throw Malformed() }
                    scalars = scalars.dropFirst(2)
                    value.append(decoded)
                } else {
                    value.append(scalar)
                }
            }
            result.append(String(value))
            if scalars.first == "," { scalars = scalars.dropFirst() }
        }
        return result
    }
}
