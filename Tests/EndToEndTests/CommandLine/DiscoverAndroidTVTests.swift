import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt discover` finds an Android TV by mDNS (DNS-SD), as the bridge does: the TV in a
/// `tvsim androidtv` of its own answering on the loopback broadcast address.
@Suite("discover: Android TV")
struct DiscoverAndroidTVTests {
    @Test("discover --json lists a simulated Android TV found by mDNS, with its MAC's id and its name")
    func discoverAndroidTV() async throws {
        let mdns = try SharedUDPPort()
        defer { mdns.close() }
        let simulator = try await TVSimProcess.start(
            "androidtv", ["--host", "127.0.0.28", "--sim-port", "0", "--mdns-port", String(mdns.port), "--name", "Den"])
        do {
            var entry: JSONValue?
            // A datagram may be lost: a second run asks again.
            for _ in 0..<3 where entry == nil {
                let result = try await ChildProcess.run(
                    BuiltProducts.path("tv2mqtt"),
                    [
                        "discover", "--no-ssdp", "--mdns-address", "127.255.255.255:\(mdns.port)", "--timeout", "5",
                        "--json",
                    ])
                #expect(result.status == .exited(0), "stderr: \(result.error)")
                let found = try JSONParser.parse(Array(result.output.utf8)).arrayValue ?? []
                entry = found.first { $0["host"]?.stringValue == simulator.host }
            }
            #expect(entry?["id"]?.stringValue == "androidtv_02007f00001c", "\(String(describing: entry))")
            #expect(entry?["name"]?.stringValue == "Den")
            #expect(entry?["kind"]?.stringValue == "androidtv")
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
