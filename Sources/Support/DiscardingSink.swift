/// Drops every record.
public struct DiscardingSink: LogSink {
    public init() {}
    public func write(_ record: LogRecord) {}
}
