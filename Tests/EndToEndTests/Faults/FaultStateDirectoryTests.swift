import Glibc
import Harness
import TVSimulators
import TestSupport
import Testing

/// A state directory that is full, or read-only (issue 7, fault 5): the failed write is
/// logged and the bridge goes on serving commands.
///
/// Both are real file systems in a private mount namespace of the bridge process
/// (`unshare -m`), so the kernel returns the real errors: a 16 KiB tmpfs filled up (ENOSPC
/// from write), and a read-only bind mount (EROFS from open). A chmod 0500 directory would
/// not do: the tests run as root, for whom permissions are no obstacle.
@Suite(
    "Faults: state directory full or read-only", .serialized,
    .enabled(if: geteuid() == 0 && ExecutableLookup.resolve("unshare") != nil, "needs root and unshare -m"))
struct FaultStateDirectoryTests {
    /// Mounts a full 16 KiB tmpfs on $1, then runs the rest.
    static let fullScript = """
        set -e
        mount -t tmpfs -o size=16k,mode=0700 tmpfs "$1"
        dd if=/dev/zero of="$1/filler" bs=4096 count=64 2>/dev/null || true
        shift; exec "$@"
        """
    /// Makes $1 (holding a valid state file already) a read-only bind mount, then runs the rest.
    static let readOnlyScript = """
        set -e
        mount --bind "$1" "$1"
        mount -o remount,ro,bind "$1"
        shift; exec "$@"
        """

    @Test("a full state directory: ENOSPC logged, commands still served; once space is freed the state is saved")
    func fullDirectory() async throws {
        try await withBridge(script: Self.fullScript, seed: false) { bridge, stateDir, context in
            try await context.rename("Full")
            try await context.expectLog(bridge, "No space left on device")
            try await context.expectCommandServed()
            // Make room, from outside, in the bridge's own view of the mount; the next change is saved.
            let inside = "/proc/\(bridge.pid)/root\(stateDir)"
            let temporary = FileSystemListing.names(inside).filter { $0.hasPrefix("state.json.tmp") }
            #expect(temporary.isEmpty, "a failed write leaves no temporary file")
            #expect(unlink(inside + "/filler") == 0, "cannot remove the filler: \(String(cString: strerror(errno)))")
            try await context.rename("Recovered")
            let saved = await waitUntil(timeout: .seconds(30)) {
                FileText.read(inside + "/state.json")?.contains("\"Recovered\"") == true
            }
            #expect(saved, "state after freeing space: \(FileText.read(inside + "/state.json") ?? "none")")
        }
    }

    @Test("a read-only state directory: EROFS logged, the TV it remembers still restored and commands served")
    func readOnlyDirectory() async throws {
        try await withBridge(script: Self.readOnlyScript, seed: true) { bridge, _, context in
            let restored = await waitUntil(timeout: .seconds(30)) {
                context.subscriber.lines().contains {
                    $0.hasPrefix("tv2mqtt/bridge/tvs ") && $0.contains("\"Remembered\"")
                }
            }
            #expect(restored, "the TV list does not name the remembered TV")
            try await context.rename("ReadOnly")
            try await context.expectLog(bridge, "Read-only file system")
            try await context.expectCommandServed()
        }
    }

    struct Context {
        let broker: MosquittoBroker
        let tv: RokuSimulator
        let log: CommandLog
        /// Availability of the TV and the bridge's TV list.
        let subscriber: MosquittoSubscriber
        var id: String { "roku_" + tv.serial.lowercased() }

        /// A change that makes the bridge write its state (within its 1 s coalescing delay).
        func rename(_ name: String) async throws {
            try await MosquittoClients.publish(
                to: broker.endpoint(), topic: "tv2mqtt/bridge/request/tv/rename",
                message: #"{"id": "\#(id)", "name": "\#(name)"}"#, qos: 1)
        }

        func expectLog(_ bridge: ChildProcess, _ reason: String) async throws {
            let logged = await waitUntil(timeout: .seconds(30)) {
                bridge.capturedError().split(separator: "\n").contains {
                    $0.contains("cannot save the state file") && $0.contains(reason)
                }
            }
            #expect(logged, "stderr: \(bridge.capturedError())")
            #expect(bridge.isRunning)
        }

        /// A command published now reaches the TV.
        func expectCommandServed() async throws {
            try await MosquittoClients.publish(
                to: broker.endpoint(), topic: "tv2mqtt/\(id)/set/key", message: "home", qos: 1)
            let pressed = await log.waitFor(timeout: .seconds(30)) { $0["key"] == "Home" }
            #expect(pressed != nil, "the command never reached the TV")
        }
    }

    /// A broker, a simulated Roku, and `tv2mqtt run` inside `unshare -m sh -c script` with the
    /// state directory as `$1`; all stopped afterwards. `seed` writes a state file naming the
    /// TV first (a read-only directory still holds what was saved before).
    func withBridge(script: String, seed: Bool, _ body: (ChildProcess, String, Context) async throws -> Void)
        async throws
    {
        await afterStartupBurst()
        try await withMosquitto { broker in
            let directory = try TemporaryDirectory(prefix: "fault-statedir")
            defer { directory.remove() }
            let stateDir = directory.file("state")
            mkdir(stateDir, 0o700)
            let log = CommandLog.memory()
            var options = RokuSimulatorOptions()
            options.host = "127.0.0.2"
            options.port = 0
            let tv = try await RokuSimulator.start(options, log: log)
            let id = "roku_" + tv.serial.lowercased()
            let subscriber = try await MosquittoClients.startSubscriber(
                to: broker.endpoint(), topics: ["tv2mqtt/\(id)/availability", "tv2mqtt/bridge/tvs"])
            let context = Context(broker: broker, tv: tv, log: log, subscriber: subscriber)
            if seed { try FileText.write(Self.state(context), to: stateDir + "/state.json") }
            var bridge: ChildProcess?
            do {
                try await subscriber.waitUntilSubscribed(on: broker)
                let arguments = [
                    "-m", "sh", "-c", script, "sh", stateDir, FaultBridgeProcess.tv2mqtt, "run",
                    "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir", stateDir, "--poll-interval",
                    "1",
                    "--tv", "roku:\(tv.host):\(tv.port)", "--wol-target", "127.0.0.1:9",
                ]
                let process = try await ChildProcess.spawn("unshare", arguments, stdout: .discard, stderr: .capture)
                bridge = process
                let online = await waitUntil(timeout: .seconds(30)) {
                    subscriber.lines().contains("tv2mqtt/\(id)/availability online")
                }
                try #require(online, "stderr: \(process.capturedError())")
                try await body(process, stateDir, context)
                #expect(process.isRunning, "stderr: \(process.capturedError())")
                let failures = process.capturedError().split(separator: "\n").filter { $0.contains("cannot save") }
                print("state directory: \(failures.count) failed saves logged, first: \(failures.first ?? "none")")
            } catch {
                await bridge?.terminate(grace: .seconds(5))
                await tv.stop()
                await subscriber.stop()
                throw error
            }
            await bridge?.terminate(grace: .seconds(5))
            await tv.stop()
            await subscriber.stop()
        }
    }

    /// A state file that remembers the simulated TV.
    static func state(_ context: Context) -> String {
        """
        {"version": 1, "tvs": [{"identity": {"id": "\(context.id)", "kind": "roku", "name": "Remembered",
         "manufacturer": "Roku", "host": "\(context.tv.host)", "port": \(context.tv.port), "macs": []}}]}

        """
    }
}
