import TVSimulators
import Wire

/// A simulated TV whose keys have no answer, so a client's key is timed until the simulator
/// logs it: the samples pair each client's send stamps with these.
protocol KeyStamping: Sendable {
    /// The receipt stamps (wall clock, s) of keys logged since `since`, in order.
    func keyStamps(since: Double) -> [Double]
}

/// A simulated TV whose keys are lines of one `keyKind` in its command log (a Samsung's
/// `remote_key`, an LG's `button`): receipt times and stamps come from there, arrow keys change
/// no state, and it is ready at once.
protocol KeyLoggingBenchTV: BenchTV, KeyStamping {
    var log: CommandLog { get }
    static var keyKind: String { get }
}

extension KeyLoggingBenchTV {
    /// Arrow keys move a focus the simulated screen does not have: no state changes.
    var neutralKeys: [String] { ["up", "down"] }

    func waitUntilReady(timeout: Duration) async -> Bool { true }

    func receivedCommand(after since: Double, timeout: Duration) async -> Double? {
        await log.firstStamp(of: Self.keyKind, after: since, timeout: timeout)
    }

    func keyStamps(since: Double) -> [Double] { log.stamps(of: Self.keyKind, since: since) }
}

extension CommandLog {
    /// The `at` stamps of the entries of `kind` logged since `since` (`at` is rounded to the
    /// microsecond; a microsecond below `since` still counts).
    func stamps(of kind: String, since: Double) -> [Double] {
        entries.compactMap { entry in
            guard entry["kind"]?.stringValue == kind, let at = entry["at"]?.doubleValue, at >= since - 0.000_001
            else { return nil }
            return at
        }
    }

    /// The stamp of the first entry of `kind` at or after `since`, within `timeout`.
    func firstStamp(of kind: String, after since: Double, timeout: Duration) async -> Double? {
        let floor = since - 0.000_001
        let entry = await waitFor(timeout: timeout) {
            $0["kind"]?.stringValue == kind && ($0["at"]?.doubleValue ?? 0) >= floor
        }
        return entry?["at"]?.doubleValue
    }
}
