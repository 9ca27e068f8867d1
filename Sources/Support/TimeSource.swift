/// Where code outside the state machines reads "now" when a decision depends on elapsed time (a
/// retry delay, an expiry): injected, so a test moves time forward instead of waiting it out.
/// (The state machines take `now` as a parameter already.)
public struct TimeSource: Sendable {
    private let read: @Sendable () -> ContinuousClock.Instant

    public init(_ read: @escaping @Sendable () -> ContinuousClock.Instant) { self.read = read }

    public var now: ContinuousClock.Instant { read() }

    /// The continuous clock itself.
    public static let system = TimeSource { .now }
}
