import Bridge
import Drivers
import Glibc
import Harness
import Support
import TVModel
import TestSupport
import Testing

@testable import Persistence

/// Two processes on one state directory (issue 13, item 9): a running daemon and
/// `tv2mqtt pair`, each with its own `StateStore`. Whichever saves last, neither loses what
/// the other saved: each save merges what changed on disk since its store last read or
/// wrote the file.
@Suite("State store: two writers")
struct StateStoreMergeTests {
    static func tv(_ id: String, host: String) -> PersistedTV {
        PersistedTV(
            identity: TVIdentity(
                id: TVID(id)!, kind: .samsung, name: id, manufacturer: "Samsung", host: host, port: 8001, macs: []))
    }

    /// A daemon's state file with two TVs, loaded by the daemon's store.
    func seed(_ directory: TemporaryDirectory) throws -> (daemon: StateStore, state: PersistedState) {
        var state = PersistedState(tvs: [
            Self.tv("samsung_a", host: "127.0.0.2"), Self.tv("samsung_b", host: "127.0.0.3"),
        ])
        state.tvs[1].token = "old-b"
        try StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).save(state)
        let daemon = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        #expect(daemon.load() == state)
        return (daemon, state)
    }

    /// `seed`, and `tv2mqtt pair`'s store having read the file: the daemon, what it holds,
    /// pair's store and what pair read.
    func twoWriters(_ directory: TemporaryDirectory) throws -> (
        daemon: StateStore, state: PersistedState, pair: StateStore, paired: PersistedState
    ) {
        let (daemon, state) = try seed(directory)
        let pair = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        return (daemon, state, pair, pair.load())
    }

    @Test("pair saves a token, then the daemon saves its older state: the token and pin stay")
    func pairThenDaemonSave() throws {
        let directory = try TemporaryDirectory(prefix: "state-merge")
        defer { directory.remove() }
        // `tv2mqtt pair` while the daemon runs.
        var (daemon, daemonState, pair, paired) = try twoWriters(directory)
        paired.tvs[0].token = "new-a"
        paired.tvs[0].certificatePin = String(repeating: "ab", count: 32)
        try pair.save(paired)
        // The daemon saves what it holds: its own change (lastSeen) and the old secrets.
        daemonState.tvs[0].lastSeen = 1_000
        // The daemon takes in what its save merged (`TVRegistry.adopt`).
        daemonState = try daemon.save(daemonState)
        let onDisk = try #require(
            StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).load().tvs
                .first)
        #expect(onDisk.token == "new-a", "the token pair saved was written over")
        #expect(onDisk.certificatePin == String(repeating: "ab", count: 32))
        #expect(onDisk.lastSeen == 1_000, "the daemon's own change is kept too")
        // And again at the daemon's next save (its shutdown): still there.
        daemonState.tvs[0].lastSeen = 2_000
        try daemon.save(daemonState)
        let later = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs
        #expect(later.first?.token == "new-a" && later.first?.lastSeen == 2_000)
        #expect(later.last?.token == "old-b")
    }

    @Test("the daemon saves (a new TV, a removal) while pair waits for the TV, then pair saves: both kept")
    func daemonSaveThenPair() throws {
        let directory = try TemporaryDirectory(prefix: "state-merge")
        defer { directory.remove() }
        // pair reads the file, then waits for Allow on the TV.
        var (daemon, daemonState, pair, paired) = try twoWriters(directory)
        daemonState.tvs.append(Self.tv("samsung_c", host: "127.0.0.4"))  // found meanwhile
        daemonState.tvs.removeAll { $0.identity.id.rawValue == "samsung_b" }  // tv/remove meanwhile
        daemonState = try daemon.save(daemonState)
        paired.tvs[0].token = "new-a"
        try pair.save(paired)
        let ids = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs.map(\.identity.id.rawValue)
        #expect(ids == ["samsung_a", "samsung_c"], "the TV the daemon found was lost, or the one it removed is back")
        let tokenA = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs.first?.token
        #expect(tokenA == "new-a")
        // The daemon's next save keeps pair's token.
        daemonState.tvs[0].lastSeen = 3_000
        try daemon.save(daemonState)
        let final = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs
        #expect(final.map(\.identity.id.rawValue) == ["samsung_a", "samsung_c"])
        #expect(final.first?.token == "new-a")
    }

    @Test("pair adds a TV the daemon does not know: the daemon's next save keeps it")
    func pairAddsATV() throws {
        let directory = try TemporaryDirectory(prefix: "state-merge")
        defer { directory.remove() }
        let (daemon, daemonState) = try seed(directory)
        let pair = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        var paired = pair.load()
        var added = Self.tv("samsung_new", host: "127.0.0.9")
        added.token = "fresh"
        paired.tvs.append(added)
        try pair.save(paired)
        try daemon.save(daemonState)
        let saved = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load().tvs
        let kept = saved.contains { $0.identity.id.rawValue == "samsung_new" && $0.token == "fresh" }
        #expect(kept, "\(saved)")
    }

    @Test("the installation id: made once, kept by every later save and by a second writer; a bad one is replaced")
    func installationID() throws {
        let directory = try TemporaryDirectory(prefix: "state-merge")
        defer { directory.remove() }
        // pair reads the file before the daemon's id is saved, so makes its own.
        var (daemon, daemonState, pair, paired) = try twoWriters(directory)
        let made = daemonState.ensureInstallationID()
        let madeAgain = daemonState.ensureInstallationID()
        #expect(made && !madeAgain)
        let id = try #require(daemonState.installationID)
        daemonState = try daemon.save(daemonState)
        _ = paired.ensureInstallationID()
        #expect(paired.installationID != id)
        // Its save merges: the first id saved stands.
        try pair.save(paired)
        daemonState.tvs[0].lastSeen = 5
        try daemon.save(daemonState)
        #expect(
            StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).load()
                .installationID == id)
        // Hand-edited to something that is no id of ours: ignored, so a new one is made.
        try FileText.write(
            #"{"installationId": "tv2mqtt\u0000", "tvs": [], "version": 1}"#, to: directory.file("state.json"))
        var edited = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            .load()
        #expect(edited.installationID == nil)
        let replaced = edited.ensureInstallationID()
        #expect(replaced)
    }
}
