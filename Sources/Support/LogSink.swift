/// Where log records go: standard error, a test's capture buffer…
public protocol LogSink: Sendable {
    func write(_ record: LogRecord)
}
