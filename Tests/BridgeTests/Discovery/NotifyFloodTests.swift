import Configuration
import Drivers
import Harness
import Net
import Synchronization
import TVModel
import TestSupport
import Testing
import Wire

@testable import Bridge

/// The production factory, with its probes counted; probes of `slowHosts`' complement take
/// `delay` first, as an address that swallows the connection would (a flood's spoofed
/// sources, for which each probe would hold a descriptor until its timeout).
final class CountingFactory: DriverFactory {
    let inner: VendorDriverFactory
    let fastHosts: Set<String>
    let delay: Duration
    private struct Counts {
        var inFlight = 0
        var peak = 0
        var started = 0
    }
    private let counts = Mutex(Counts())

    init(_ inner: VendorDriverFactory, fastHosts: Set<String>, delay: Duration) {
        self.inner = inner
        self.fastHosts = fastHosts
        self.delay = delay
    }

    var vendors: [Vendor] { inner.vendors }
    var peak: Int { counts.withLock { $0.peak } }
    var started: Int { counts.withLock { $0.started } }
    var inFlight: Int { counts.withLock { $0.inFlight } }

    func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError) -> TVDescription {
        counts.withLock {
            $0.inFlight += 1
            $0.started += 1
            $0.peak = max($0.peak, $0.inFlight)
        }
        defer { counts.withLock { $0.inFlight -= 1 } }
        if !fastHosts.contains(host) { try? await Task.sleep(for: delay) }
        return try await inner.probe(host: host, kind: kind, port: port)
    }

    func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver {
        inner.makeDriver(for: description, secrets: secrets)
    }
}

/// Issue 13 item 7: NOTIFY floods are bounded.
@Suite("A NOTIFY flood is bounded", .serialized)
struct NotifyFloodTests {
    /// A NOTIFY ssdp:alive for a Roku at `source`, sent from `source` (so LOCATION agrees).
    static func notify(from source: String, to port: UInt16) async throws {
        let socket = try UDPSocket.bind(host: source, port: 0)
        defer { socket.close() }
        let message = SSDPNotify(
            notificationType: "roku:ecp", subtype: .alive, usn: "uuid:roku:ecp:SPOOF\(source)",
            location: "http://\(source):8060/", server: "Roku/9.0 UPnP/1.0", maxAge: 3600, host: "127.0.0.1:\(port)")
        try await socket.send(
            message.encode(), to: SocketAddress(ip: "127.0.0.1", port: port), deadline: .now + .seconds(1))
    }

    static func openDescriptors() -> Int {
        FileSystemListing.names("/proc/self/fd").count
    }

    @Test(
        "10,000 spoofed NOTIFYs from 5,000 sources: probes, failed-probe memory and descriptors stay bounded; a real TV is still found"
    )
    func flood() async throws {
        // Its bound counts the whole process's descriptors: started with everything else, it
        // counted the sockets of the tests that open theirs in the first seconds too.
        await afterStartupBurst()
        try await DescriptorTurns.run { try await floodRun() }
    }

    private func floodRun() async throws {
        try await withRokus { fixture, rokus in
            let configuration = fixture.configuration {
                $0.discovery.ssdp = true
                $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: rokus.ssdpPort)
                $0.discovery.searchInterval = 0
            }
            let factory = CountingFactory(
                VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled),
                fastHosts: ["127.0.0.71"],
                delay: .milliseconds(500))
            let bridge = try await fixture.startBridge(configuration, factory: factory)
            let before = Self.openDescriptors()
            var peakDescriptors = before
            // 5,000 sources (127.1.x.y), each twice; then 2,000 more from a single source.
            for _ in 0..<2 {
                for index in 0..<5000 {
                    try await Self.notify(from: "127.1.\(index / 250).\(index % 250 + 1)", to: rokus.ssdpPort)
                    if index % 200 == 0 {
                        peakDescriptors = max(peakDescriptors, Self.openDescriptors())
                        try await Task.sleep(for: .milliseconds(2))
                    }
                }
            }
            for index in 0..<2000 {
                try await Self.notify(from: "127.2.0.1", to: rokus.ssdpPort)
                if index % 200 == 0 { peakDescriptors = max(peakDescriptors, Self.openDescriptors()) }
            }
            // The real TV announces itself during the aftermath and answers the search.
            let real = try await rokus.start("127.0.0.71")
            try await fixture.publish("tv2mqtt/bridge/request/discover", "{}")
            await fixture.expectState(SimulatedRokus.id(real), timeout: .seconds(60)) { $0["power"] != nil }
            let failedProbes = await bridge.registry.failedProbeCount
            #expect(factory.peak <= TVFinder.probeConcurrency + 8, "peak probes in flight: \(factory.peak)")
            #expect(failedProbes <= TVRegistry.maxFailedProbes, "failed-probe entries: \(failedProbes)")
            #expect(peakDescriptors - before < 200, "descriptors: \(before) → peak \(peakDescriptors)")
            print(
                "flood: probes started \(factory.started), peak in flight \(factory.peak), failed-probe entries \(failedProbes), descriptors \(before) → peak \(peakDescriptors)"
            )
        }
    }
}
