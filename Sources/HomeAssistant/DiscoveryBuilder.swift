import MQTTInterface
import TVModel
import Wire

/// Builds Home Assistant MQTT discovery configs: (identity, capabilities, settings) → retained
/// messages. Pure: the same inputs always give the same bytes (sorted-key JSON), so
/// `DiscoveryCache` can tell a changed config from an unchanged one.
///
/// The choices behind the payloads' shape (entity style for Home Assistant before 2024.11,
/// full key names, explicit topics per component, `object_id` beside `default_entity_id`, no
/// `qos`, removal stubs in device style) and why each holds are in README.md beside this file.
public enum DiscoveryBuilder {
    /// The configs for one TV: one device config, or one config per entity.
    public static func messages(
        for identity: TVIdentity, capabilities: TVCapabilities, settings: DiscoverySettings
    ) -> [DiscoveryMessage] {
        let node = Node.tv(identity, capabilities: capabilities, settings: settings)
        let rows = EntityTable.rows(
            for: capabilities, kind: identity.kind, known: (settings.diagnosticSensors, settings.controls)
        )
        .filter { row, _ in settings.style.hasPlatform(row.platform) }
        let triggers = DeviceTrigger.tv.map { ($0, $0.applies(capabilities)) }
        return messages(node: node, rows: rows, triggers: triggers, settings: settings)
    }

    /// The bridge device's configs (README › Home Assistant setup).
    public static func bridgeMessages(settings: DiscoverySettings) -> [DiscoveryMessage] {
        messages(node: .bridge(settings: settings), rows: EntityTable.bridge.map { ($0, true) }, settings: settings)
    }

    /// Empty payloads that remove a TV from Home Assistant: the device config, or every entity
    /// topic the table could have produced for it (clearing a topic that holds nothing is harmless).
    public static func clearMessages(for id: TVID, settings: DiscoverySettings) -> [DiscoveryMessage] {
        switch settings.style {
        case .device:
            return [.clear(deviceTopic(node: id.rawValue, settings: settings))]
        case .entity:
            let declared = EntityTable.declaredRows(settings.diagnosticSensors, settings.controls)
            return (EntityTable.tv + declared).filter { settings.style.hasPlatform($0.platform) }.map {
                .clear(entityTopic($0, node: id.rawValue, settings: settings))
            }
                + DeviceTrigger.tv.map { .clear(triggerTopic($0, node: id.rawValue, settings: settings)) }
        }
    }

    /// `<prefix>/device/<node>/config`.
    public static func deviceTopic(node: String, settings: DiscoverySettings) -> String {
        settings.discoveryTopics.device(node: node)
    }

    /// `<prefix>/<platform>/<node>/<key>/config`.
    public static func entityTopic(_ row: EntityDescription, node: String, settings: DiscoverySettings) -> String {
        settings.discoveryTopics.component(row.platform, node: node, key: row.key)
    }

    /// The origin block: `name`, `sw_version`, `support_url` (mandatory for device discovery).
    public static func origin(settings: DiscoverySettings) -> JSONValue {
        var origin: [String: JSONValue] = ["name": "tv2mqtt", "sw_version": .string(settings.version)]
        if let url = settings.originURL, !url.isEmpty { origin["support_url"] = .string(url) }
        return .object(origin)
    }

