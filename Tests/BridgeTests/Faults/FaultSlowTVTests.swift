import Clients
import Configuration
import Drivers
import Harness
import Persistence
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// A TV that never answers and one that answers a byte per second, beside a normal one
/// (issue 7, fault 3): only their own polls stall.
@Suite("Faults: TVs that hang", .serialized)
struct FaultSlowTVTests {
    static let presses = 50

    @Test("a silent TV and a dripping TV stall only themselves: the normal TV's commands stay fast, its state current")
    func hangingTVs() async throws {
        await afterStartupBurst()
        let rokus = try SimulatedRokus.make()
        let fixture = try await BridgeFixture.start()
        var bad: [FaultMisbehavingTV] = []
        do {
            try await run(fixture, rokus, bad: &bad)
        } catch {
            for tv in bad { await tv.stop() }
            await fixture.stop()
            await rokus.stopAll()
            throw error
        }
        for tv in bad { await tv.stop() }
        await fixture.stop()
        await rokus.stopAll()
    }

    private func run(_ fixture: BridgeFixture, _ rokus: SimulatedRokus, bad: inout [FaultMisbehavingTV]) async throws {
        let tv = try await rokus.start("127.0.0.2")
        let id = SimulatedRokus.id(tv)
        // The bad TVs are known from the state file, so they are polled from the start: first
        // while nothing listens on their ports (refused, quickly), later while they hang. The
        // ports stay reserved until the bad TVs listen on them: no other socket can take them.
        let silent = try ReservedTCPPort(host: "127.0.0.3")
        let drip = try ReservedTCPPort(host: "127.0.0.4")
        defer {
            silent.release()
            drip.release()
        }
        let (silentPort, dripPort) = (silent.port, drip.port)
        try StateStore(
            directory: fixture.stateDirectory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled
        ).save(
            PersistedState(tvs: [
                Self.persisted("silent_tv", host: "127.0.0.3", port: silentPort),
                Self.persisted("drip_tv", host: "127.0.0.4", port: dripPort),
            ]))
        let configuration = fixture.configuration {
            $0.tvs = [BridgeConfiguration.ConfiguredTV(host: tv.host, kind: .roku, port: tv.port)]
            $0.pollInterval = 0.25
        }
        try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
        let on = await fixture.expectState(id) { $0["power"] == "ON" }
        try #require(on != nil)
        for badID in ["silent_tv", "drip_tv"] {
            await fixture.expectMessage("\(fixture.base)/\(badID)/availability") { $0.text == "offline" }
        }
        let (baseline, _) = try await pressLatencies(fixture, rokus, id: id, first: 0, bad: [])

        bad.append(try FaultMisbehavingTV.start(host: "127.0.0.3", port: silentPort, .silent))
        bad.append(try FaultMisbehavingTV.start(host: "127.0.0.4", port: dripPort, .drip(interval: .seconds(1))))
        silent.release()
        drip.release()
        let stalled = await waitUntil(timeout: .seconds(30)) { bad.allSatisfy { $0.hanging > 0 } }
        try #require(stalled, "the bridge never got stuck on the bad TVs")

        let (hanging, heldAtDelivery) = try await pressLatencies(fixture, rokus, id: id, first: Self.presses, bad: bad)
        // Polls of the normal TV go on, and a change on it is published within a few polls.
        let requestsBefore = tv.httpRequestCount
        let mark = await fixture.log.count
        let changed = ContinuousClock.now
        try tv.apply(["app": "837", "media_state": "play"])
        await fixture.expectState(id, after: mark, timeout: .seconds(30)) { $0["app"] == "YouTube" }
        let stateDelay = ContinuousClock.now - changed
        try await Task.sleep(for: .seconds(1))
        let polled = tv.httpRequestCount - requestsBefore
        let stillHanging = bad.map(\.hanging)

        let (p50Before, p50During) = (Self.median(baseline), Self.median(hanging))
        print(
            "hanging TVs: keypress p50 \(p50Before) before, \(p50During) during (max \(hanging.max() ?? .zero));"
                + " state after \(stateDelay);"
                + " \(polled) requests to the normal TV in ~1 s; bad TVs holding \(stillHanging) connections,"
                + " accepted \(bad.map(\.accepted))")
        // What happened, not how fast (the figures above are for reading): a bridge that waited
        // for the bad TVs would deliver no press while both still held its requests.
        let deliveredWhileHeld = heldAtDelivery.filter { $0.allSatisfy { $0 > 0 } }.count
        #expect(
            deliveredWhileHeld > 0,
            "no press reached the normal TV while both bad TVs held a request: \(heldAtDelivery)")
    }

    /// Sends `presses` one-character texts (a `Lit_` keypress each) through MQTT, one at a
    /// time, and returns how long each took to reach the TV and how many requests each bad TV
    /// held when it arrived.
    private func pressLatencies(
        _ fixture: BridgeFixture, _ rokus: SimulatedRokus, id: String, first: Int, bad: [FaultMisbehavingTV]
    ) async throws -> ([Duration], [[Int]]) {
        var latencies: [Duration] = []
        var held: [[Int]] = []
        for index in first..<first + Self.presses {
            let tag = FaultCommandStream.tag(index)
            let sent = ContinuousClock.now
            try await fixture.publish("\(fixture.base)/\(id)/set/text", tag, qos: .atMostOnce)
            let entry = await rokus.log.waitFor(timeout: .seconds(30)) { $0["text"] == .string(tag) }
            try #require(entry != nil, "keypress \(index) never reached the TV")
            held.append(bad.map(\.hanging))
            latencies.append(ContinuousClock.now - sent)
        }
        return (latencies, held)
    }

    static func persisted(_ id: String, host: String, port: UInt16) -> PersistedTV {
        PersistedTV(
            identity: TVIdentity(
                id: TVID(id)!, kind: .roku, name: id, manufacturer: "Roku", host: host, port: port, macs: []),
            capabilities: TVCapabilities(power: true, volumeKeys: true, keyboard: true, mediaState: true))
    }

    static func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
}
