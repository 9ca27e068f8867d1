import Bridge
import Drivers
import Glibc
import Harness
import Support
import TVModel
import TestSupport
import Testing

@testable import Persistence

/// The state directory holds Samsung tokens (issue 13, item 10): nothing planted in it or
/// in its place makes the bridge write elsewhere or read another file, and a directory that
/// others can write to or that is another user's is refused with a clear error. A state file
/// that cannot be read is moved aside, never written over (item 9).
@Suite("State store: a hostile state directory")
struct StateStoreSafetyTests {
    static var state: PersistedState {
        var tv = PersistedTV(
            identity: TVIdentity(
                id: TVID("samsung_x")!, kind: .samsung, name: "X", manufacturer: "Samsung", host: "127.0.0.2",
                port: 8001, macs: [])
        )
        tv.token = "secret-token"
        return PersistedState(tvs: [tv])
    }

    @Test("a link planted under a temporary file's name is not followed: its target keeps its content")
    func plantedTemporaryLink() throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        let victim = directory.file("victim")
        try FileText.write("precious\n", to: victim)
        mkdir(directory.file("state"), 0o700)
        // The name the first versions used for their temporary file: predictable.
        #expect(symlink(victim, directory.file("state/state.json.tmp-\(getpid())")) == 0)
        let store = StateStore(
            directory: directory.file("state"), kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        try store.save(Self.state)
        #expect(FileText.read(victim) == "precious\n", "the save wrote through the planted link")
        #expect(store.load() == Self.state)
    }

    @Test("a state file that is a link is neither read nor followed: moved aside, its target untouched")
    func linkedStateFile() throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        let elsewhere = directory.file("elsewhere.json")
        try StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).save(
            Self.state)
        #expect(rename(directory.file("state.json"), elsewhere) == 0)
        mkdir(directory.file("state"), 0o700)
        #expect(symlink(elsewhere, directory.file("state/state.json")) == 0)
        let sink = CapturingSink()
        let store = StateStore(
            directory: directory.file("state"), kinds: [Vendor].shipped.stateFileKinds,
            logger: Logger(label: "test", sink: sink, threshold: LogThreshold(.debug)))
        #expect(store.load() == PersistedState(), "the state was read through a link")
        let aside = FileSystemListing.names(directory.file("state")).filter { $0.hasPrefix("state.json.unreadable-") }
        #expect(aside.count == 1, "\(FileSystemListing.names(directory.file("state")))")
        #expect(FileText.read(elsewhere)?.contains("secret-token") == true)
    }

    @Test("a state directory that is a link is refused")
    func linkedDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        mkdir(directory.file("real"), 0o700)
        #expect(symlink(directory.file("real"), directory.file("state")) == 0)
        let store = StateStore(
            directory: directory.file("state"), kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
        var refused = false
        do { try store.save(Self.state) } catch { refused = error.description.contains("symbolic link") }
        #expect(refused, "a linked state directory was used")
        #expect(FileSystemListing.names(directory.file("real")).isEmpty, "written through the link")
    }

    @Test("a group- or world-writable state directory is refused with a clear error at save")
    func sharedDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        for mode: mode_t in [0o777, 0o770, 0o1777] {
            #expect(chmod(directory.path, mode) == 0)
            let store = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            var message = ""
            do {
                try store.save(Self.state)
            } catch {
                message = error.description
            }
            #expect(message.contains("writable by group or others"), "mode \(String(mode, radix: 8)): \(message)")
            #expect(FileText.read(directory.file("state.json")) == nil)
        }
    }

    @Test(
        "a state directory owned by another user is refused with a clear error",
        .enabled(if: geteuid() == 0, "needs root to chown"))
    func foreignDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        #expect(chown(directory.path, 12_345, 12_345) == 0)
        var message = ""
        do {
            try StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).save(
                Self.state)
        } catch {
            message = error.description
        }
        #expect(message.contains("owned by uid 12345"), "\(message)")
        #expect(FileText.read(directory.file("state.json")) == nil)
    }

    @Test("a state file over the size limit is moved aside and kept, not overwritten by the next save")
    func oversizeFile() async throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        let sink = CapturingSink()
        // 17 MiB written, then read back twice: off the thread the tests' tasks share.
        let (loaded, aside, kept, bigCount) = try await offTheLoop {
            let big = "{\"version\": 1, \"tvs\": []}" + String(repeating: " ", count: 17 << 20)
            try FileText.write(big, to: directory.file("state.json"))
            let store = StateStore(
                directory: directory.path, kinds: [Vendor].shipped.stateFileKinds,
                logger: Logger(label: "test", sink: sink, threshold: LogThreshold(.debug)))
            let loaded = store.load()
            try store.save(Self.state)
            let aside = FileSystemListing.names(directory.path).filter { $0.hasPrefix("state.json.unreadable-") }
            let kept = aside.first.flatMap { FileText.read(directory.file($0)) }
            return (loaded, aside, kept?.utf8.count, big.utf8.count)
        }
        #expect(loaded == PersistedState())
        #expect(aside.count == 1, "\(FileSystemListing.names(directory.path))")
        #expect(kept == bigCount, "the unreadable file was not kept as it was")
        let reported = sink.lines.contains { $0.contains("unreadable") && $0.contains("moved it aside") }
        #expect(reported, "\(sink.lines)")
    }
}
