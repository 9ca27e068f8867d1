import Net

/// When a TV last said why its remote control is limited (the `limited_mode` event and its
/// log line): the same words at most once an hour per TV, however often the TV's state turns
/// limited again, so a setting that flaps does not flood the log.
struct LimitedNotice {
    static let quietPeriod = Duration.seconds(3600)

    /// Each message said within the quiet period, and when (a TV has one or two).
    private var said: [String: ContinuousClock.Instant] = [:]

    /// Whether to say `message` now; remembers it when so.
    mutating func shouldSay(
        _ message: String, at now: ContinuousClock.Instant = LoopClock.current.now
    ) -> Bool {
        said = said.filter { now - $0.value < Self.quietPeriod }
        guard said[message] == nil else { return false }
        said[message] = now
        return true
    }
}
