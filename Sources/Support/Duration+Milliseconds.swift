/// Durations as milliseconds, the unit of logs, JSON fields, `poll`/`epoll` timeouts and
/// simulated positions: converted here and nowhere else.
extension Duration {
    private static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

    /// Whole milliseconds, the fraction dropped (toward zero).
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / Self.attosecondsPerMillisecond
    }

    /// Milliseconds rounded up, so a wait that has not yet passed never becomes a 0 timeout
    /// (which would spin).
    public var millisecondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + Self.attosecondsPerMillisecond - 1) / Self.attosecondsPerMillisecond
    }

    /// Milliseconds with their fraction, for statistics.
    public var fractionalMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / Double(Self.attosecondsPerMillisecond)
    }
}
