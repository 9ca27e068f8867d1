import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt discover` finds an LG webOS TV by its SSDP target, as it finds the others (the TV
/// in a `tvsim` of its own: see TVSimProcess).
@Suite("discover: LG")
struct DiscoverLGTests {
    @Test("discover --json lists a simulated LG (on LG's own ports) with its UUID id and its name")
    func discoverLG() async throws {
        let ssdp = try SharedUDPPort()
        defer { ssdp.close() }
        let simulator = try await TVSimProcess.start(
            "lg",
            ["--host", "127.0.0.27", "--ssdp-port", String(ssdp.port), "--name", "Kitchen"])
        do {
            let result = try await ChildProcess.run(
                BuiltProducts.path("tv2mqtt"),
                ["discover", "--no-mdns", "--ssdp-address", "127.255.255.255:\(ssdp.port)", "--timeout", "5", "--json"])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            let found = try JSONParser.parse(Array(result.output.utf8)).arrayValue ?? []
            let entry = found.first { $0["host"]?.stringValue == simulator.host }
            let uuid = String(simulator.serial.dropFirst("uuid:".count))
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
