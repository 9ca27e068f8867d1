import Support

/// What `LGSession` asks its connection to do, in order.
enum LGSessionAction: Equatable, Sendable {
    /// Tell the bridge (a new key or pin, a pairing needed, a changed certificate).
    case emit(DriverEvent)
    /// A log line (never a key or a PIN).
    case log(LogLevel, String)
    /// Close the connection and fail what waits on it.
    case close

    /// A warning, made by name so the troubleshooting table's check finds its text
    /// (`LogLineTableTests`).
    static func warn(_ message: String) -> LGSessionAction { .log(.warning, message) }
    static func info(_ message: String) -> LGSessionAction { .log(.info, message) }
    static func debug(_ message: String) -> LGSessionAction { .log(.debug, message) }
}
