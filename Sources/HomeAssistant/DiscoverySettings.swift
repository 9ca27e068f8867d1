import MQTTInterface
import TVModel

/// How tv2mqtt announces itself to Home Assistant (README › Configuration, `homeassistant`).
public struct DiscoverySettings: Sendable, Equatable {
    /// README › Configuration, `homeassistant.discovery`.
    public enum Style: String, Sendable, Equatable, CaseIterable {
        /// One `<prefix>/device/<tv>/config` per TV (device-based discovery, Home Assistant 2024.11+).
        case device
        /// One `<prefix>/<platform>/<tv>/<key>/config` per entity, for older Home Assistant.
        case entity

        /// Whether Home Assistant of this style's versions has `platform` over MQTT. Entity style
        /// serves Home Assistant from 2024.3, which has no MQTT `notify` (2024.5): there the
        /// `toast` entity is left out (its command topic works without it); device style
        /// (2024.11+) has every platform.
        public func hasPlatform(_ platform: EntityDescription.Platform) -> Bool {
            self == .device || platform != .notify
        }
    }

    /// The root of every tv2mqtt topic (`--base-topic`, default `tv2mqtt`).
    public var baseTopic: String
    /// Home Assistant's discovery prefix (`--discovery-prefix`, default `homeassistant`).
    public var discoveryPrefix: String
    public var style: Style
    /// MAC `connections` in the device block only when true. A MAC merges our device
    /// with the core `roku`/`samsungtv` integration's device, which the user must choose.
    public var mergeWithNativeDevices: Bool
    /// The bridge's software version: the origin's `sw_version` and the bridge device's `sw_version`.
    public var version: String
    /// The origin's `support_url` (http or https); left out when nil.
    public var originURL: String?
    /// Every diagnostic sensor a vendor's driver may declare (`Vendor.diagnosticSensors`): a
    /// device config lists those a TV lacks as removal stubs, and removing a TV in entity style
    /// clears their topics too.
    public var diagnosticSensors: [DiagnosticSensor] = []
    /// Every switch and select a vendor's driver may declare (`Vendor.controls`), kept as the
    /// sensors are: removal stubs for TVs without them, cleared when a TV is removed.
    public var controls: [DeclaredControl] = []

    public init(
        baseTopic: String = "tv2mqtt", discoveryPrefix: String = "homeassistant", style: Style = .device,
        mergeWithNativeDevices: Bool = false, version: String, originURL: String? = nil
    ) {
        self.baseTopic = baseTopic
        self.discoveryPrefix = discoveryPrefix
        self.style = style
        self.mergeWithNativeDevices = mergeWithNativeDevices
        self.version = version
        self.originURL = originURL
    }

    /// The base topic reduced to `[a-z0-9_-]`: lowercased, every other character replaced by `_`
    /// ("home/TV" → "home_tv"). Distinct base topics that reduce to the same text share a bridge id.
    public var instanceName: String {
        var result = ""
        for scalar in baseTopic.lowercased().unicodeScalars {
            let isAllowed =
                ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            result.unicodeScalars.append(isAllowed ? scalar : "_")
        }
        return result.isEmpty ? "tv2mqtt" : result
    }

    /// The bridge device's identifier and discovery node id: `tv2mqtt_bridge_<instance>`.
    ///
    /// It carries the base topic because several instances may share one broker and one
    /// Home Assistant (deploy/README.md › Several instances), each with its own `base_topic` and so
    /// its own bridge device. Every TV device names it in `via_device`.
    public var bridgeID: String { "tv2mqtt_bridge_" + instanceName }

    /// The topics under `baseTopic` that configs name (state, availability, commands).
    public var topics: Topics { Topics(base: baseTopic) }
}
