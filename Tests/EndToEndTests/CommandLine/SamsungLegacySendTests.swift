import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt send samsung-legacy:HOST:PORT …` and `tv2mqtt pair` against a simulated pre-2016
/// Samsung: the kind parses on the command line as in `--tv`, and the process reaches the TV.
@Suite("send to a pre-2016 Samsung")
struct SamsungLegacySendTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    @Test("send samsung-legacy:HOST:PORT key home reaches the TV after its prompt; an app is refused")
    func send() async throws {
        // In a tvsim of its own (see TVSimProcess): the child tv2mqtt waits for the TV in real time.
        let simulator = try await TVSimProcess.start(
            "samsung", ["--legacy", "--host", "127.0.0.87", "--port-legacy", "0"])
        do {
            try await sendAndRefuse(simulator)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    func sendAndRefuse(_ simulator: TVSimProcess) async throws {
        let state = try TemporaryDirectory(prefix: "legacy-send")
        defer { state.remove() }
        let target = "samsung-legacy:127.0.0.87:\(simulator.port)"
        let ok = try await ChildProcess.run(tv2mqtt, ["send", "--state-dir", state.path, target, "key", "home"])
        #expect(ok.status == .exited(0), "stderr: \(ok.error)")
        let pressed = simulator.entries.contains { $0["kind"] == "legacy_key" && $0["key"] == "KEY_HOME" }
        #expect(pressed)
        let refused = try await ChildProcess.run(
            tv2mqtt, ["send", "--state-dir", state.path, target, "app", "Netflix"])
        #expect(refused.status == .exited(1))
        #expect(refused.error.contains("keys only"), "stderr: \(refused.error)")
    }
}
