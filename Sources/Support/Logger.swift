import Synchronization

/// One log event, as handed to a `LogSink`.
public struct LogRecord: Sendable {
    public let level: LogLevel
    public let label: String
    public let message: String
    /// Structured context in insertion order (`tv=roku_x01 op=keypress`).
    public let metadata: [(String, String)]
    /// Wall-clock time of the event, seconds since the Unix epoch.
    public let time: Double
}

/// Where log records go: standard error, a test's capture buffer…
public protocol LogSink: Sendable {
    func write(_ record: LogRecord)
}

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

/// A small structured logger, passed to whoever needs it (never global).
///
/// Messages are `@autoclosure`s, so a disabled level costs one atomic load. Never pass
/// secrets (passwords, tokens) in a message or metadata.
public struct Logger: Sendable {
    public let label: String
    public let sink: any LogSink
    public let threshold: LogThreshold
    public private(set) var metadata: [(String, String)]

    public init(label: String, sink: any LogSink, threshold: LogThreshold, metadata: [(String, String)] = []) {
        self.label = label
        self.sink = sink
        self.threshold = threshold
        self.metadata = metadata
    }

    /// A logger that drops everything (for tools and tests that do not care).
    public static let disabled = Logger(label: "", sink: DiscardingSink(), threshold: LogThreshold(.error))

    /// The same logger with another label (the component: "mqtt", "roku", "bridge"…).
    public func labeled(_ label: String) -> Logger {
        Logger(label: label, sink: sink, threshold: threshold, metadata: metadata)
    }

    /// The same logger with one more metadata pair on every record.
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata.append((key, value))
        return copy
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= threshold.level }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        guard isEnabled(level) else { return }
        sink.write(
            LogRecord(
                level: level, label: label, message: message(), metadata: metadata + extra, time: wallClockSeconds()))
    }

    public func trace(_ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        log(.trace, message(), extra)
    }

    public func debug(_ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        log(.debug, message(), extra)
    }

    public func info(_ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        log(.info, message(), extra)
    }

    public func warning(_ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        log(.warning, message(), extra)
    }

    public func error(_ message: @autoclosure () -> String, _ extra: [(String, String)] = []) {
        log(.error, message(), extra)
    }
}

/// Drops every record.
public struct DiscardingSink: LogSink {
    public init() {}
    public func write(_ record: LogRecord) {}
}

/// Keeps records in memory, for tests that assert on what was logged.
public final class CapturingSink: LogSink {
    private let records = Mutex<[LogRecord]>([])

    public init() {}

    public func write(_ record: LogRecord) {
        records.withLock { $0.append(record) }
    }

    public var all: [LogRecord] { records.withLock { $0 } }

    /// Every record rendered as one text line, for "this secret never appears" checks.
    public var lines: [String] { all.map { LogFormat.text.render($0) } }
}
