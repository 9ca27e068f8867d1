import Glibc
import Harness
import Synchronization
import TestSupport
import Testing

/// tvbench and the tests run their tasks on the event loop's one thread: starting a child
/// (a thread that `posix_spawn`s it, milliseconds on a busy machine, more with many at once)
/// must let the other tasks of that thread run meanwhile, not hold it until the child exists.
@Suite("Harness: starting a child leaves the caller's thread free")
struct HarnessSpawnExecutorTests {
    private final class Flag: Sendable {
        let raised = Mutex(false)
    }

    @Test("a task queued behind the one that starts a child runs before the child is started")
    func spawnSuspendsTheCaller() async throws {
        // A spawn that blocked its caller could never let the queued task run first. One that
        // suspends usually does, but not always: when the child exists before the caller has
        // finished suspending, the caller simply goes on. So it is tried up to 20 times.
        var attempts = 0
        var ranMeanwhile = false
        while !ranMeanwhile && attempts < 20 {
            attempts += 1
            ranMeanwhile = try await Self.queuedTaskRanDuringSpawn()
        }
        #expect(ranMeanwhile, "starting the child held the executor until the child existed, \(attempts) times")
    }

    private static func queuedTaskRanDuringSpawn() async throws -> Bool {
        let executor = OneAtATimeExecutor()
        let flag = Flag()
        return try await Task(executorPreference: executor) { () async throws -> Bool in
            // Queued on the same one-job-at-a-time executor: it can only run while this task
            // is suspended.
            Task(executorPreference: executor) { flag.raised.withLock { $0 = true } }
            let child = try await ChildProcess.spawn("true")
            let ranMeanwhile = flag.raised.withLock { $0 }
            _ = await child.wait(timeout: .seconds(10))
            return ranMeanwhile
        }.value
    }
}
