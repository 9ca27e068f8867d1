import Glibc
import Harness

/// Where the built executables are: beside this one (`.build/release/` under
/// `swift run -c release tvbench`), so the benchmark measures the build it came from.
enum Products {
    static let directory: String = {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                readlink("/proc/self/exe", $0, pointer.count - 1)
            }
        }
        let path = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }()

    /// The path of `name` beside tvbench; throws with a hint when it has not been built.
    static func path(_ name: String) throws -> String {
        let path = directory + "/" + name
        guard access(path, X_OK) == 0 else {
            throw BenchError("\(path) is missing: build everything first (swift build -c release)")
        }
        return path
    }
}

/// How to start the bridge for one scenario.
struct BridgeSettings {
    var baseTopic = "bench"
    /// `--tv` values (`roku:127.77.0.1:8060`).
    var tvs: [String] = []
    /// `HOST:PORT` to search with SSDP; nil runs with `--no-ssdp`.
    var ssdpAddress: String?
    /// `HOST:PORT` to browse with mDNS; nil runs with `--no-mdns`.
    var mdnsAddress: String?
    var pollInterval: Double = 10
    var logLevel = "warning"
    /// Another tv2mqtt than `BridgeBuild.executable()` (the trace build of `latency-budget`).
    var executable: String?
    /// The bridge's whole environment; nil inherits tvbench's.
    var environment: [String: String]?
    /// More flags for `tv2mqtt run` (`--http-listen` for `idle-page`).
    var extraArguments: [String] = []
    /// The `state.json` the bridge starts with (`loop-stalls`); nil starts with none.
    var stateFile: String?
}

/// `tv2mqtt run` as a child process, so its CPU time, memory and descriptors can be read from
/// /proc without the benchmark's own work mixed in.
final class BridgeProcess: Sendable {
    let process: ChildProcess
    let stateDirectory: TemporaryDirectory
    let logPath: String
    let baseTopic: String

    private init(process: ChildProcess, stateDirectory: TemporaryDirectory, logPath: String, baseTopic: String) {
        self.process = process
        self.stateDirectory = stateDirectory
        self.logPath = logPath
        self.baseTopic = baseTopic
    }

    var pid: pid_t { process.pid }

    /// Starts the bridge with an empty state directory (every run discovers from scratch), or
    /// one holding `settings.stateFile`.
    /// Wake-on-LAN goes to the discard port on loopback, where nobody listens: nothing leaves
    /// the machine.
    static func start(_ settings: BridgeSettings, broker: BenchBroker) async throws -> BridgeProcess {
        // TVBENCH_BRIDGE: another tv2mqtt binary (a --static-swift-stdlib build, or a copy made
        // with `objcopy --strip-debug`: valgrind 3.19 cannot read the Swift binary's DWARF).
        let executable = try settings.executable ?? BridgeBuild.executable()
        let directory = try TemporaryDirectory(prefix: "tvbench-bridge")
        if let state = settings.stateFile {
            // As the bridge makes it: the directory and the file readable by its owner only.
            guard mkdir(directory.file("state"), 0o700) == 0 else {
                throw BenchError("cannot create the state directory")
            }
            try FileText.write(state, to: directory.file("state/state.json"), mode: 0o600)
        }
        var arguments = [
            "run", "--mqtt-server", broker.url, "--mqtt-client-id", "tvbench-bridge-\(getpid())",
            "--base-topic", settings.baseTopic, "--state-dir", directory.file("state"),
            "--log-level", settings.logLevel, "--poll-interval", Report.format(settings.pollInterval),
            "--wol-target", "127.0.0.1:9",
        ]
        arguments += settings.mdnsAddress.map { ["--mdns-address", $0] } ?? ["--no-mdns"]
        if let ssdp = settings.ssdpAddress {
            arguments += ["--ssdp-address", ssdp]
        } else {
            arguments.append("--no-ssdp")
        }
        for tv in settings.tvs { arguments += ["--tv", tv] }
        arguments += settings.extraArguments
        let logPath = directory.file("bridge.log")
        // Profiling: TVBENCH_BRIDGE_PREFIX="perf record -e cpu-clock -g -o /tmp/perf.data --" runs
        // the bridge under that command (the /proc figures are then the wrapper's). valgrind 3.19
        // crashes (SIGSEGV inside valgrind) on `tv2mqtt run`; no hardware counters on this VM.
        let prefix = (getenv("TVBENCH_BRIDGE_PREFIX").map { String(cString: $0) } ?? "")
            .split(separator: " ").map(String.init)
        let command = prefix + [executable] + arguments
        let process = try await ChildProcess.spawn(
            command[0], Array(command.dropFirst()), environment: settings.environment, stdout: .file(logPath),
            stderr: .file(logPath))
        return BridgeProcess(
            process: process, stateDirectory: directory, logPath: logPath, baseTopic: settings.baseTopic)
    }

    /// CPU, memory and descriptors now; nil once the bridge has ended.
    func stats() -> ProcessStats? { ProcessStats.read(pid: process.pid) }

    /// SIGTERM (the bridge publishes `offline` and disconnects), SIGKILL after 5 s.
    func stop() async {
        await process.terminate(grace: .seconds(5))
    }

    /// The last lines of the bridge's log, for an error message.
    func logTail(lines: Int = 10) -> String {
        let text = FileText.read(logPath) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Throws with the log's tail when the bridge has died.
    func checkRunning() throws {
        guard process.isRunning else {
            throw BenchError("the bridge ended (\(process.exitStatus.map { "\($0)" } ?? "?")): \(logTail())")
        }
    }
}
