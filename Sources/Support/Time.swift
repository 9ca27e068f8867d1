import Glibc

/// Wall-clock seconds since the Unix epoch, with sub-second precision.
public func wallClockSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
}

/// `2026-11-22T10:00:00.123Z` (milliseconds) or `2026-11-22T10:00:00Z` (`fractional: false`).
public func isoTimestamp(_ seconds: Double, fractional: Bool = true) -> String {
    var whole = time_t(seconds.rounded(.down))
    var parts = tm()
    gmtime_r(&whole, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    text += "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    if fractional {
        let millis = min(999, Int((seconds - seconds.rounded(.down)) * 1000))
        text += "." + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)"
    }
    return text + "Z"
}
