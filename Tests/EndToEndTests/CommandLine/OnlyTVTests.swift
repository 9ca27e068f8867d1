import Harness
import Net
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt send COMMAND [ARG]` without naming the TV (issue 19): with one TV, known in the
/// state directory or found by a short discovery, use it; with none or several, say how to name
/// one, listing them. Discovery searches only loopback here (`--ssdp-address`); the TVs run in
/// `tvsim` processes, since the child `tv2mqtt` keeps its search window in real time.
@Suite("send without naming the TV")
struct OnlyTVTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    @Test("no TV known and none found: exit 1, naming where it searched and how to name one")
    func none() async throws {
        try await withLoopbackRokus([]) { _, ssdp, log in
            let state = try TemporaryDirectory(prefix: "only-tv")
            defer { state.remove() }
            let result = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--ssdp-address", ssdp, "--no-mdns", "--timeout", Self.search,
                    "key", "home",
                ])
            #expect(result.status == .exited(1), "stderr: \(result.error)")
            #expect(result.error.contains("no TV is known"), "stderr: \(result.error)")
            #expect(result.error.contains("SSDP at \(ssdp)"), "stderr: \(result.error)")
            #expect(result.error.contains("tv2mqtt send TV COMMAND [ARG]"), "stderr: \(result.error)")
            #expect(log.entries.isEmpty)
        }
    }

    @Test("one TV found by discovery (nothing in the state directory): the command goes to it")
    func oneFound() async throws {
        try await withLoopbackRokus(["127.0.0.2"]) { _, ssdp, log in
            let state = try TemporaryDirectory(prefix: "only-tv")
            defer { state.remove() }
            let result = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--ssdp-address", ssdp, "--no-mdns", "--timeout", Self.search,
                    "key", "home",
                ])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            #expect(result.output.contains("ok"))
            let pressed = log.entries.contains { $0["kind"] == "keypress" && $0["key"] == "Home" }
            #expect(pressed, "\(log.entries)")
        }
    }

    @Test("one TV in the state directory: the command goes to it, even with others on the network")
    func oneKnown() async throws {
        // Two Rokus answer SSDP, but the state directory knows one: that one is meant.
        try await withLoopbackRokus(["127.0.0.2", "127.0.0.3"]) { rokus, ssdp, log in
            let state = try TemporaryDirectory(prefix: "only-tv")
            defer { state.remove() }
            try writeState([rokus[1]], to: state)
            let result = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--ssdp-address", ssdp, "--no-mdns", "--timeout", Self.search,
                    "key", "home",
                ])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            let pressed = log.entries.filter { $0["kind"] == "keypress" }.compactMap { $0["host"]?.stringValue }
            #expect(pressed == ["127.0.0.3"], "\(log.entries)")
        }
    }

    @Test("several TVs found: exit 2 listing each id, name and host, and how to name one; nothing sent")
    func severalFound() async throws {
        try await withLoopbackRokus(["127.0.0.2", "127.0.0.3"]) { rokus, ssdp, log in
            let state = try TemporaryDirectory(prefix: "only-tv")
            defer { state.remove() }
            let result = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--ssdp-address", ssdp, "--no-mdns", "--timeout", Self.search,
                    "key", "home",
                ])
            #expect(result.status == .exited(2), "stderr: \(result.error)")
            #expect(result.error.contains("discovery found 2 TVs; name one"), "stderr: \(result.error)")
            #expect(result.error.contains("tv2mqtt send TV COMMAND [ARG]"))
            for roku in rokus {
                let row = result.error.split(separator: "\n").first { $0.contains(roku.host) } ?? ""
                #expect(row.contains(Self.id(roku)) && row.contains(roku.name), "stderr: \(result.error)")
            }
            let pressed = log.entries.contains { $0["kind"] == "keypress" }
            #expect(!pressed)
        }
    }

    @Test("several TVs in the state directory: exit 2 listing them; naming one (TV COMMAND ARG) then works")
    func severalKnown() async throws {
        try await withLoopbackRokus(["127.0.0.2", "127.0.0.3"]) { rokus, ssdp, log in
            let state = try TemporaryDirectory(prefix: "only-tv")
            defer { state.remove() }
            try writeState(rokus, to: state)
            let ambiguous = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--ssdp-address", ssdp, "--no-mdns", "--timeout", Self.search,
                    "key", "home",
                ])
            #expect(ambiguous.status == .exited(2), "stderr: \(ambiguous.error)")
            #expect(ambiguous.error.contains("the state directory knows 2 TVs; name one"))
            for roku in rokus { #expect(ambiguous.error.contains(Self.id(roku))) }
            let named = try await ChildProcess.run(
                tv2mqtt,
                [
                    "send", "--state-dir", state.path, "--ssdp-address", ssdp, "--no-mdns", "--timeout", Self.search,
                    Self.id(rokus[0]), "key", "home",
                ])
            #expect(named.status == .exited(0), "stderr: \(named.error)")
            let pressed = log.entries.filter { $0["kind"] == "keypress" }.compactMap { $0["host"]?.stringValue }
            #expect(pressed == ["127.0.0.2"], "\(log.entries)")
        }
    }

    /// Two SSDP rounds in a 6 s window (tvsim answers within MX, 4 s).
    static let search = "5"

    static func id(_ roku: TVSimProcess) -> String { "roku_" + roku.serial.lowercased() }

    /// A state file that knows `rokus`, as the bridge writes it.
    func writeState(_ rokus: [TVSimProcess], to directory: TemporaryDirectory) throws {
        let entries = rokus.map { roku in
            #"{"identity": {"id": "\#(Self.id(roku))", "kind": "roku", "name": "\#(roku.name)", "host": "\#(roku.host)", "port": \#(roku.port), "macs": []}}"#
        }
        try FileText.write(
            #"{"version": 1, "tvs": [\#(entries.joined(separator: ", "))]}"#, to: directory.file("state.json"),
            mode: 0o600)
    }
}

/// Simulated Rokus on `hosts`, each in a `tvsim` of its own (see TVSimProcess), answering SSDP
/// searches sent to `127.255.255.255:<port>` (the `ssdp` argument: loopback's broadcast, never
/// the multicast address), on a port this fixture holds open so no other test shares it; one
/// command log for all; stopped whether `body` fails or not.
func withLoopbackRokus(
    _ hosts: [String], _ body: (_ rokus: [TVSimProcess], _ ssdp: String, _ log: TVSimLog) async throws -> Void
) async throws {
    let holder = try UDPSocket.bind(host: "127.0.0.1", port: 0, reuse: true)
    defer { holder.close() }
    let port = holder.localAddress.port
    let directory = try TemporaryDirectory(prefix: "rokus")
    defer { directory.remove() }
    let log = TVSimLog(path: directory.file("commands.log"))
    var simulators: [TVSimProcess] = []
    do {
        for host in hosts {
            simulators.append(
                try await TVSimProcess.start(
                    "roku", ["--host", host, "--port", "0", "--ssdp-port", String(port)], log: log))
        }
        try await body(simulators, "127.255.255.255:\(port)", log)
    } catch {
        for simulator in simulators { await simulator.stop() }
        throw error
    }
    for simulator in simulators { await simulator.stop() }
}
