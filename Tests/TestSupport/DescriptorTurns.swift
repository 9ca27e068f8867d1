/// Tests that count the test process's open descriptors (`NotifyFloodTests`) and tests that
/// open hundreds of them (`StartupBurstTests`: 80 simulated TVs and the bridge's connections
/// to them, both ends in this process; `SSDPLargeNetworkTests`: 201 UDP sockets; the 500 and
/// 400 connections of `TCPTests` and `EventLoopReadyBatchTests`) take turns:
/// side by side, one read the other's sockets as its own (414 descriptors "leaked" in a full
/// run).
public actor DescriptorTurns {
    public static let shared = DescriptorTurns()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other such test runs.
    public static func run<T>(_ body: () async throws -> T) async throws -> T {
        await shared.acquire()
        do {
            let result = try await body()
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
