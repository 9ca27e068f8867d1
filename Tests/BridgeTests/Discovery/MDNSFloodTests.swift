import Configuration
import Drivers
import Harness
import Net
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// mDNS answers are bounded like SSDP's: a flood of answers to the bridge's browse, honest in
/// form (each instance's address is its sender's), from one source and from many, probes at
/// most `probeConcurrency` at a time and at most `announcementsPerSource` instances per source;
/// an answer naming another host is not followed; a real TV answering beside them is found. The
/// bridge runs on a clock that never moves, so what is counted is the bridge's, not the machine's.
@Suite("An mDNS flood is bounded", .serialized, .timeLimit(.minutes(5)))
struct MDNSFloodTests {
    static let service = try! DNSName("_androidtvremote2._tcp.local")

    static func answer(_ instance: String, from source: String, address: String? = nil) throws -> [UInt8] {
        let name = try DNSName(instance: instance, service: service)
        let host = try DNSName("\(instance).local")
        let bytes = (address ?? source).split(separator: ".").compactMap { UInt8($0) }
        return DNSMessage.response(
            answers: [DNSRecord(name: service, type: .ptr, ttl: 120, data: .ptr(name))],
            additionals: [
                DNSRecord(
                    name: name, type: .srv, ttl: 120, data: .srv(priority: 0, weight: 0, port: 6466, target: host)),
                DNSRecord(name: host, type: .a, ttl: 120, data: .a(bytes)),
            ]
        ).encoded()
    }

    @Test(
        "2,000 instances from one source and 3 from each of 300: bounded probes; a liar is not followed; the TV is found"
    )
    func flood() async throws {
        let (tv, _) = try await AndroidTVEndToEndTests.start("127.0.0.131", mdns: true)
        let flooder = try UDPSocket.bind(host: "0.0.0.0", port: tv.mdnsPort!, reuse: true)
        defer { flooder.close() }
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration { $0.browseMDNS(at: tv.mdnsPort!) }
                let factory = CountingFactory(
                    VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled),
                    fastHosts: [tv.host], delay: .milliseconds(200))
                let flooding = Task {
                    guard let query = try? await flooder.receive(maxBytes: 9000, deadline: .now + .seconds(60)) else {
                        return
                    }
                    let liar = try UDPSocket.bind(host: "127.3.9.1", port: 0)
                    defer { liar.close() }
                    try await liar.send(
                        try Self.answer("Liar", from: "127.3.9.1", address: "127.0.0.99"), to: query.from)
                    // Paced, so the bridge reads them: one task sending without a pause fills
                    // the socket's buffer, and the kernel, not the bridge, would drop the rest.
                    for source in 0..<300 {
                        let address = "127.3.\(1 + source / 250).\(1 + source % 250)"
                        let socket = try UDPSocket.bind(host: address, port: 0)
                        defer { socket.close() }
                        for index in 0..<3 {
                            try await socket.send(
                                try Self.answer("Many \(source) \(index)", from: address), to: query.from)
                        }
                        if source % 20 == 0 { try await Task.sleep(for: .milliseconds(5)) }
                    }
                    let one = try UDPSocket.bind(host: "127.3.0.1", port: 0)
                    defer { one.close() }
                    for index in 0..<2000 {
                        try await one.send(try Self.answer("One \(index)", from: "127.3.0.1"), to: query.from)
                        if index % 50 == 0 { try await Task.sleep(for: .milliseconds(5)) }
                    }
                }
                defer { flooding.cancel() }
                // On a clock that never moves: the browse takes answers however long the machine
                // needs to send them, and the per-source window never ends mid-flood.
                let clock = ManualClock()
                try await clock.run { try await fixture.startBridge(configuration, factory: factory) }
                let id = AndroidTVEndToEndTests.id(tv)
                let found = await fixture.discoverUntilConfigured(id, timeout: .seconds(90))
                #expect(found, "the real TV was not found beside the flood")
                try await flooding.value
                // The flood's probes take 200 ms each, 32 at a time: wait until none is left.
                var last = -1
                let drained = await waitUntil(timeout: .seconds(120)) {
                    defer { last = factory.started }
                    try? await Task.sleep(for: .seconds(1))
                    return factory.inFlight == 0 && factory.started == last
                }
                #expect(drained)
                let limited = fixture.logs.lines.contains { $0.contains("too many answers from it") }
                let liarProbed = fixture.logs.lines.contains {
                    $0.contains("127.0.0.99") && $0.contains("no TV answered")
                }
                #expect(factory.peak <= TVFinder.probeConcurrency, "peak probes in flight: \(factory.peak)")
                #expect(factory.peak > 8, "the flood never filled the probe pool: \(factory.peak) at once")
                #expect(factory.started <= 302, "probes started: \(factory.started): one per source at most")
                #expect(limited, "the source with 2,000 instances was not limited")
                #expect(!liarProbed, "an answer naming another host was followed")
                print("mDNS flood: probes started \(factory.started), peak in flight \(factory.peak)")
            }
        } catch {
            await tv.stop()
            throw error
        }
        await tv.stop()
    }
}
