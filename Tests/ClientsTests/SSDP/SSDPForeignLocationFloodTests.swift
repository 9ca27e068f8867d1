import Net
import Support
import Testing
import Wire

@testable import Clients

/// A flood of SSDP answers whose LOCATION names another host: each is refused, and the log
/// gets at most one warning a minute for all of them (a hostile LAN must not fill the disk
/// of a Raspberry Pi through the bridge's log). The datagrams go straight into the
/// discoverer's check, as its socket loop hands them over, so the count does not depend on
/// how many a loaded machine delivers within a search window.
@Suite("Bad-input catalogue: a flood of foreign LOCATIONs")
struct SSDPForeignLocationFloodTests {
    @Test("300 answers with foreign LOCATIONs: none is a sighting, one warning, the rest at debug")
    func foreignLocationFlood() throws {
        let logs = CapturingSink()
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.0.0.43", port: 1900), interfaces: [], targets: ["roku:ecp"],
            logger: Logger(label: "ssdp", sink: logs, threshold: LogThreshold(.debug)))
        let sender = try SocketAddress(ip: "127.0.0.43", port: 1900)
        var sightings = 0
        for index in 0..<300 {
            let answer = SSDPResponse(
                searchTarget: "roku:ecp", location: "http://127.0.1.\(index % 250 + 1):8060/",
                usn: "uuid:roku:ecp:FLOOD\(index)")
            if discoverer.sighting(from: answer.encode(), sender: sender, expecting: .response) != nil {
                sightings += 1
            }
        }
        #expect(sightings == 0)
        let lines = logs.lines.filter { $0.contains("its LOCATION points at another host") }
        let warnings = lines.filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(warnings.prefix(3))")
        #expect(lines.count == 300, "each refusal held back from the warning level is a debug line")
    }
}
