import Synchronization

/// The minimum level that is written; shared by every logger made from one root, and
/// changeable at run time (the bridge's `log_level` select).
public final class LogThreshold: Sendable {
    private let raw: Atomic<Int>

    public init(_ level: LogLevel) { raw = Atomic(level.rawValue) }

    public var level: LogLevel {
        get { LogLevel(rawValue: raw.load(ordering: .relaxed)) ?? .info }
        set { raw.store(newValue.rawValue, ordering: .relaxed) }
    }
}
