import Wire

/// Where a command message came from: what a `command_failed` event and the response name.
struct CommandOrigin: Sendable {
    /// The topic it came on, for log lines and events.
    let topic: String
    /// The `set/<property>` it came on, or nil for `set`.
    let property: String?
    /// Echoed in the response when the sender gave one.
    let transaction: JSONValue?
}