    /// A Home Assistant entity object id: `[a-z0-9_]`, no leading, trailing or doubled `_`
    /// (`default_entity_id` is validated as an entity id; a TV id may contain `-`).
    public static func entityObjectID(_ text: String) -> String {
        var result = ""
        var lastWasUnderscore = true
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                result.unicodeScalars.append(scalar)
                lastWasUnderscore = false
            } else if !lastWasUnderscore {
                result += "_"
                lastWasUnderscore = true
            }
        }
        if result.hasSuffix("_") { result.removeLast() }
        return result
    }

    private static func messages(
        node: Node, rows: [(EntityDescription, Bool)], triggers: [(DeviceTrigger, Bool)] = [],
        settings: DiscoverySettings
    ) -> [DiscoveryMessage] {
        switch settings.style {
        case .device:
            var components: [String: JSONValue] = [:]
            for (row, applies) in rows {
                var component = applies ? self.component(row, node: node, settings: settings) : [:]
                component["platform"] = .string(row.platform.rawValue)
                components[row.key] = .object(component)
            }
            for (trigger, applies) in triggers {
                var component = applies ? self.trigger(trigger, node: node, settings: settings) : [:]
                component["platform"] = .string(EntityDescription.Platform.deviceAutomation.rawValue)
                components[trigger.key] = .object(component)
            }
            let payload: JSONValue = [
                "device": node.device, "origin": origin(settings: settings), "components": .object(components),
            ]
            return [
                DiscoveryMessage(topic: deviceTopic(node: node.id, settings: settings), payload: payload.serialized())
            ]
        case .entity:
            let entities = rows.filter(\.1).map { row, _ in
                (entityTopic(row, node: node.id, settings: settings), component(row, node: node, settings: settings))
            }
            let deviceTriggers = triggers.filter(\.1).map { trigger, _ in
                (
                    triggerTopic(trigger, node: node.id, settings: settings),
                    self.trigger(trigger, node: node, settings: settings)
                )
            }
            return (entities + deviceTriggers).map { topic, component in
                var config = component
                config["device"] = node.device
                config["origin"] = origin(settings: settings)
                return DiscoveryMessage(topic: topic, payload: JSONValue.object(config).serialized())
            }
        }
    }

    /// One entity's options, without `platform`, `device` and `origin`.
    static func component(
        _ row: EntityDescription, node: Node, settings: DiscoverySettings
    ) -> [String: JSONValue] {
        var config = row.extra
        let objectID = entityObjectID(node.objectIDPrefix + "_" + row.key)
        config["unique_id"] = .string(node.uniqueIDPrefix + "_" + row.key)
        config["object_id"] = .string(objectID)
        config["default_entity_id"] = .string(row.platform.rawValue + "." + objectID)
        config["name"] = .optional(row.name)
        if let icon = row.icon { config["icon"] = .string(icon) }
        if let category = row.category { config["entity_category"] = .string(category.rawValue) }
        // Entity style serves Home Assistant from 2024.3, whose sensors take a rendered `None`
        // as unknown only when numeric (core PR #127032, 2024.10, took it for all): a text
        // sensor shows the text "None", an enum sensor with options refuses it with an error,
        // and 2024.3's MQTT sensor takes no `options` at all. So there sensors are plain text
        // sensors that render `unknown`, Home Assistant's state for a value it does not know.
        let legacySensor = settings.style == .entity && row.platform == .sensor
        let deviceClass = legacySensor && row.deviceClass == "enum" ? nil : row.deviceClass
        if let deviceClass { config["device_class"] = .string(deviceClass) }
        if !row.enabledByDefault { config["enabled_by_default"] = false }

        let availability: [String]
        switch row.availability {
        case .bridgeAndTV:
            availability = [settings.topics.bridgeState] + (node.topic(.tvAvailability, settings).map { [$0] } ?? [])
        case .bridgeOnly: availability = [settings.topics.bridgeState]
        case .none: availability = []
        }
        if !availability.isEmpty {
            config["availability"] = .array(availability.map { ["topic": .string($0)] })
            config["availability_mode"] = "all"
        }

        if let stateTopic = row.stateTopic.flatMap({ node.topic($0, settings) }) {
            // An image entity reads raw bytes from its `image_topic` (it has no state topic).
            config[row.platform == .image ? "image_topic" : "state_topic"] = .string(stateTopic)
        }
        if let reading = row.reading {
            var options: [String] = []
            if case .option(_, let source) = reading {
                options = node.options(source)
                if row.platform == .select || deviceClass == "enum" {
                    config["options"] = .array(options.map(JSONValue.string))
                }
            }
            if case .payload(let on, let off) = reading {
                config["payload_on"] = .string(on)
                config["payload_off"] = .string(off)
            }
            let unknown = legacySensor ? ValueTemplate.unknownState : ValueTemplate.payloadNone
            if let template = ValueTemplate.make(reading, options: options, unknown: unknown) {
                config["value_template"] = .string(template)
            }
        }
        if let command = row.command {
            switch command {
            case .tvSet(let property):
                if let tv = node.tv { config["command_topic"] = .string(settings.topics.set(tv, property.rawValue)) }
            case .tvSetDeclared(let key):
                if let tv = node.tv { config["command_topic"] = .string(settings.topics.set(tv, key)) }
            case .bridgeRequest(let action): config["command_topic"] = .string(settings.topics.bridgeRequest(action))
            case .bridgeRequestForTV(let action):
                config["command_topic"] = .string(settings.topics.bridgeRequest(action))
                if let tv = node.tv {
                    let id = JSONValue.string(tv.rawValue).serialized()
                    if row.platform == .text {
                        // The text typed, as a JSON string, beside the id.
                        config["command_template"] = .string(#"{"id":\#(id),"pin":{{ value | tojson }}}"#)
                    } else {
                        config["payload_press"] = .string(#"{"id":\#(id)}"#)
                    }
                }
            }
        }
        if let press = row.payloadPress { config["payload_press"] = .string(press) }
        return config
    }
}
