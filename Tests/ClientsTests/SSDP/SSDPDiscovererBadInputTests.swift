import Clients
import Harness
import Net
import Support
import Testing
import Wire

/// The SSDP part of the bad-input catalogue (Tests/BAD-INPUT.md): an M-SEARCH on loopback
/// answered by responders that send garbage, a LOCATION pointing at another host, and a flood.
@Suite("Bad-input catalogue: SSDP")
struct SSDPDiscovererBadInputTests {
    static func response(_ location: String, usn: String = "uuid:roku:ecp:BAD1") -> [UInt8] {
        SSDPResponse(searchTarget: "roku:ecp", location: location, usn: usn).encode()
    }

    /// Garbage of every kind: binary, a cut-off head, an oversize datagram, a response
    /// without LOCATION, a LOCATION that is not http, another search target.
    static let garbage: [[UInt8]] = [
        [0x00, 0xFF, 0x13, 0x37, 0x0D, 0x0A],
        Array("HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION: http://127.0.0.41".utf8),
        Array("HTTP/1.1 200 OK\r\nST: roku:ecp\r\n".utf8) + [UInt8](repeating: 0x41, count: 8000),
        Array("HTTP/1.1 200 OK\r\nST: roku:ecp\r\nUSN: uuid:x\r\n\r\n".utf8),
        Array("HTTP/1.1 200 OK\r\nST: roku:ecp\r\nUSN: uuid:x\r\nLOCATION: file:///etc/passwd\r\n\r\n".utf8),
        SSDPResponse(searchTarget: "upnp:rootdevice", location: "http://127.0.0.41:8060/", usn: "uuid:x").encode(),
        Array("HTTP/1.1 200 OK\r\nST: roku:ecp\r\nUSN: \u{FF}\r\n".utf8) + [0xC3, 0x28, 0x0D, 0x0A],
    ]

    @Test("garbage is ignored, a foreign LOCATION is refused with a warning, a flood yields one sighting")
    func badResponders() async throws {
        let liar = try UDPSocket.bind(host: "127.0.0.41", port: 0)
        let port = liar.localAddress.port
        let honest = try UDPSocket.bind(host: "127.0.0.42", port: 0)
        defer {
            liar.close()
            honest.close()
        }
        let honestAnswer = Self.response("http://127.0.0.42:8060/", usn: "uuid:roku:ecp:GOOD")
        let responder = Task {
            // Answers the first M-SEARCH only: garbage, a foreign LOCATION, an honest TV's
            // answer, then a flood of the same valid answer, each flood datagram followed by
            // garbage.
            guard let search = try? await liar.receive(deadline: .now + .seconds(5)) else { return }
            let to = search.from
            for bytes in Self.garbage { try? await liar.send(bytes, to: to) }
            try? await liar.send(Self.response("http://127.0.0.99:8060/"), to: to)
            try? await honest.send(honestAnswer, to: to)
            for index in 0..<500 {
                try? await liar.send(Self.response("http://127.0.0.41:8060/"), to: to)
                try? await liar.send(Self.garbage[index % Self.garbage.count], to: to)
            }
            // The flood may overflow the search socket's buffer (208 KB where net.core.rmem_max
            // is the kernel's default) and the kernel drops what does not fit. UDP is
            // unreliable, so UPnP devices repeat themselves; the honest TV does until the search
            // ends.
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                try? await honest.send(honestAnswer, to: to)
            }
        }
        defer { responder.cancel() }
        let logs = CapturingSink()
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.0.0.41", port: port), interfaces: [], targets: ["roku:ecp"],
            logger: Logger(label: "ssdp", sink: logs, threshold: LogThreshold(.debug)))
        let sightings = Sightings()
        // MX 3: the search listens 4 s, on a ManualClock: the responders, in real time, take as
        // long as the machine needs (a full-suite run on two cores once saw the search 2.1 s
        // late), and the search ends at exactly its deadline, however many datagrams came.
        let clock = ManualClock()
        let searching = Task {
            try await clock.run { try await discoverer.search(count: 1, mx: 3) { await sightings.add($0) } }
        }
        let bothSeen = await waitUntil(timeout: .seconds(30)) { await sightings.all.count >= 2 }
        #expect(bothSeen, "the liar's and the honest TV's sightings")
        #expect(await clock.waitForTimer(at: .seconds(4)), "the search's deadline")
        // Fire what is due at 4 s until the search has ended: a receive that was busy with a
        // datagram when its timer fired arms the same deadline again. Time never passes 4 s.
        let ended = Recorder<Bool>()
        let endWatcher = Task {
            _ = await searching.result
            ended.append(true)
        }
        let searchEnded = await waitUntil(timeout: .seconds(30)) {
            await clock.advance(to: .seconds(4))
            return !ended.all.isEmpty
        }
        #expect(searchEnded, "the flood extended the search past its deadline")
        await endWatcher.value
        try await searching.value
        #expect(clock.elapsed == .seconds(4))
        responder.cancel()
        await responder.value

        let found = await sightings.all.map { "\($0.address) \($0.location.host)" }.sorted()
        #expect(found == ["127.0.0.41 127.0.0.41", "127.0.0.42 127.0.0.42"])
        let lines = logs.lines
        let foreign = lines.filter {
            $0.contains("warning") && $0.contains("its LOCATION points at another host (127.0.0.99)")
        }
        #expect(foreign.count == 1, "\(lines.suffix(5))")
        let ignored = lines.filter { $0.contains("ignoring an SSDP datagram from 127.0.0.41") }
        #expect(!ignored.isEmpty)
        let badLocation = lines.filter { $0.contains("bad LOCATION file:///etc/passwd") }
        #expect(!badLocation.isEmpty)
    }
}

private actor Sightings {
    private(set) var all: [SSDPSighting] = []
    func add(_ sighting: SSDPSighting) { all.append(sighting) }
}
