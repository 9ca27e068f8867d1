import Synchronization

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
