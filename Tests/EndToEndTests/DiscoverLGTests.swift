import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt discover` finds an LG webOS TV by its SSDP target, as it finds the others.
@Suite("discover: LG")
struct DiscoverLGTests {
    @Test("discover --json lists a simulated LG (on LG's own ports) with its UUID id and its name")
    func discoverLG() async throws {
        let ssdp = try SharedUDPPort()
        defer { ssdp.close() }
        var options = LGSimulatorOptions(host: "127.0.0.27", ssdpPort: ssdp.port)
        options.name = "Kitchen"
        options.ssdpAnswerWindow = .milliseconds(100)
        let simulator = try await LGSimulator.start(options, log: CommandLog.memory())
        do {
            let result = try await ChildProcess.run(
                BuiltProducts.path("tv2mqtt"),
                ["discover", "--ssdp-address", "127.255.255.255:\(ssdp.port)", "--timeout", "5", "--json"])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            let found = try JSONParser.parse(Array(result.output.utf8)).arrayValue ?? []
            let entry = found.first { $0["host"]?.stringValue == simulator.host }
            let uuid = String(simulator.udn.dropFirst("uuid:".count))
            #expect(entry?["id"]?.stringValue == "lg_" + uuid, "\(found)")
            #expect(entry?["name"]?.stringValue == "Kitchen")
            #expect(entry?["kind"]?.stringValue == "lg")
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
