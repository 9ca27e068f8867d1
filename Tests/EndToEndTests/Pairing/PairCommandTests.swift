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

    /// A Samsung in a tvsim of its own (see TVSimProcess), on any free ports, which the
    /// configuration names as a user would.
    static func startSamsung(_ host: String, _ pairing: String) async throws -> TVSimProcess {
        try await TVSimProcess.start(
            "samsung", ["--host", host, "--port-ws", "0", "--port-wss", "0", "--port-upnp", "0", "--pairing", pairing])
    }

    static func configured(_ simulator: TVSimProcess) -> String {
        let ports = simulator.ports
        return
            #"{"host": "\#(simulator.host)", "kind": "samsung", "port": \#(ports[0]), "port_wss": \#(ports[1]), "port_upnp": \#(ports[2])}"#
    }

    /// The tokens the simulated TV issued, from its `/sim/state`.
    static func issuedTokens(_ simulator: TVSimProcess) async throws -> [String] {
        (try await simulator.simState()["issued_tokens"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    func withSamsung(
        _ pairing: String, _ body: (TVSimProcess, TemporaryDirectory, String) async throws -> Void
    ) async throws {
        let simulator = try await Self.startSamsung("127.0.0.5", pairing)
        do {
            let directory = try TemporaryDirectory(prefix: "pair")
            defer { directory.remove() }
            try FileText.write(#"{"tvs": [\#(Self.configured(simulator))]}"#, to: directory.file("config.json"))
            try await body(simulator, directory, directory.file("config.json"))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    @Test("an approving TV: exit 0, the token saved in the state directory (mode 0600), not printed")
    func approved() async throws {
        try await withSamsung("accept") { simulator, directory, config in
            let result = try await ChildProcess.run(
                tv2mqtt, ["pair", "--config", config, "--state-dir", directory.file("state"), "127.0.0.5"])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            #expect(result.output.contains("paired with"))
            let token = try #require(try await Self.issuedTokens(simulator).first)
            let saved = FileText.read(directory.file("state/state.json")) ?? ""
            #expect(saved.contains(token))
            #expect(!result.output.contains(token) && !result.error.contains(token), "the token was printed")
        }
    }

    @Test("a refusing TV: exit 1 and a message that says what to do on the TV; nothing saved")
    func denied() async throws {
        try await withSamsung("deny") { _, directory, config in
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
                let token = try #require(try await Self.issuedTokens(simulators[0]).first)
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
                    result.error.contains("discovery found 2 Android TV, LG or Samsung TVs; name one"),
                    "stderr: \(result.error)")
                #expect(result.error.contains("tv2mqtt pair HOST"))
                for simulator in simulators { #expect(result.error.contains(simulator.host)) }
                for simulator in simulators { #expect(try await Self.issuedTokens(simulator).isEmpty) }
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
                #expect(result.error.contains("no Android TV, LG or Samsung TV is known"), "stderr: \(result.error)")
                #expect(result.error.contains("tv2mqtt pair HOST"))
            }
        }
    }

    /// Approving Samsungs on `hosts`, listed in a configuration file that searches SSDP at `ssdp`
    /// (loopback) only.
    func withSamsungs(
        _ hosts: [String], ssdp: String,
        _ body: ([TVSimProcess], TemporaryDirectory, String) async throws -> Void
    ) async throws {
        var simulators: [TVSimProcess] = []
        do {
            for host in hosts { simulators.append(try await Self.startSamsung(host, "accept")) }
            let directory = try TemporaryDirectory(prefix: "pair")
            defer { directory.remove() }
            let tvs = simulators.map(Self.configured).joined(separator: ", ")
            let config = #"{"discovery": {"ssdp_address": "\#(ssdp)", "mdns": false}, "tvs": [\#(tvs)]}"#
            try FileText.write(config, to: directory.file("config.json"))
            try await body(simulators, directory, directory.file("config.json"))
        } catch {
            for simulator in simulators { await simulator.stop() }
            throw error
        }
        for simulator in simulators { await simulator.stop() }
    }
}
