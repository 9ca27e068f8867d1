/// Polls `condition` every `interval` until it returns `true` (then returns `true`) or `timeout`
/// has passed (by default the tests' 30 s hang bound; then returns `false`, after one last check). Returns `false` early if the task is
/// cancelled. For waiting on other processes, whose progress cannot be observed any other way.
public func waitUntil(
    timeout: Duration = .seconds(30), interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if try await condition() { return true }
        if clock.now >= deadline || Task.isCancelled { return false }
        do {
            try await clock.sleep(until: min(clock.now.advanced(by: interval), deadline))
        } catch {
            return try await condition()
        }
    }
}
