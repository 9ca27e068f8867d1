import Glibc
import Harness
import TestSupport
import Testing

/// The soft descriptor limit is raised to the hard limit at start (a thousand TVs
/// need more than the usual 1024), and both are logged.
@Suite("Descriptor limit")
struct DescriptorLimitTests {
    static var hardLimit: UInt64 {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return UInt64(limit.rlim_max)
    }

    /// `Max open files` of /proc/<pid>/limits: (soft, hard).
    static func openFiles(of pid: pid_t) -> (soft: String, hard: String)? {
        guard let text = FileText.read("/proc/\(pid)/limits"),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        guard fields.count >= 2 else { return nil }
        return (String(fields[0]), String(fields[1]))
    }

    @Test(
        "tv2mqtt run started with a soft limit of 256 raises it to the hard limit and logs both",
        .enabled(if: hardLimit > 256 && hardLimit < UInt64(rlim_t.max)))
    func raisedToHard() async throws {
        let directory = try TemporaryDirectory(prefix: "descriptor-limit")
        defer { directory.remove() }
        let hard = Self.hardLimit
        // prlimit execs tv2mqtt with the lower soft limit: same pid. Port 1: no broker needed,
        // the limit is raised before the bridge connects.
        let bridge = try await ChildProcess.spawn(
            "prlimit",
            [
                "--nofile=256:\(hard)", FaultBridgeProcess.tv2mqtt, "run", "--mqtt-server", "mqtt://127.0.0.1:1",
                "--no-ssdp", "--no-mdns", "--state-dir", directory.file("state"),
            ], stdout: .discard, stderr: .capture)
        let logged = await waitUntil(timeout: .seconds(30)) {
            bridge.capturedError().contains("open descriptor limit")
        }
        let limits = Self.openFiles(of: bridge.pid)
        _ = await bridge.terminate()
        #expect(logged, "log: \(bridge.capturedError())")
        #expect(limits?.soft == "\(hard)" && limits?.hard == "\(hard)", "limits: \(String(describing: limits))")
        #expect(bridge.capturedError().contains("open descriptor limit: soft 256 → \(hard), hard \(hard)"))
    }
}
