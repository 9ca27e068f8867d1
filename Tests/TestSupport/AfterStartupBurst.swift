/// Waits until the first seconds of `swift test` are over, for a long, busy test — one that
/// starts brokers, bridges and processes, like the fault tests in Tests/*/Fault*.swift.
///
/// Every suite starts at once, and the many short tests with tight deadlines (a simulated TV
/// must answer within 2 s) run first. Busy tests started beside them pushed them past those
/// deadlines on a loaded 2-core machine; the busy tests have no such deadlines and lose
/// nothing by starting a little later (the suite takes no longer: they are its longest).
public func afterStartupBurst() async {
    try? await Task.sleep(until: StartupBurst.end, clock: .continuous)
}

private enum StartupBurst {
    /// Four seconds after the first call, made when every suite starts.
    static let end = ContinuousClock.now + .seconds(4)
}
