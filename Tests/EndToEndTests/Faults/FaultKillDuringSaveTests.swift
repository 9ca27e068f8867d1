import Clients
import Glibc
import Harness
import Synchronization
import TestSupport
import Testing
import Wire

/// `kill -9` of `tv2mqtt run` while it writes its state file, 100 times (issue 7, fault 4).
///
/// To write often, the bridge runs with `TV2MQTT_TEST_STATE_SAVE_DELAY_MS=0` (no coalescing)
/// while the test renames its 20 TVs through `bridge/request/tv/rename` every 5 ms: every
/// rename is a new state file (temporary file, fsync, rename). Every other run is killed a
/// random 0–20 ms after its first rename reached the disk; the others as soon as their
/// temporary file is seen, in the middle of a write.
@Suite("Faults: kill -9 while writing state", .serialized)
struct FaultKillDuringSaveTests {
    static let kills = 100
    static let tvCount = 20

    @Test("100 kills mid-write: the state file is always whole JSON, old or new; temporary files do not pile up")
    func killWhileSaving() async throws {
        await afterStartupBurst()
        try await withMosquitto { broker in
            let directory = try TemporaryDirectory(prefix: "fault-kill")
            defer { directory.remove() }
            let statePath = directory.file("state.json")
            try FileText.write(Self.initialState(), to: statePath)
            try FileText.write(
                Self.configuration(broker: broker, stateDir: directory.path), to: directory.file("config.json"))
            let renamer = try Renamer(broker: broker, tvCount: Self.tvCount)
            let renaming = Task { await renamer.run() }
            defer { renaming.cancel() }
            var interrupted = 0
            var changed = 0
            var previous = FileText.read(statePath) ?? ""
            for round in 1...Self.kills {
                let bridge = try await FaultBridgeProcess.start(
                    ["--config", directory.file("config.json")], environment: ["TV2MQTT_TEST_STATE_SAVE_DELAY_MS": "0"],
                    lowPriority: true)
                // Two new files: the one written after restoring the TVs, then a rename's.
                let inodes = Inodes(statePath)
                let writing = await waitUntil(timeout: .seconds(30), interval: .milliseconds(1)) {
                    inodes.changes() >= 2
                }
                if round.isMultiple(of: 2) {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
                } else {
                    // Aimed: the moment this run's temporary file exists, between create and rename.
                    // Its name: `state.json.tmp-<pid>-<random>` (the random part is not guessable).
                    let temporary = "state.json.tmp-\(bridge.pid)-"
                    _ = await waitUntil(timeout: .seconds(2), interval: .milliseconds(1)) {
                        FileSystemListing.names(directory.path).contains { $0.hasPrefix(temporary) }
                    }
                }
                bridge.kill()
                _ = await bridge.wait()
                try #require(writing, "round \(round): no state written; stderr: \(bridge.capturedError())")

                let leftovers = FileSystemListing.names(directory.path).filter { $0.hasPrefix("state.json.tmp-") }
                if !leftovers.isEmpty { interrupted += 1 }
                // The run cleared what earlier kills left before writing: at most its own remains.
                #expect(leftovers.count <= 1, "round \(round): \(leftovers)")
                let text = FileText.read(statePath) ?? ""
                try #require(Self.isWholeState(text, renames: renamer), "round \(round): state file is \(text)")
                if text != previous { changed += 1 }
                previous = text
            }
            let strays = FileSystemListing.names(directory.path).filter { $0.contains(".corrupt-") }
            #expect(strays.isEmpty, "the bridge found a corrupt state file: \(strays)")
            print(
                "kill -9 during state writes: \(Self.kills) kills, \(interrupted) left a temporary file behind"
                    + " (cleared by the next start), \(changed) found a newer state, \(renamer.sent) renames sent")
        }
    }

    /// A complete state as the bridge writes it: JSON, a final newline, every TV, and names
    /// that are either the original ones or ones the test sent (nothing half-renamed).
    static func isWholeState(_ text: String, renames: Renamer) -> Bool {
        guard text.hasSuffix("}\n"), let state = try? JSONParser.parse(Array(text.utf8)),
            state["version"] == 1, let tvs = state["tvs"]?.arrayValue, tvs.count == tvCount
        else { return false }
        let ids = tvs.compactMap { $0["identity"]?["id"]?.stringValue }
        let names = tvs.compactMap { $0["identity"]?["name"]?.stringValue }
        let knownName = names.allSatisfy { $0.hasPrefix("TV ") || renames.wasSent($0) }
        return Set(ids) == Set((0..<tvCount).map(Self.id)) && names.count == tvCount && knownName
    }

    static func id(_ index: Int) -> String { "tv\(index)" }

    /// 20 Rokus at a loopback port nobody listens on: polled once, unreachable, left alone.
    static func initialState() -> String {
        let tvs = (0..<tvCount).map { index in
            """
            {"identity": {"id": "\(id(index))", "kind": "roku", "name": "TV \(index)", "manufacturer": "Roku",
             "host": "127.0.0.1", "port": 9, "macs": ["02:00:00:00:00:\(String(index, radix: 16))"]}}
            """
        }
        return "{\"version\": 1, \"tvs\": [\(tvs.joined(separator: ", "))]}\n"
    }

    static func configuration(broker: MosquittoBroker, stateDir: String) -> String {
        """
        {"mqtt": {"server": "\(broker.url)"}, "state_dir": "\(stateDir)", "poll_interval": 3600,
         "homeassistant": {"enabled": false}, "discovery": {"ssdp": false, "mdns": false}, "wol": {"targets": ["127.0.0.1:9"]},
         "log_level": "warning"}
        """
    }
}

/// Renames the TVs round-robin, `gen-<n>`, one every 5 ms (QoS 0: dropped by the broker
/// while no bridge is there to receive them).
final class Renamer: Sendable {
    let client: MQTTClient
    let tvCount: Int
    private let counter = Synchronization.Atomic(0)

    init(broker: MosquittoBroker, tvCount: Int) throws {
        client = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: broker.host, port: broker.port, session: MQTTSessionConfiguration(clientID: "renamer")),
            logger: .disabled)
        self.tvCount = tvCount
    }

    var sent: Int { counter.load(ordering: .relaxed) }

    func wasSent(_ name: String) -> Bool {
        guard name.hasPrefix("gen-"), let number = Int(name.dropFirst(4)) else { return false }
        return number < sent
    }

    func run() async {
        let connection = Task { await client.run() }
        _ = await client.waitUntilConnected()
        while !Task.isCancelled {
            let number = sent
            let request = #"{"id": "\#(FaultKillDuringSaveTests.id(number % tvCount))", "name": "gen-\#(number)"}"#
            if (try? await client.publish("tv2mqtt/bridge/request/tv/rename", request)) != nil {
                counter.add(1, ordering: .relaxed)
            }
            // Every 5 ms: writes follow each other closely, and the rest of the suite, running
            // beside this test, still gets the CPU (each rename costs the bridge a state write).
            try? await Task.sleep(for: .milliseconds(5))
        }
        await client.stop()
        connection.cancel()
    }
}

/// How often a file was replaced (its inode changed) since this was made.
final class Inodes: Sendable {
    let path: String
    private let last: Synchronization.Mutex<(inode: UInt64, changes: Int)>

    init(_ path: String) {
        self.path = path
        last = .init((Self.inode(path), 0))
    }

    func changes() -> Int {
        let now = Self.inode(path)
        return last.withLock { state in
            if now != state.inode {
                state = (now, state.changes + 1)
            }
            return state.changes
        }
    }

    static func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
}
