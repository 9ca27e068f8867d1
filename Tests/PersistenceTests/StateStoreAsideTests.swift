import Bridge
import Drivers
import Glibc
import Harness
import Support
import TVModel
import TestSupport
import Testing

@testable import Persistence

/// State files moved aside (`state.json.corrupt-*`, `state.json.unreadable-*`) may hold Samsung
/// tokens: they are made the owner's only (0600) whatever mode they had, and only the last
/// `StateStore.keptAsideFiles` of them stay. A state directory others can read is reported.
@Suite("State store: files moved aside")
struct StateStoreAsideTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    static func asideNames(_ directory: TemporaryDirectory) -> [String] {
        FileSystemListing.names(directory.path).filter {
            $0.hasPrefix("state.json.corrupt-") || $0.hasPrefix("state.json.unreadable-")
        }.sorted()
    }

    @Test("a corrupt state file of mode 0644 holding a token is moved aside as 0600")
    func asideIsPrivate() throws {
        let directory = try TemporaryDirectory(prefix: "state-aside")
        defer { directory.remove() }
        try FileText.write(#"{"version": 1, "tvs": [{"token": "secret-token", "#, to: directory.file("state.json"))
        #expect(chmod(directory.file("state.json"), 0o644) == 0)
        #expect(
            StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).load()
                == PersistedState())
        let aside = try #require(Self.asideNames(directory).first)
        #expect(FileText.read(directory.file(aside))?.contains("secret-token") == true, "kept as it was")
        let mode = Self.mode(directory.file(aside))
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")
    }

    @Test("after five corrupt files in a row only the last keptAsideFiles stay, the newest among them")
    func onlyTheLastFew() throws {
        let directory = try TemporaryDirectory(prefix: "state-aside")
        defer { directory.remove() }
        for round in 0..<5 {
            try FileText.write("{ corrupt \(round)", to: directory.file("state.json"))
            _ = StateStore(directory: directory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).load()
        }
        let kept = Self.asideNames(directory)
        #expect(kept.count == StateStore.keptAsideFiles, "\(kept)")
        let contents = kept.compactMap { FileText.read(directory.file($0)) }.sorted()
        #expect(contents == ["{ corrupt 2", "{ corrupt 3", "{ corrupt 4"], "not the newest were kept")
    }

    @Test("a state directory others can read is reported at start with what to do; a private one is not")
    func readableDirectoryWarned() throws {
        let directory = try TemporaryDirectory(prefix: "state-aside")
        defer { directory.remove() }
        for (mode, warned) in [(mode_t(0o755), true), (mode_t(0o750), true), (mode_t(0o700), false)] {
            #expect(chmod(directory.path, mode) == 0)
            let sink = CapturingSink()
            _ = StateStore(
                directory: directory.path, kinds: [Vendor].shipped.stateFileKinds,
                logger: Logger(label: "test", sink: sink, threshold: LogThreshold(.debug))
            ).load()
            let warning = sink.lines.contains { $0.contains("warning") && $0.contains("chmod 700") }
            #expect(warning == warned, "mode \(String(mode, radix: 8)): \(sink.lines)")
        }
    }
}
