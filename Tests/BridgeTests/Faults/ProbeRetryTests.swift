import Drivers
import Support
import Synchronization
import TVModel
import Testing

@testable import Bridge

/// "Now" that a test moves forward.
final class SteppedTime: Sendable {
    private let offset = Mutex(Duration.zero)

    var source: TimeSource { TimeSource { [self] in .now + offset.withLock { $0 } } }

    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}

/// Counts probes; none finds a TV.
final class RefusingFactory: DriverFactory {
    private let count = Mutex(0)
    var probes: Int { count.withLock { $0 } }

    func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError) -> TVDescription {
        count.withLock { $0 += 1 }
        throw DriverError(.unreachable, "nothing at \(host)")
    }

    func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver {
        RecordingDriver(description: description, snapshot: .unreachable)
    }
}

@Suite("Failed probes are retried after the retry delay", .serialized)
struct ProbeRetryTests {
    @Test("an address that failed is not probed again within TVRegistry.probeRetryDelay, and is after it")
    func retryDelay() async throws {
        try await withBridgeFixture { fixture in
            let time = SteppedTime()
            let factory = RefusingFactory()
            let bridge = try await fixture.startBridge(fixture.configuration(), factory: factory, time: time.source)
            await bridge.registry.candidate(host: "127.0.0.9", kind: .roku, port: 8060, source: "test")
            #expect(factory.probes == 1)
            time.advance(by: TVRegistry.probeRetryDelay - .seconds(1))
            await bridge.registry.candidate(host: "127.0.0.9", kind: .roku, port: 8060, source: "test")
            #expect(factory.probes == 1, "probed again within the retry delay")
            time.advance(by: .seconds(2))
            await bridge.registry.candidate(host: "127.0.0.9", kind: .roku, port: 8060, source: "test")
            #expect(factory.probes == 2, "not probed again after the retry delay")
        }
    }
}
