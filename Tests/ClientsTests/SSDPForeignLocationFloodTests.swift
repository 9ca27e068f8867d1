import Clients
import Net
import Support
import Testing
import Wire

/// A flood of SSDP answers whose LOCATION names another host: each is refused, and the log
/// gets at most one warning a minute for all of them (a hostile LAN must not fill the disk
/// of a Raspberry Pi through the bridge's log).
@Suite("Bad-input catalogue: a flood of foreign LOCATIONs")
struct SSDPForeignLocationFloodTests {
    @Test("300 answers with foreign LOCATIONs: none is a sighting, one warning, the rest at debug")
    func foreignLocationFlood() async throws {
        let liar = try UDPSocket.bind(host: "127.0.0.43", port: 0)
        let port = liar.localAddress.port
        defer { liar.close() }
        let responder = Task {
            guard let search = try? await liar.receive(deadline: .now + .seconds(5)) else { return }
            for index in 0..<300 {
                let answer = SSDPResponse(
                    searchTarget: "roku:ecp", location: "http://127.0.1.\(index % 250 + 1):8060/",
                    usn: "uuid:roku:ecp:FLOOD\(index)")
                try? await liar.send(answer.encode(), to: search.from)
            }
        }
        defer { responder.cancel() }
        let logs = CapturingSink()
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.0.0.43", port: port), interfaces: [], targets: ["roku:ecp"],
            logger: Logger(label: "ssdp", sink: logs, threshold: LogThreshold(.debug)))
        var sightings = 0
        try await discoverer.search(count: 1, mx: 1) { _ in sightings += 1 }
        await responder.value

        #expect(sightings == 0)
        let lines = logs.lines.filter { $0.contains("its LOCATION points at another host") }
        let warnings = lines.filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(warnings.prefix(3))")
        #expect(lines.count > 1, "the refusals held back from the warning level are still at debug")
    }
}
