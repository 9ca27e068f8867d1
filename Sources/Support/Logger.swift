import Synchronization

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
