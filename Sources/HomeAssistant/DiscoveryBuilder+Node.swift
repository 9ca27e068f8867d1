import MQTTInterface
import TVModel
import Wire

extension DiscoveryBuilder {
    /// What the builder needs to know about the device an entity belongs to: a TV or the bridge.
    struct Node {
        /// The discovery node id: the `<tv>` or the bridge id.
        var id: String
        var uniqueIDPrefix: String
        var objectIDPrefix: String
        var device: JSONValue
        /// The TV, or nil for the bridge.
        var tv: TVID?
        var apps: [String] = []
        var inputs: [String] = []
        var channels: [String] = []
        var soundOutputs: [String] = []

        static func tv(_ identity: TVIdentity, capabilities: TVCapabilities, settings: DiscoverySettings) -> Node {
            let id = identity.id.rawValue
            var device: [String: JSONValue] = [
                "identifiers": [.string("tv2mqtt_" + id)],
                "name": .string(identity.name.isEmpty ? id : identity.name),
                "via_device": .string(settings.bridgeID),
            ]
            // Entity style is for Home Assistant before 2024.11, and before 2024.9 the device
            // schema refuses the whole config for a `model_id` ("extra keys not allowed"); the
            // `model` shown stays the same in both styles.
            let modelID = settings.style == .entity ? nil : identity.modelID
            let optional: [(String, String?)] = [
                ("manufacturer", identity.manufacturer), ("model", identity.model), ("model_id", modelID),
                ("serial_number", identity.serialNumber), ("sw_version", identity.softwareVersion),
            ]
            for case (let key, let value?) in optional where !value.isEmpty { device[key] = .string(value) }
            if settings.mergeWithNativeDevices && !identity.macs.isEmpty {
                device["connections"] = .array(identity.macs.map { ["mac", .string($0)] })
            }
            return Node(
                id: id, uniqueIDPrefix: "tv2mqtt_" + id, objectIDPrefix: id, device: .object(device),
                tv: identity.id,
                apps: distinctOptions(capabilities.apps), inputs: distinctOptions(capabilities.inputs),
                channels: distinctOptions(capabilities.channelList),
                soundOutputs: distinctOptions(capabilities.soundOutputs))
        }

        static func bridge(settings: DiscoverySettings) -> Node {
            let name =
                settings.baseTopic == "tv2mqtt" ? "tv2mqtt bridge" : "tv2mqtt bridge (\(settings.baseTopic))"
            let device: JSONValue = [
                "identifiers": [.string(settings.bridgeID)], "name": .string(name), "manufacturer": "tv2mqtt",
                "model": "Bridge", "sw_version": .string(settings.version),
            ]
            return Node(
                id: settings.bridgeID, uniqueIDPrefix: settings.bridgeID,
                objectIDPrefix: settings.instanceName + "_bridge", device: device,
                tv: nil)
        }

        /// nil for a TV topic of the bridge node (no table row asks for one).
        func topic(_ topic: EntityDescription.StateTopic, _ settings: DiscoverySettings) -> String? {
            switch topic {
            case .tvState: tv.map(settings.topics.state)
            case .tvAvailability: tv.map(settings.topics.availability)
            case .tvAppIcon: tv.map(settings.topics.appIcon)
            case .bridgeState: settings.topics.bridgeState
            case .bridgeInfo: settings.topics.bridgeInfo
            case .tvEvent: tv.map(settings.topics.event)
            }
        }

        func options(_ source: EntityDescription.Options) -> [String] {
            switch source {
            case .apps: apps
            case .inputs: inputs
            case .channels: channels
            case .soundOutputs: soundOutputs
            case .fixed(let options): options
            }
        }

        /// Options in order, without empty or repeated names (two apps may share a name).
        static func distinctOptions(_ names: [String]) -> [String] {
            var seen: Set<String> = []
            return names.filter { !$0.isEmpty && seen.insert($0).inserted }
        }
    }
}
