import Drivers
import Harness
import Net
import Support
import TVModel
import TestSupport
import Testing
import Wire

@testable import Bridge
@testable import Persistence

/// Every task of `tv2mqtt` runs on one thread, the event loop's: reading and parsing the state
/// file (up to 16 MiB), like every file operation, runs beside it (`BlockingWork`), so a
/// large file or a slow file system holds up no TV. The bridge's tasks run here on a
/// one-at-a-time executor, as they would on the loop, with a ticker measuring their stalls.
@Suite("State file work stays off the shared thread", .takesTurns)
struct StateFileStallTests {
    @Test("loading a 15 MB state file at start does not hold the thread the bridge's tasks share")
    func bigStateFile() async throws {
        try await withBridgeFixture { fixture in
            let tv = TVDescription.sample()
            let state = PersistedState(tvs: [PersistedTV(identity: tv.identity, capabilities: tv.capabilities)])
            // 140,000 strings of 100 bytes in a member the bridge ignores: about 15 MB to parse
            // (made by repeating text: building it as JSON values would hold one of the two
            // threads the other tests share for seconds).
            let item = "\"" + String(repeating: "x", count: 100) + "\","
            let padding = "[" + String(repeating: item, count: 140_000) + "\"end\"]"
            let text = "{\"padding\": \(padding), " + state.json.serialized().dropFirst()
            try FileText.write(text, to: fixture.stateDirectory.file("state.json"))
            let bridge = try BridgeService(
                configuration: fixture.configuration(), logger: .disabled, factory: RecordingFactory([tv]))
            let started = ContinuousClock.now
            let (restored, stall) = await OneAtATimeExecutor().measureStall(
                sleep: { try? await EventLoop.sleep(for: $0) }
            ) { () -> Bool in
                async let running: Void = bridge.run()
                let restored = await waitUntil(timeout: .seconds(60)) { await bridge.registry.ids == [tv.identity.id] }
                bridge.shutdown()
                await running
                return restored
            }
            let took = ContinuousClock.now - started
            print("starting with a 15 MB state file: \(took), longest stall of the shared thread \(stall)")
            #expect(restored, "the TV in the state file was not restored")
            // Parsing takes most of the start in a debug build. Had it run on the shared thread,
            // the longest stall would be most of the start; beside it, the thread keeps ticking.
            // A ratio, not a bound: a busy machine slows both alike.
            #expect(stall < took / 2, "the thread was held for \(stall) of \(took)")
        }
    }
}
