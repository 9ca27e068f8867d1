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
