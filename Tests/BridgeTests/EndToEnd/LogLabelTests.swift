import Configuration
import Harness
import Support
import Testing

@testable import Bridge

/// Finding TVs (SSDP search, NOTIFY listening, the network scan) and publishing Home
/// Assistant's discovery configs are two different things; each logs under its own label, so a
/// log line says which one it came from (issue 14, item 4).
@Suite("Log labels of the TV search and Home Assistant discovery")
struct LogLabelTests {
    @Test("the TV search logs as 'search', Home Assistant discovery as 'homeassistant'")
    func distinctLabels() async throws {
        try await withBridgeFixture { fixture in
            // Not an IP address: the search logs an error at start and sends nothing.
            let configuration = fixture.configuration {
                $0.discovery.ssdp = true
                $0.discovery.ssdpAddress = HostPort(host: "ssdp.invalid", port: 1900)
            }
            let bridge = try await fixture.startBridge(configuration, factory: RecordingFactory([]))
            let logged = await waitUntil(timeout: .seconds(30)) {
                fixture.logs.all.contains { $0.message.hasPrefix("discovery.ssdp_address must be an IP address") }
            }
            #expect(logged, "\(fixture.logs.lines.suffix(10))")
            let labels = Set(
                fixture.logs.all.filter { $0.message.hasPrefix("discovery.ssdp_address must be") }.map(\.label))
            #expect(labels == ["search"])
            #expect(bridge.finder.logger.label == "search")
            let homeAssistantLabel = await bridge.homeAssistantDiscovery.logger.label
            #expect(homeAssistantLabel == "homeassistant")
        }
    }
}
