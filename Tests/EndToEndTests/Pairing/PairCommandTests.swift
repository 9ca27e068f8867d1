import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt pair HOST` (README › Command line) as users run it, against a simulated Samsung: exit 0
/// and the token saved when the TV approves, exit 1 with what to do on the TV when it refuses.
@Suite("tv2mqtt pair")
struct PairCommandTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    func withSamsung(
        _ pairing: SamsungPairingMode, _ body: (SamsungSimulator, TemporaryDirectory, String) async throws -> Void
    ) async throws {
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: "127.0.0.5", portWS: 0, portWSS: 0, portUPnP: 0, pairing: pairing),
            log: CommandLog.memory())
        do {
            let directory = try TemporaryDirectory(prefix: "pair")
            defer { directory.remove() }
            // The simulator's ports are not the defaults: tell tv2mqtt where they are, as a user would.
            let config = """
                {"tvs": [{"host": "127.0.0.5", "kind": "samsung", "port": \(simulator.portWS),
                          "port_wss": \(simulator.portWSS), "port_upnp": \(simulator.portUPnP)}]}
                """
            try FileText.write(config, to: directory.file("config.json"))
            try await body(simulator, directory, directory.file("config.json"))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    @Test("an approving TV: exit 0, the token saved in the state directory (mode 0600), not printed")
    func approved() async throws {
        try await withSamsung(.accept) { simulator, directory, config in
            let result = try await ChildProcess.run(
                tv2mqtt, ["pair", "--config", config, "--state-dir", directory.file("state"), "127.0.0.5"])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            #expect(result.output.contains("paired with"))
            let token = try #require(simulator.issuedTokens.first)
            let saved = FileText.read(directory.file("state/state.json")) ?? ""
            #expect(saved.contains(token))
            #expect(!result.output.contains(token) && !result.error.contains(token), "the token was printed")
        }
    }

    @Test("a refusing TV: exit 1 and a message that says what to do on the TV; nothing saved")
    func denied() async throws {
        try await withSamsung(.deny) { _, directory, config in
            let result = try await ChildProcess.run(
                tv2mqtt, ["pair", "--config", config, "--state-dir", directory.file("state"), "127.0.0.5"])
            #expect(result.status == .exited(1))
            #expect(result.error.contains("Device Connection Manager"), "stderr: \(result.error)")
            #expect(FileText.read(directory.file("state/state.json")) == nil)
        }
    }

    @Test("no Samsung at the address: exit 1 naming it")
    func nobodyThere() async throws {
        let directory = try TemporaryDirectory(prefix: "pair")
        defer { directory.remove() }
        // Held, not listening, for the whole test: refused, and no other socket can take it.
        let reserved = try ReservedTCPPort(host: "127.0.0.6")
        defer { reserved.release() }
        let config = #"{"tvs": [{"host": "127.0.0.6", "kind": "samsung", "port": \#(reserved.port)}]}"#
        try FileText.write(config, to: directory.file("config.json"))
        let result = try await ChildProcess.run(
            tv2mqtt, ["pair", "--config", directory.file("config.json"), "--state-dir", directory.path, "127.0.0.6"])
        #expect(result.status == .exited(1))
        #expect(result.error.contains("127.0.0.6"), "stderr: \(result.error)")
    }

    @Test("pair without HOST pairs the only Samsung, a Roku found beside it being no candidate")
    func onlySamsung() async throws {
        try await withLoopbackRokus(["127.0.0.2"]) { _, ssdp, _ in
            try await withSamsungs(["127.0.0.5"], ssdp: ssdp) { simulators, directory, config in
                let result = try await ChildProcess.run(
                    tv2mqtt, ["pair", "--config", config, "--state-dir", directory.file("state"), "--timeout", "5"])
                #expect(result.status == .exited(0), "stderr: \(result.error)")
                #expect(result.output.contains("paired with"))
                let token = try #require(simulators[0].issuedTokens.first)
                #expect(FileText.read(directory.file("state/state.json"))?.contains(token) == true)
            }
        }
    }

    @Test("pair without HOST and two Samsungs: exit 2 listing both and how to name one; nothing saved")
    func severalSamsungs() async throws {
        try await withLoopbackRokus([]) { _, ssdp, _ in
            try await withSamsungs(["127.0.0.5", "127.0.0.6"], ssdp: ssdp) { simulators, directory, config in
                let result = try await ChildProcess.run(
                    tv2mqtt, ["pair", "--config", config, "--state-dir", directory.file("state"), "--timeout", "5"])
                #expect(result.status == .exited(2), "stderr: \(result.error)")
                #expect(
                    result.error.contains("discovery found 2 LG or Samsung TVs; name one"), "stderr: \(result.error)")
                #expect(result.error.contains("tv2mqtt pair HOST"))
                for simulator in simulators { #expect(result.error.contains(simulator.host)) }
                let tokens = simulators.flatMap(\.issuedTokens)
                #expect(tokens.isEmpty)
                #expect(FileText.read(directory.file("state/state.json")) == nil)
            }
        }
    }

    @Test("pair without HOST and no Samsung (only a Roku answers): exit 1 saying so")
    func noSamsung() async throws {
        try await withLoopbackRokus(["127.0.0.2"]) { _, ssdp, _ in
            try await withSamsungs([], ssdp: ssdp) { _, directory, config in
                let result = try await ChildProcess.run(
                    tv2mqtt, ["pair", "--config", config, "--state-dir", directory.file("state"), "--timeout", "5"])
                #expect(result.status == .exited(1), "stderr: \(result.error)")
                #expect(result.error.contains("no LG or Samsung TV is known"), "stderr: \(result.error)")
                #expect(result.error.contains("tv2mqtt pair HOST"))
            }
        }
    }

    /// Approving Samsungs on `hosts`, listed in a configuration file that searches SSDP at `ssdp`
    /// (loopback) only.
    func withSamsungs(
        _ hosts: [String], ssdp: String,
        _ body: ([SamsungSimulator], TemporaryDirectory, String) async throws -> Void
    ) async throws {
        var simulators: [SamsungSimulator] = []
        do {
            for host in hosts {
                simulators.append(
                    try await SamsungSimulator.start(
                        SamsungSimulatorOptions(host: host, portWS: 0, portWSS: 0, portUPnP: 0, pairing: .accept),
                        log: CommandLog.memory()))
            }
            let directory = try TemporaryDirectory(prefix: "pair")
            defer { directory.remove() }
            let tvs = simulators.map { simulator in
                #"{"host": "\#(simulator.host)", "kind": "samsung", "port": \#(simulator.portWS), "port_wss": \#(simulator.portWSS), "port_upnp": \#(simulator.portUPnP)}"#
            }
            let config = #"{"discovery": {"ssdp_address": "\#(ssdp)"}, "tvs": [\#(tvs.joined(separator: ", "))]}"#
            try FileText.write(config, to: directory.file("config.json"))
            try await body(simulators, directory, directory.file("config.json"))
        } catch {
            for simulator in simulators { await simulator.stop() }
            throw error
        }
        for simulator in simulators { await simulator.stop() }
    }
}
