/// Log severity, lowest first.
///
/// trace = bytes and frames, debug = connections and polls, info = lifecycle and TVs
/// added or removed, warning = recoverable trouble, error = giving up on something.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    case trace, debug, info, warning, error

    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }

    public var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    public var description: String { name }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
