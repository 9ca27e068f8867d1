/// Runs a busy test — one that starts brokers, bridges and processes and runs for seconds,
/// like the fault tests in Tests/*/Fault*.swift — once the first seconds of `swift test` are
/// over, and only one such test at a time.
///
/// Every suite starts at once, and the many short tests with tight deadlines (a simulated TV
/// must answer within 2 s) run first. Busy tests started beside them all together pushed them
/// past those deadlines on a loaded 2-core machine; the busy tests have no such deadlines and
/// lose nothing by waiting.
public func asBusyTest<T>(_ body: () async throws -> T) async rethrows -> T {
    await afterStartupBurst()
    await BusySlot.shared.acquire()
    do {
        let result = try await body()
        await BusySlot.shared.release()
        return result
    } catch {
        await BusySlot.shared.release()
        throw error
    }
}

/// Waits until the first seconds of `swift test` are over (see `asBusyTest`), for a test
/// that is long and busy enough to disturb the short ones but can run beside the busy tests.
public func afterStartupBurst() async {
    try? await Task.sleep(until: BusySlot.burstEnd, clock: .continuous)
}

/// One busy test at a time, first come first served.
private actor BusySlot {
    static let shared = BusySlot()
    /// Four seconds after the first call (every suite starts at once).
    static let burstEnd = ContinuousClock.now + .seconds(4)

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()  // handed over: `held` stays true
        }
    }
}
