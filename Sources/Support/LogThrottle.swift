import Synchronization

/// At most one log line per `interval` for something that can happen once per datagram (a
/// hostile or broken device on the LAN can send thousands a second): the first goes to the log
/// at once, the rest of the interval are counted, and the next line says how many were held
/// back. One throttle per kind of line; it holds two numbers, whatever the flood.
public final class LogThrottle: Sendable {
    public let interval: Duration
    private let state = Mutex<(last: ContinuousClock.Instant?, heldBack: Int)>((nil, 0))

    public init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    /// nil when this line is to be held back; otherwise how many were held back since the last
    /// one let through.
    public func admit(now: ContinuousClock.Instant) -> Int? {
        state.withLock { state in
            if let last = state.last, now - last < interval {
                state.heldBack += 1
                return nil
            }
            let heldBack = state.heldBack
            state = (now, 0)
            return heldBack
        }
    }
}
