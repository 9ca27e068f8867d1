import Glibc
import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt discover` and `tv2mqtt send` against simulated Rokus on loopback (README › Command line).
@Suite("discover and send")
struct DiscoverAndSendTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    /// Two Rokus (a TV on 127.0.0.2, a stick on 127.0.0.3), each in a `tvsim` of its own
    /// (see TVSimProcess), answering SSDP and Wake-on-LAN on ports shared by broadcast.
    func withRokus(_ body: ([TVSimProcess], UInt16, UInt16) async throws -> Void) async throws {
        // Held for the whole test (see SharedUDPPort); the TVs are reached by broadcast.
        let (ssdp, wol) = (try SharedUDPPort(), try SharedUDPPort())
        let (ssdpPort, wolPort) = (ssdp.port, wol.port)
        defer {
            ssdp.close()
            wol.close()
        }
        var simulators: [TVSimProcess] = []
        do {
            for (host, kind) in [("127.0.0.2", "tv"), ("127.0.0.3", "stick")] {
                simulators.append(
                    try await TVSimProcess.start(
                        "roku",
                        [
                            "--host", host, "--port", "0", "--kind", kind, "--ssdp-port", String(ssdpPort),
                            "--wol-port", String(wolPort),
                        ]))
            }
            try await body(simulators, ssdpPort, wolPort)
        } catch {
            for simulator in simulators { await simulator.stop() }
            throw error
        }
        for simulator in simulators { await simulator.stop() }
    }

    @Test("discover --json lists every simulated Roku found by SSDP on loopback; the table names them")
    func discover() async throws {
        try await withRokus { simulators, ssdpPort, _ in
            let address = "127.255.255.255:\(ssdpPort)"
            let result = try await ChildProcess.run(
                tv2mqtt, ["discover", "--no-mdns", "--ssdp-address", address, "--timeout", "5", "--json"])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            let found = try JSONParser.parse(Array(result.output.utf8)).arrayValue ?? []
            let hosts = Set(found.compactMap { $0["host"]?.stringValue })
            #expect(hosts == ["127.0.0.2", "127.0.0.3"])
            for simulator in simulators {
                let entry = found.first { $0["host"]?.stringValue == simulator.host }
                #expect(entry?["id"]?.stringValue == "roku_" + simulator.serial.lowercased())
                #expect(entry?["port"]?.intValue == Int(simulator.port))
            }
            let table = try await ChildProcess.run(
                tv2mqtt, ["discover", "--no-mdns", "--ssdp-address", address, "--timeout", "5"])
            #expect(table.output.hasPrefix("ID"))
            #expect(table.output.contains("127.0.0.3"))
        }
    }

    @Test("send carries one command to a TV by address; the exit code tells success")
    func send() async throws {
        try await withRokus { simulators, _, wolPort in
            let state = try TemporaryDirectory(prefix: "send-state")
            defer { state.remove() }
            let tv = simulators[0]
            let target = "127.0.0.2:\(tv.port)"
            let ok = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--wol-target", "127.255.255.255:\(wolPort)", target, "key",
                    "home",
                ])
            #expect(ok.status == .exited(0), "stderr: \(ok.error)")
            let pressed = tv.entries.contains { $0["kind"] == "keypress" && $0["key"] == "Home" }
            #expect(pressed)
            let refused = try await ChildProcess.run(
                tv2mqtt, ["send", "--state-dir", state.path, target, "key", "SelfDestruct"])
            #expect(refused.status == .exited(1))
            #expect(refused.error.contains("SelfDestruct"))
        }
    }

    @Test("run with a TV configured stops on SIGTERM: offline published, exit 0; health says so before and after")
    func sigtermWithTVs() async throws {
        try await withRokus { simulators, _, _ in
            try await withMosquitto { broker in
                let directory = try TemporaryDirectory(prefix: "sigterm-state")
                defer { directory.remove() }
                let tv = simulators[0]
                let id = "roku_" + tv.serial.lowercased()
                let subscriber = try await MosquittoClients.startSubscriber(
                    to: broker.endpoint(), topics: ["tv2mqtt/\(id)/availability", "tv2mqtt/bridge/state"])
                try await subscriber.waitUntilSubscribed(on: broker)
                let bridge = try await ChildProcess.spawn(
                    tv2mqtt,
                    [
                        "run", "--mqtt-server", broker.url, "--state-dir", directory.path, "--no-ssdp", "--no-mdns",
                        "--tv", "roku:127.0.0.2:\(tv.port)", "--poll-interval", "1",
                    ],
                    stdout: .capture, stderr: .capture)
                let lines = await subscriber.waitForLines(count: 2, timeout: .seconds(30))
                #expect(lines.contains("tv2mqtt/\(id)/availability online"), "\(lines)")
                let healthy = try await ChildProcess.run(tv2mqtt, ["health", "--mqtt-server", broker.url])
                #expect(healthy.status == .exited(0), "stderr: \(healthy.error)")
                bridge.signal(SIGTERM)
                let status = await bridge.wait(timeout: .seconds(15))
                if status == nil { bridge.kill() }
                #expect(status == .exited(0), "stderr: \(bridge.capturedError())")
                #expect(!bridge.capturedError().contains("leaked its continuation"))
                let after = await subscriber.waitForLines(count: 3, timeout: .seconds(30))
                #expect(after.last == "tv2mqtt/bridge/state offline", "\(after)")
                let unhealthy = try await ChildProcess.run(tv2mqtt, ["health", "--mqtt-server", broker.url])
                #expect(unhealthy.status == .exited(1))
                #expect(unhealthy.error.contains("offline"), "stderr: \(unhealthy.error)")
                await subscriber.stop()
            }
        }
    }
}
