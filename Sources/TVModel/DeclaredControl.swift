/// A switch or select a driver declares for its TVs (`TVCapabilities.controls`): a feature
/// its vendor has and no other does, published without any row, field or command naming it.
///
/// `key` is at once the entity's key, the state document field it reads, the
/// `<base>/<tv>/set/<key>` property and the member of a `set` JSON command. The driver puts the
/// value in `TVSnapshot.declared[key]` and receives `TVCommand.control(key:value:)`, its value
/// one the control accepts (`accepts`), checked by the parser.
public struct DeclaredControl: Equatable, Hashable, Sendable, Codable {
    public enum Platform: String, Sendable, Codable {
        /// `ON`/`OFF`.
        case `switch`
        /// One of `options`.
        case select
    }

    /// `[a-z0-9_]`, 1–64 characters (`DiagnosticSensor.hasValidKey`).
    public var key: String
    public var platform: Platform
    /// The entity's name in Home Assistant.
    public var name: String
    /// `mdi:…`.
    public var icon: String?
    /// A select's options; empty for a switch.
    public var options: [String]
    /// The capability flag state files kept before the control was declared (`true` meant the
    /// TV had it): read once, when such a file is restored.
    public var stateFileFlag: String?

    public init(
        key: String, platform: Platform, name: String, icon: String? = nil, options: [String] = [],
        stateFileFlag: String? = nil
    ) {
        self.key = key
        self.platform = platform
        self.name = name
        self.icon = icon
        self.options = options
        self.stateFileFlag = stateFileFlag
    }

    /// A switch's values, as the state document carries them and its command takes them.
    public static let switchValues = ["ON", "OFF"]

    /// The values its state and its command take.
    public var values: [String] { platform == .switch ? Self.switchValues : options }

    /// Whether `key` can name an entity, a field and a command property.
    public var hasValidKey: Bool { DiagnosticSensor(key: key, name: name).hasValidKey }
}
