/// At most `limit` events per `window` from each source address (SSDP announcements), in
/// bounded memory: at most `maxSources` sources are tracked; past that, expired entries are
/// pruned, and while it is still full a new source is refused (a flood from many spoofed
/// addresses is then dropped; a real TV is still found by the next search).
struct SourceRateLimiter {
    let limit: Int
    let window: Duration
    let maxSources: Int
    private var entries: [String: (start: ContinuousClock.Instant, count: Int)] = [:]

    init(limit: Int, window: Duration, maxSources: Int) {
        self.limit = limit
        self.window = window
        self.maxSources = maxSources
    }

    var trackedSources: Int { entries.count }

    mutating func allow(_ source: String, now: ContinuousClock.Instant) -> Bool {
        if var entry = entries[source], now < entry.start + window {
            guard entry.count < limit else { return false }
            entry.count += 1
            entries[source] = entry
            return true
        }
        if entries[source] == nil && entries.count >= maxSources {
            prune(now: now)
            guard entries.count < maxSources else { return false }
        }
        entries[source] = (now, 1)
        return true
    }

    private mutating func prune(now: ContinuousClock.Instant) {
        entries = entries.filter { now < $0.value.start + window }
    }
}
