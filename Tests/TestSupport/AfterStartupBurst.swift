/// Waits out the first seconds of `swift test`, when every suite starts at once and the many
/// short tests with tight deadlines (2 s for a simulated TV to answer) run.
///
/// The busier fault tests (Tests/*/Fault*.swift) start brokers, bridges and processes, run
/// for seconds, and have no such deadlines; started after the burst they do not push those
/// other tests past their deadlines on a loaded 2-core machine. They still end before the
/// longest fault test (the broker restarts, light on CPU, not delayed), so the suite takes no
/// longer. Only the first call waits the whole time: the burst is counted from it.
public func afterStartupBurst() async {
    try? await Task.sleep(until: BurstClock.end, clock: .continuous)
}

private enum BurstClock {
    /// Set by the first caller, at the start of the run (every suite starts at once).
    static let end = ContinuousClock.now + .seconds(4)
}
