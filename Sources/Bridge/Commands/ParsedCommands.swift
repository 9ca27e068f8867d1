import TVModel
import Wire

/// Commands parsed from one MQTT message, in the order they are carried out, each within its
/// limits (`CheckedCommand`).
public struct ParsedCommands: Equatable, Sendable {
    public var checked: [CheckedCommand]
    /// Echoed in the response when the sender gave one.
    public var transaction: JSONValue?

    public var commands: [TVCommand] { checked.map(\.command) }
}
