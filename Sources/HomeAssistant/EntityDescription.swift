import TVModel
import Wire

/// One Home Assistant entity, described as data (ARCHITECTURE "Entity tables are data").
///
/// A row says what the entity is (platform, name, icon, category, device class), where its
/// state comes from and how it is read, where its commands go, and which TVs get it. The
/// builder turns rows into discovery configs; adding a button is adding a row to `EntityTable`.
public struct EntityDescription: Sendable {
    /// The MQTT platforms tv2mqtt uses; all existed before Home Assistant 2024.11.
    public enum Platform: String, Sendable, CaseIterable {
        case `switch`, select, number, text, button, sensor, image
        /// Home Assistant 2024.5+: sends a message to `command_topic` (the `toast`). Left out
        /// in entity style, which serves Home Assistant from 2024.3 (`DiscoveryBuilder`).
        case notify
        case binarySensor = "binary_sensor"
        /// Home Assistant 2023.8+: the TV's events (`<base>/<tv>/event`).
        case event
        /// MQTT device triggers (`DeviceTrigger`, not entities: no table row has this platform).
        case deviceAutomation = "device_automation"
    }

    /// Home Assistant `entity_category` (sensors may only be `diagnostic`).
    public enum Category: String, Sendable {
        case config, diagnostic
    }

    /// The topic an entity reads its state from.
    public enum StateTopic: Sendable, Equatable {
        /// `<base>/<tv>/state`: the JSON state document.
        case tvState
        /// `<base>/<tv>/availability`: `online`/`offline`.
        case tvAvailability
        /// `<base>/<tv>/app_icon`: raw image bytes, read by an `image` entity as its `image_topic`.
        case tvAppIcon
        /// `<base>/bridge/state`: `online`/`offline`.
        case bridgeState
        /// `<base>/bridge/info`: JSON with `version` and `log_level`.
        case bridgeInfo
        /// `<base>/<tv>/event`: the TV's events, JSON with `event_type` (not retained).
        case tvEvent
    }

    /// How a state payload becomes the entity's state. JSON readings compile to a
    /// `value_template` that renders `None` when the field is absent or unusable, which
    /// Home Assistant MQTT takes as "unknown" for every platform used here (entity style's
    /// sensors render `unknown` instead, see `ValueTemplate`).
    public enum Reading: Sendable, Equatable {
        /// A string field shown as it is (at most 255 characters, Home Assistant's state limit).
        case text(String)
        /// A boolean field shown as `ON`/`OFF`.
        case onOff(String)
        /// A number field (booleans refused).
        case number(String)
        /// A string field that must be one of `options`; anything else is `None`, because
        /// a select or enum sensor logs an error for a state outside its options.
        case option(String, Options)
        /// The raw payload, compared with `payload_on`/`payload_off` (availability topics).
        case payload(on: String, off: String)
        /// Always the empty text: for the keyboard, which only sends. With no state at all Home
        /// Assistant would show "unknown" in the box; empty, it is ready for the next text.
        case cleared

        /// The JSON field read, if any.
        public var field: String? {
            switch self {
            case .text(let field), .onOff(let field), .number(let field), .option(let field, _): field
            case .payload, .cleared: nil
            }
        }
    }

    /// Where a select's or an enum sensor's options come from.
    public enum Options: Sendable, Equatable {
        /// The TV's apps (`TVCapabilities.apps`).
        case apps
        /// The TV's inputs (`TVCapabilities.inputs`).
        case inputs
        /// The tuner's channels (`TVCapabilities.channelList`, "7.1 KQED").
        case channels
        /// The TV's sound outputs (`TVCapabilities.soundOutputs`).
        case soundOutputs
        case fixed([String])
    }

    /// Where Home Assistant publishes commands.
    public enum CommandTopic: Sendable, Equatable {
        /// `<base>/<tv>/set/<property>` with a plain payload (README › MQTT topics and commands).
        case tvSet(CommandProperty)
        /// `<base>/<tv>/set/<key>` of a control the TV's driver declares (`DeclaredControl`).
        case tvSetDeclared(String)
        /// `<base>/bridge/request/<action>`.
        case bridgeRequest(String)
        /// `<base>/bridge/request/<action>` for the entity's TV: a button whose press payload
        /// is `{"id":"<tv>"}` (the `pair` button of a TV that pairs, `tv/pair`), or a text sent
        /// as `{"id":"<tv>","pin":"<text>"}` (the `pairing_code` text).
        case bridgeRequestForTV(String)
    }

    /// Which availability topics the entity depends on (`availability_mode: all`).
    public enum Availability: Sendable, Equatable {
        /// `<base>/bridge/state` and `<base>/<tv>/availability`: most TV entities.
        case bridgeAndTV
        /// `<base>/bridge/state` only: the power switch (it must be able to wake a sleeping
        /// TV), the `connected` sensor and the bridge's own entities.
        case bridgeOnly
        /// None: the bridge's connection sensor, which must be able to show "disconnected".
        case none
    }

    /// The component key in device discovery, the `<key>` of entity topics, the `unique_id` suffix.
    public var key: String
    public var platform: Platform
    /// nil = `name: null`: the device's main feature, named after the device (`power`).
    public var name: String?
    /// `mdi:…`; nil lets the device class choose.
    public var icon: String?
    public var category: Category?
    public var deviceClass: String?
    public var enabledByDefault: Bool
    public var stateTopic: StateTopic?
    public var reading: Reading?
    public var command: CommandTopic?
    /// A button's `payload_press` (a shared key name for TV buttons).
    public var payloadPress: String?
    /// A button's `payload_press` when the TV's driver names it (a key only its vendor has):
    /// used where `payloadPress` is nil; the row should apply only where this gives one.
    public var pressFromCapabilities: (@Sendable (TVCapabilities) -> String?)?
    public var availability: Availability
    /// Fixed platform options (`min`, `max`, `step`, `mode`, `unit_of_measurement`…).
    public var extra: [String: JSONValue]
    /// Whether a TV of this kind with these capabilities gets the entity.
    public var applies: @Sendable (TVCapabilities, TVKind) -> Bool

    public init(
        key: String, platform: Platform, name: String?, icon: String? = nil, category: Category? = nil,
        deviceClass: String? = nil, enabledByDefault: Bool = true, stateTopic: StateTopic? = nil,
        reading: Reading? = nil, command: CommandTopic? = nil, payloadPress: String? = nil,
        pressFromCapabilities: (@Sendable (TVCapabilities) -> String?)? = nil,
        availability: Availability = .bridgeAndTV, extra: [String: JSONValue] = [:],
        applies: @escaping @Sendable (TVCapabilities, TVKind) -> Bool = { _, _ in true }
    ) {
        self.key = key
        self.platform = platform
        self.name = name
        self.icon = icon
        self.category = category
        self.deviceClass = deviceClass
        self.enabledByDefault = enabledByDefault
        self.stateTopic = stateTopic
        self.reading = reading
        self.command = command
        self.payloadPress = payloadPress
        self.pressFromCapabilities = pressFromCapabilities
        self.availability = availability
        self.extra = extra
        self.applies = applies
    }

    /// A TV remote button: presses shared `key` through `<base>/<tv>/set/key`.
    static func button(
        _ entityKey: String, _ name: String, icon: String, key: SharedKey, enabled: Bool = true,
        applies: @escaping @Sendable (TVCapabilities, TVKind) -> Bool = { _, _ in true }
    ) -> EntityDescription {
        EntityDescription(
            key: entityKey, platform: .button, name: name, icon: icon, enabledByDefault: enabled,
            command: .tvSet(.key), payloadPress: key.rawValue, applies: applies)
    }
}
