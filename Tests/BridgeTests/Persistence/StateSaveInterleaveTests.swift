import Drivers
import Glibc
import Harness
import Support
import TVModel
import TestSupport
import Testing

@testable import Bridge
@testable import Persistence

/// A token `tv2mqtt pair` saves while the daemon runs survives the daemon's saves, even when
/// two of them are in flight at once (the registry actor is re-entered across the blocking
/// write): the daemon never writes an older snapshot over what another save merged.
@Suite("State saves: one at a time per process")
struct StateSaveInterleaveTests {
    @Test("two daemon saves in flight while pair writes a token: the token is on disk and in memory after both")
    func twoSavesAndPair() async throws {
        try await withBridgeFixture { fixture in
            let tv = TVDescription.sample()
            let directory = fixture.stateDirectory.path
            try StateStore(directory: directory, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).save(
                PersistedState(tvs: [PersistedTV(identity: tv.identity, capabilities: tv.capabilities)]))
            let bridge = try await fixture.startBridge(fixture.configuration(), factory: RecordingFactory([tv]))
            let registry = bridge.registry
            #expect(await registry.ids == [tv.identity.id])
            // `tv2mqtt pair` holds the directory's lock for its read-merge-write.
            var pair = try StateDirectory.open(directory, create: false)
            try pair?.lock()
            let first = Task { await registry.saveNow() }
            let second = Task { await registry.saveNow() }
            // Both saves take their snapshot (microseconds of actor work) and wait for the lock:
            // a second of margin.
            try await Task.sleep(for: .seconds(1))
            var paired = StateStore(directory: directory, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
                .load()
            paired.tvs[0].token = "paired-token"
            _ = try pair?.writeAtomically(StateStore.fileName, chunks: paired.fileChunks, mode: 0o600)
            pair = nil  // closing it releases the lock
            await first.value
            await second.value
            let onDisk = StateStore(directory: directory, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
                .load()
            #expect(onDisk.tvs.first?.token == "paired-token", "an older snapshot was written over pair's token")
            let inMemory = await registry.records[tv.identity.id]?.persisted.token
            #expect(inMemory == "paired-token")
        }
    }
}
