/// When a TV last said why its remote control is limited (the `limited_mode` event and its
/// log line): the same words at most once an hour per TV, however often the TV's state turns
/// limited again, so a setting that flaps does not flood the log.
struct LimitedNotice {
    static let quietPeriod = Duration.seconds(3600)

    private var last: (message: String, at: ContinuousClock.Instant)?

    /// Whether to say `message` now; remembers it when so.
    mutating func shouldSay(_ message: String, at now: ContinuousClock.Instant = .now) -> Bool {
        if let last, last.message == message, now - last.at < Self.quietPeriod { return false }
        last = (message, now)
        return true
    }
}
