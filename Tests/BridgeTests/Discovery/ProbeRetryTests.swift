import Drivers
import Net
import Support
import Synchronization
import TVModel
import TestSupport
import Testing

@testable import Bridge

/// Counts probes; none finds a TV.
final class RefusingFactory: DriverFactory {
    let vendors: [Vendor] = .shipped
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
    @Test(
        "an address that failed is not probed again within TVRegistry.probeRetryDelay, and is after it")
    func retryDelay() async throws {
        try await withBridgeFixture { fixture in
            let clock = ManualClock()
            let factory = RefusingFactory()
            let bridge = try await clock.run {
                try await fixture.startBridge(fixture.configuration(), factory: factory)
            }
            func offer() async {
                await clock.run {
                    await bridge.registry.candidate(
                        host: "127.0.0.9", kind: .roku, port: 8060, source: "test")
                }
            }
            await offer()
            #expect(factory.probes == 1)
            await clock.advance(to: TVRegistry.probeRetryDelay - .milliseconds(1))
            await offer()
            #expect(factory.probes == 1, "probed again within the retry delay")
            await clock.advance(to: TVRegistry.probeRetryDelay)
            await offer()
            #expect(factory.probes == 2, "not probed again at the retry delay")
        }
    }
}
