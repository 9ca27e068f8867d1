import Synchronization
import TestSupport
import Testing

@testable import TVSimulators

/// tvsim runs every task on the event loop's one thread: a simulated TV's certificate (an EC key
/// generated, signed, then read back from PEM, milliseconds each and more when many TVs start
/// at once) is made beside it, so a fleet starting does not hold the other TVs' answers.
@Suite("Simulators: making a certificate leaves the caller's thread free")
struct SimCertificateExecutorTests {
    private final class Flag: Sendable {
        let raised = Mutex(false)
    }

    @Test("a task queued behind the one that makes a certificate runs before the certificate is made")
    func makeSuspendsTheCaller() async throws {
        let executor = OneAtATimeExecutor()
        let flag = Flag()
        let (ranMeanwhile, fingerprint) = try await Task(executorPreference: executor) {
            () async throws -> (Bool, [UInt8]) in
            // Queued on the same one-job-at-a-time executor: it can only run while this task
            // is suspended.
            Task(executorPreference: executor) { flag.raised.withLock { $0 = true } }
            let certificate = try await SimCertificate.make(commonName: "Sim TV", host: "127.0.0.1")
            return (flag.raised.withLock { $0 }, certificate.sha256)
        }.value
        #expect(fingerprint.count == 32)
        #expect(ranMeanwhile, "making the certificate held the executor")
    }
}
