import Drivers
import Harness
import Persistence
import TVModel
import TestSupport
import Testing

@testable import Bridge

/// Issue 18: a bridge starting with many TVs does not open a connection to each at once. Its
/// TVs' first polls run `TVPoller.firstPollConcurrency` at a time; one that does not answer
/// gives its slot back after `TVPoller.firstPollSlotHold`.
@Suite("Start-up burst", .serialized)
struct StartupBurstTests {
    static let count = 80

    @Test("80 remembered TVs that accept and never answer: at most 32 contacted in the first 0.4 s, all later")
    func firstPollsAreBounded() async throws {
        await afterStartupBurst()
        try await DescriptorTurns.run { try await startAndMeasure() }
    }

    private func startAndMeasure() async throws {
        let fixture = try await BridgeFixture.start()
        var tvs: [FaultMisbehavingTV] = []
        do {
            for index in 0..<Self.count {
                tvs.append(try FaultMisbehavingTV.start(host: "127.18.0.\(index + 1)", .silent))
            }
            try await run(fixture, tvs)
        } catch {
            for tv in tvs { await tv.stop() }
            await fixture.stop()
            throw error
        }
        for tv in tvs { await tv.stop() }
        await fixture.stop()
    }

    private func run(_ fixture: BridgeFixture, _ tvs: [FaultMisbehavingTV]) async throws {
        let remembered = tvs.enumerated().map { index, tv in
            FaultSlowTVTests.persisted("silent_\(index)", host: tv.host, port: tv.port)
        }
        try StateStore(
            directory: fixture.stateDirectory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled
        ).save(
            PersistedState(tvs: remembered))
        // One poll each in the test's time: the first.
        let configuration = fixture.configuration { $0.pollInterval = 60 }
        try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
        // TVs contacted, not connections: a Roku's first poll also tries its ECP-2 session.
        func connected() -> Int { tvs.count { $0.accepted > 0 } }
        let started = await waitUntil(timeout: .seconds(30), interval: .milliseconds(5)) { connected() > 0 }
        try #require(started, "no TV was polled")
        // A slot is given back no sooner than 1 s after it was taken, and each TV was contacted
        // after its slot was taken: within 0.5 s of the first contact, as each TV stamped it
        // (not as this task saw it, which a busy machine may delay), at most the slots.
        let all = await waitUntil(timeout: .seconds(30)) { connected() == Self.count }
        let firsts = tvs.compactMap(\.firstAccepted)
        let earliest = firsts.min() ?? .now
        let most = firsts.count { $0 < earliest + .milliseconds(500) }
        #expect(most <= TVPoller.firstPollConcurrency, "\(most) TVs contacted at once at start")
        // The TVs that never answer do not hold the others back for their 5 s request timeout.
        #expect(all, "only \(connected()) of \(Self.count) TVs were polled")
    }
}
