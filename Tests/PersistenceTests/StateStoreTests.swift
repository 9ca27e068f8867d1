import Bridge
import Drivers
import Glibc
import Harness
import Support
import TVModel
import TestSupport
import Testing

@testable import Persistence

/// The state file: written atomically with mode 0600; a corrupt one is moved aside
/// and reported, never silently discarded.
@Suite("State store")
struct StateStoreTests {
    static let identity = TVIdentity(
        id: TVID("roku_abc")!, kind: .roku, name: "Den", manufacturer: "Roku", host: "127.0.0.2", port: 8060,
        macs: ["b0:a7:37:00:00:02"])

    @Test("what is saved is loaded again; the file (tokens, pins) and a directory it creates are its owner's only")
    func roundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "state-store")
        defer { directory.remove() }
        let store = StateStore(
            directory: directory.path + "/nested", kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        var tv = PersistedTV(identity: Self.identity)
        tv.token = "123456"
        try store.save(PersistedState(tvs: [tv]))
        #expect(store.load() == PersistedState(tvs: [tv]))
        var info = stat()
        #expect(stat(store.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(directory.path + "/nested", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        let leftovers = try listing(directory.path + "/nested")
        #expect(leftovers == ["state.json"], "no temporary file is left behind")
    }

    /// A state of `count` TVs with everything a TV can carry (apps, token, pin, last seen).
    static func fleet(_ count: Int) -> PersistedState {
        PersistedState(
            tvs: (0..<count).map { index in
                var identity = identity
                identity.id = TVID("roku_\(index)")!
                identity.name = "Room \(index) \"quoted\" \u{1F4FA}"
                var tv = PersistedTV(
                    identity: identity, apps: (0..<20).map { AppEntry(id: "\($0)", name: "App \($0)") })
                tv.token = index % 2 == 0 ? "token-\(index)" : nil
                tv.certificatePin = index % 3 == 0 ? String(repeating: "ab", count: 32) : nil
                tv.lastSeen = 1_700_000_000.25 + Double(index)
                return tv
            })
    }

    @Test(
        "the file, written one TV at a time, is the state's pretty JSON and a newline; a large one round-trips",
        arguments: [0, 1, 3, 500])
    func fileIsPrettyJSON(count: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "state-store")
        defer { directory.remove() }
        // 500 TVs are a few hundred milliseconds of JSON in a debug build: off the thread the
        // tests' tasks share.
        let (state, file, expected, loaded) = try await offTheLoop {
            let store = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            let state = Self.fleet(count)
            try store.save(state)
            let written = FileText.read(store.path)
            let loaded = StateStore(
                directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled
            ).load()
            return (state, written, state.json.prettyPrinted() + "\n", loaded)
        }
        let written = try #require(file)
        #expect(written == expected)
        #expect(loaded == state)
        if count == 500 {
            #expect(written.utf8.count > 4 * StateDirectory.writeSize, "several writes")
        }
    }

    @Test("a corrupt file is moved aside, reported, and the bridge starts with no TVs")
    func corruptFile() throws {
        let directory = try TemporaryDirectory(prefix: "state-store")
        defer { directory.remove() }
        try FileText.write("{\"version\": 1, \"tvs\": [ {\"identity\": ", to: directory.file("state.json"))
        let sink = CapturingSink()
        let store = StateStore(
            directory: directory.path, kinds: [Vendor].shipped.stateFileKinds,
            logger: Logger(label: "test", sink: sink, threshold: LogThreshold(.debug)))
        #expect(store.load() == PersistedState())
        let names = try listing(directory.path)
        let asideName = names.first { $0.hasPrefix("state.json.corrupt-") }
        #expect(asideName != nil, "\(names)")
        #expect(!names.contains("state.json"))
        let aside = try #require(asideName)
        #expect(FileText.read(directory.file(aside))?.hasPrefix("{\"version\": 1") == true, "kept as it was")
        let reported = sink.lines.contains { $0.contains("corrupt") && $0.contains(aside) }
        #expect(reported, "\(sink.lines)")
    }

    @Test("a file from an unknown future version is moved aside too")
    func unknownVersion() throws {
        let directory = try TemporaryDirectory(prefix: "state-store")
        defer { directory.remove() }
        try FileText.write("{\"version\": 99, \"tvs\": []}", to: directory.file("state.json"))
        let store = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        #expect(store.load() == PersistedState())
        let names = try listing(directory.path)
        let movedAside = names.contains { $0.hasPrefix("state.json.corrupt-") }
        #expect(movedAside)
    }

    @Test("temporary files of writers that died mid-write are removed at load; a running writer's is kept")
    func staleTemporaryFiles() async throws {
        let directory = try TemporaryDirectory(prefix: "state-store")
        defer { directory.remove() }
        let ended = try await ChildProcess.spawn("true")
        _ = await ended.wait()  // reaped: its pid names no process now
        let running = getppid()
        for pid in [ended.pid, running, getpid()] {
            try FileText.write("{\"version\": 1, \"tv", to: directory.file("state.json.tmp-\(pid)"))
        }
        try FileText.write("{\"version\": 1, \"tvs\": []}", to: directory.file("state.json"))
        let sink = CapturingSink()
        let store = StateStore(
            directory: directory.path, kinds: [Vendor].shipped.stateFileKinds,
            logger: Logger(label: "test", sink: sink, threshold: LogThreshold(.debug)))
        #expect(store.load() == PersistedState())
        let names = try listing(directory.path)
        #expect(names == ["state.json", "state.json.tmp-\(getpid())", "state.json.tmp-\(running)"].sorted())
        let reported = sink.lines.contains { $0.contains("removed 1 temporary state file") }
        #expect(reported, "\(sink.lines)")
    }

    private func listing(_ path: String) throws -> [String] { FileSystemListing.names(path).sorted() }
}
