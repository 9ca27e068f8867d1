import TVModel

/// Something a driver reports outside the poll cycle.
public enum DriverEvent: Equatable, Sendable {
    /// State pushed by the TV (ECP-2 events, Samsung events): publish it at once.
    case state(TVSnapshot)
    /// Identity, capabilities or apps changed (an app installed, volume now known…).
    case description(TVDescription)
    /// A TV that pairs needs the user to approve tv2mqtt (or type a PIN); `message` says what
    /// to do.
    case pairingRequired(String)
    /// A new token to persist (a Samsung's token, an LG's client-key; never log it).
    case token(String)
    /// The TLS certificate fingerprint to pin (hex; Samsung, LG), or a change from the pinned one.
    case certificatePinned(String)
    case certificateChanged(pinned: String, seen: String)
    /// Something worth a warning that is not tied to a command.
    case warning(String)
}
