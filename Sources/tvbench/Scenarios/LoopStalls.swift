import Clients
import Glibc
import Harness
import Net
import Wire

/// `loop-stalls`: how long work that must not hold the one thread every TV shares does hold it,
/// the figures the test suite prints but no longer asserts (a test measures the code, not the
/// machine):
/// - the bridge starting with a 15 MB state file: its status page is asked `GET /api/state`
///   back to back while the file is read and parsed (beside the loop, in `BlockingWork`);
///   the longest answer is the longest the loop was held;
/// - a TLS handshake with a hostile server that would make the client compute a huge
///   finite-field Diffie-Hellman exchange (`openssl s_server` offering DHE over ffdhe8192
///   only, then TLS 1.3 with only that group): refused before any DH work, while a ticker on
///   this process's loop measures how late its 10 ms sleeps wake.
struct LoopStalls: Scenario {
    static let name = "loop-stalls"

    var metrics: [(name: String, unit: String)] {
        [
            ("state_file_15mb_start_s", "s"), ("state_file_15mb_longest_answer_ms", "ms"),
            ("tls_hostile_dhe_stall_ms", "ms"), ("tls_hostile_ffdhe_group_stall_ms", "ms"),
        ]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        try await stateFile() + tlsHostile()
    }

    private func stateFile() async throws -> [Measurement] {
        let port = try FreePort.tcp()
        // 140,000 strings of 100 bytes in a member the bridge ignores: about 15 MB to parse.
        let item = "\"" + String(repeating: "x", count: 100) + "\","
        var settings = BridgeSettings()
        settings.stateFile =
            "{\"padding\": [" + String(repeating: item, count: 140_000) + "\"end\"], \"tvs\": [], \"version\": 1}"
        settings.extraArguments = ["--http-listen", "127.0.0.1:\(port)"]
        return try await withBroker { broker in
            try await withProbe(broker, filters: ["bench/bridge/state"]) { probe in
                let started = ContinuousClock.now
                return try await withBridge(settings, broker: broker) { bridge in
                    let client = HTTPClient(host: "127.0.0.1", port: port, requestTimeout: .seconds(30))
                    var longest = Duration.zero
                    var answers = 0
                    while probe.seen("bench/bridge/state")?.payload != Array("online".utf8) {
                        try bridge.checkRunning()
                        guard ContinuousClock.now - started < .seconds(120) else {
                            throw BenchError("the bridge did not come online within 120 s: \(bridge.logTail(lines: 3))")
                        }
                        let asked = ContinuousClock.now
                        guard (try? await client.request("GET", "/api/state"))?.status == 200 else {
                            try await EventLoop.sleep(for: .milliseconds(5), clock: .system)  // not listening yet
                            continue
                        }
                        longest = max(longest, ContinuousClock.now - asked)
                        answers += 1
                    }
                    let took = ContinuousClock.now - started
                    return [
                        Measurement(
                            "state_file_15mb_start_s", took.seconds, unit: "s",
                            note: "start to bridge/state online, a 15 MB state file"),
                        Measurement(
                            "state_file_15mb_longest_answer_ms", answers > 0 ? longest.fractionalMilliseconds : nil,
                            unit: "ms",
                            target: Targets.stateFileLongestAnswer,
                            note: "longest of \(answers) GET /api/state answers while it loaded"),
                    ]
                }
            }
        }
    }

    private func tlsHostile() async throws -> [Measurement] {
        let directory = try TemporaryDirectory(prefix: "tvbench-tls")
        defer { directory.remove() }
        _ = try await ChildProcess.runChecked(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.file("key.pem"), "-out",
                directory.file("cert.pem"), "-subj", "/CN=hostile", "-days", "1",
            ])
        _ = try await ChildProcess.runChecked(
            "openssl",
            [
                "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe8192", "-out",
                directory.file("dh.pem"),
            ])
        let servers: [(name: String, arguments: [String])] = [
            (
                "tls_hostile_dhe_stall_ms",
                ["-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256", "-dhparam", directory.file("dh.pem")]
            ),
            ("tls_hostile_ffdhe_group_stall_ms", ["-tls1_3", "-groups", "ffdhe8192"]),
        ]
        var measurements: [Measurement] = []
        for server in servers {
            let started = ContinuousClock.now
            let (connected, stall) = try await handshake(directory: directory, server.arguments)
            let took = Report.format((ContinuousClock.now - started).fractionalMilliseconds)
            measurements.append(
                Measurement(
                    server.name, stall.fractionalMilliseconds, unit: "ms", target: Targets.tlsHostileStall,
                    note: connected
                        ? "the handshake SUCCEEDED: the client accepted finite-field DH"
                        : "refused; the attempt took \(took) ms"))
        }
        return measurements
    }

    /// One handshake against `openssl s_server ARGUMENTS`: whether it connected, and the
    /// longest a 10 ms sleep on this process's loop woke late meanwhile.
    private func handshake(directory: TemporaryDirectory, _ arguments: [String]) async throws -> (Bool, Duration) {
        let port = try FreePort.tcp()
        let server = try await ChildProcess.spawn(
            "openssl",
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory.file("cert.pem"), "-key",
                directory.file("key.pem"), "-quiet",
            ] + arguments, stdout: .discard, stderr: .discard)
        defer { server.kill() }
        let address = try SocketAddress(ip: "127.0.0.1", port: port)
        let listening = await waitUntil(timeout: .seconds(10), interval: .milliseconds(50)) {
            guard let probe = try? await TCPConnection.connect(to: address) else { return false }
            probe.close()
            return true
        }
        guard listening else { throw BenchError("openssl s_server did not start") }
        let ticking = Task { () -> Duration in
            var worst = Duration.zero
            while !Task.isCancelled {
                let asked = ContinuousClock.now
                try? await EventLoop.sleep(for: .milliseconds(10), clock: .system)
                worst = max(worst, ContinuousClock.now - asked - .milliseconds(10))
            }
            return worst
        }
        let tcp = try await TCPConnection.connect(to: address)
        let context = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil)))
        let secure = try? await TLSConnection.connect(
            over: tcp, context: context, serverName: nil, deadline: .now + .seconds(20))
        secure?.close()
        ticking.cancel()
        return (secure != nil, await ticking.value)
    }
}
