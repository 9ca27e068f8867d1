import Harness
import Net
import Support
import Testing
import Wire

@testable import Clients

/// The DNS-SD browser on loopback: a PTR query with the QU bit, answered by bare UDP
/// responders as an Android TV answers (PTR, SRV, TXT and its address together), by a liar
/// naming another host, and with garbage. The browse runs on a ManualClock: the responders
/// take as long as the machine needs, and the browse ends at exactly its window.
@Suite("DNS-SD browser")
struct DNSSDBrowserTests {
    static let service = try! DNSName("_androidtvremote2._tcp.local")
    static let legacy = try! DNSName("_androidtvremote._tcp.local")

    static func answer(instance: String, host: String, address: [UInt8], port: UInt16 = 6466) throws -> [UInt8] {
        let name = try DNSName(instance: instance, service: service)
        let target = try DNSName(host)
        return DNSMessage.response(
            answers: [DNSRecord(name: service, type: .ptr, ttl: 4500, data: .ptr(name))],
            additionals: [
                DNSRecord(
                    name: name, type: .srv, cacheFlush: true, ttl: 120,
                    data: .srv(priority: 0, weight: 0, port: port, target: target)),
                DNSRecord(
                    name: name, type: .txt, cacheFlush: true, ttl: 4500,
                    data: .txt([Array("bt=3C:5C:C4:12:34:56".utf8)])),
                DNSRecord(name: target, type: .a, cacheFlush: true, ttl: 120, data: .a(address)),
            ]
        ).encoded()
    }

    @Test("an Android TV's answer is a sighting; another host's address is refused with a warning; garbage is ignored")
    func browse() async throws {
        let tv = try UDPSocket.bind(host: "127.0.0.51", port: 0)
        let liar = try UDPSocket.bind(host: "127.0.0.52", port: 0)
        defer {
            tv.close()
            liar.close()
        }
        let garbage: [[UInt8]] = [
            [0x00, 0xFF, 0x13],
            [UInt8](repeating: 0, count: DNSMessage.maxBytes + 1),
            DNSMessage.query([DNSQuestion(name: Self.service, type: .ptr)]).encoded(),  // not an answer
            try Self.answer(instance: "Other", host: "x.local", address: [127, 0, 0, 52]).map { $0 }
                .replacing(Array("_androidtvremote2".utf8), with: Array("_somethingelse_17".utf8)),
        ]
        let queries = Recorder<DNSMessage>()
        let responder = Task {
            guard let query = try? await tv.receive(maxBytes: 9001, deadline: .now + .seconds(30)) else { return }
            if let message = try? DNSMessage(decoding: query.bytes) { queries.append(message) }
            for bytes in garbage { try? await liar.send(bytes, to: query.from) }
            try? await liar.send(
                try Self.answer(instance: "Impostor", host: "impostor.local", address: [127, 0, 0, 99]), to: query.from)
            // UDP may drop: the TV answers again until the browse ends, as a responder repeats.
            while !Task.isCancelled {
                try? await tv.send(
                    try Self.answer(instance: "Living Room TV", host: "Android-3.local", address: [127, 0, 0, 51]),
                    to: query.from)
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        defer { responder.cancel() }
        let logs = CapturingSink()
        let browser = DNSSDBrowser(
            queryAddress: try SocketAddress(ip: "127.0.0.51", port: tv.localAddress.port), interfaces: [],
            services: [Self.service, Self.legacy],
            logger: Logger(label: "mdns", sink: logs, threshold: LogThreshold(.debug)))
        let found = Recorder<DNSSDSighting>()
        let clock = ManualClock()
        let browsing = Task {
            try await clock.run { try await browser.browse(count: 1, window: .seconds(2)) { found.append($0) } }
        }
        let seen = await waitUntil { !found.all.isEmpty && logs.lines.contains { $0.contains("another host") } }
        #expect(seen, "the TV's sighting and the liar's warning")
        #expect(await clock.waitForTimer(at: .seconds(2)), "the browse's window")
        let ended = Recorder<Bool>()
        let endWatcher = Task {
            _ = await browsing.result
            ended.append(true)
        }
        // A receive busy with a datagram when its timer fired arms the same deadline again.
        let browseEnded = await waitUntil {
            await clock.advance(to: .seconds(2))
            return !ended.all.isEmpty
        }
        #expect(browseEnded)
        await endWatcher.value
        try await browsing.value
        #expect(clock.elapsed == .seconds(2))

        let query = try #require(queries.all.first)
        #expect(!query.isResponse)
        #expect(
            query.questions == [
                DNSQuestion(name: Self.service, type: .ptr, unicastResponse: true),
                DNSQuestion(name: Self.legacy, type: .ptr, unicastResponse: true),
            ])
        let sighting = try #require(found.all.first)
        #expect(found.all.count == 1, "one sighting per instance and address: \(found.all)")
        #expect(sighting.address == "127.0.0.51" && sighting.instance == "Living Room TV")
        let host = try DNSName("android-3.local")  // names compare without case
        #expect(sighting.port == 6466 && sighting.host == host)
        #expect(sighting.text("BT") == "3C:5C:C4:12:34:56")
        let lines = logs.lines
        let warnings = lines.filter { $0.contains("warning") && $0.contains("ignoring mDNS Impostor from 127.0.0.52") }
        #expect(warnings.count == 1, "\(lines.suffix(5))")
        #expect(warnings.first?.contains("127.0.0.99") == true)
        let ignored = lines.filter { $0.contains("ignoring an mDNS datagram from 127.0.0.52") }
        #expect(!ignored.isEmpty)
    }

    @Test("IPv6 addresses are written as RFC 5952 says")
    func ipv6Text() throws {
        let answer = DNSMessage.response(
            answers: [
                DNSRecord(
                    name: Self.service, type: .ptr, ttl: 1,
                    data: .ptr(try DNSName(instance: "TV", service: Self.service)))
            ],
            additionals: [
                DNSRecord(
                    name: try DNSName(instance: "TV", service: Self.service), type: .srv, ttl: 1,
                    data: .srv(priority: 0, weight: 0, port: 6466, target: try DNSName("tv.local"))),
                DNSRecord(
                    name: try DNSName("tv.local"), type: .aaaa, ttl: 1,
                    data: .aaaa([0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x0A])),
            ])
        let browser = DNSSDBrowser(
            queryAddress: try SocketAddress(ip: "127.0.0.1", port: 5353), interfaces: [], services: [Self.service],
            logger: .disabled)
        #expect(browser.sightings(in: answer.encoded(), from: "2001:db8::1:0:0:a").count == 1)
        #expect(browser.sightings(in: answer.encoded(), from: "2001:db8::1").isEmpty, "another host")
    }
}

extension Array where Element == UInt8 {
    /// The bytes with every run equal to `target` replaced (same length only: offsets stay).
    fileprivate func replacing(_ target: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var bytes = self
        var index = 0
        while index + target.count <= bytes.count {
            if Array(bytes[index..<index + target.count]) == target {
                bytes.replaceSubrange(index..<index + target.count, with: replacement)
            }
            index += 1
        }
        return bytes
    }
}
