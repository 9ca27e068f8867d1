/// What a `power` command asks for: ON and OFF are idempotent.
public enum PowerAction: String, Sendable, Equatable {
    case on = "ON"
    case off = "OFF"
    /// Resolved against the confirmed current state, never sent blindly as a toggle key.
    case toggle = "TOGGLE"
}
