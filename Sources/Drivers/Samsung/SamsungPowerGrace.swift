/// The window after tv2mqtt powered a Samsung TV off, during which it is reported OFF even
/// though the REST API may still say `on` (the TV takes seconds to shut down, and stays in a
/// "grace" standby for about 15 s, tavicu#320). Without it the power switch in Home
/// Assistant would bounce back to ON for a poll or two.
///
/// 15 s: the grace standby seen on real TVs, which is also Home Assistant's choice with its
/// 10 s poll (`scan interval + 5 s`). The window ends early when the TV reports `standby` or
/// becomes unreachable (the truth has caught up) and when an ON command arrives.
public struct SamsungPowerGrace: Equatable, Sendable {
    public static let defaultWindow: Duration = .seconds(15)

    public var window: Duration
    public private(set) var until: ContinuousClock.Instant?

    public init(window: Duration = defaultWindow) {
        self.window = window
    }

    public func isActive(now: ContinuousClock.Instant) -> Bool {
        until.map { now < $0 } ?? false
    }

    public mutating func start(now: ContinuousClock.Instant) {
        until = now.advanced(by: window)
    }

    public mutating func end() {
        until = nil
    }

    /// The power to report for a REST reading (`info` nil: unreachable) at `now`, ending the
    /// window once the TV itself says it is off.
    public mutating func reading(for info: SamsungDeviceInfo?, now: ContinuousClock.Instant)
        -> SamsungPowerReading
    {
        let raw = SamsungPowerReading(info: info)
        guard isActive(now: now) else {
            until = nil
            return raw
        }
        if !raw.power {
            until = nil
            return raw
        }
        return SamsungPowerReading(power: false, powerMode: raw.powerMode)
    }
}
