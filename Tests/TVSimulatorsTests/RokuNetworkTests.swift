import Clients
import Net
import Support
import Synchronization
import TVSimulators
import Testing
import Wire

/// Power off, Wake-on-LAN, SSDP and robustness, over real loopback sockets only.
@Suite(.serialized) struct RokuNetworkTests {
    @Test func powerOffRefusesConnectionsUntilWokenByLAN() async throws {
        var options = RokuSimulatorOptions(host: "127.0.0.1", port: 0)
        options.wolPort = 0
        try await withRoku(options) { (sim, client, log) async throws in
            let response = try await client.post("/sim/state", #"{"power":"off"}"#)
            #expect(response.status == 200)
            #expect(sim.state.power == .off)
            await client.closeIdle()
            try await Task.sleep(for: .milliseconds(50))
            await #expect(throws: HTTPClientError.self) { _ = try await client.get("/query/device-info") }

            // Another TV's packet is ignored.
            let port = try #require(sim.wolPort)
            let target = try SocketAddress(ip: "127.0.0.1", port: port)
            try await WakeOnLANSender.wake([MACAddress("02:00:00:00:00:01")!], targets: [target], repeatCount: 1)
            try await Task.sleep(for: .milliseconds(100))
            #expect(sim.state.power == .off)

            try await WakeOnLANSender.wake([MACAddress(sim.wifiMAC)!], targets: [target], repeatCount: 1)
            let woke = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "wol" }
            #expect(woke?["mac"] == .string(sim.wifiMAC))
            #expect(woke?["tv"] == .string(sim.serial))
            // The log entry comes first, the power change right after it.
            let on = await eventually { sim.state.power == .on }
            #expect(on)
            let info = try await client.xml("/query/device-info")
            #expect(info.childText("power-mode") == "PowerOn")
        }
    }

    @Test func wakeOnLANLeavesStandbyAlone() async throws {
        var options = RokuSimulatorOptions(host: "127.0.0.1", port: 0)
        options.wolPort = 0
        try await withRoku(options) { (sim, _, log) async throws in
            try sim.apply(["power": "standby"])
            let target = try SocketAddress(ip: "127.0.0.1", port: try #require(sim.wolPort))
            try await WakeOnLANSender.wake([MACAddress(sim.ethernetMAC)!], targets: [target], repeatCount: 1)
            let wake = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "wol" }
            #expect(wake != nil)
            #expect(sim.state.power == .standby)
        }
    }

    @Test func applyOffAndOnReopensTheListener() async throws {
        try await withRoku { (sim, client, _) async throws in
            try sim.apply(["power": "off"])
            await client.closeIdle()
            await #expect(throws: HTTPClientError.self) { _ = try await client.get("/") }
            try sim.apply(["power": "on"])
            #expect(try await client.get("/").status == 200)
        }
    }

    @Test func ssdpFindsThreeTVsByBroadcastAndOneByUnicast() async throws {
        let shared = try SharedUDPPort()
        defer { shared.close() }
        let ssdpPort = shared.port
        let log = CommandLog.memory()
        var simulators: [RokuSimulator] = []
        do {
            for host in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
                let options = RokuSimulatorOptions(host: host, port: 0, ssdpPort: ssdpPort)
                simulators.append(try await RokuSimulator.start(options, log: log))
            }
            let broadcast = SSDPDiscoverer(
                searchAddress: try SocketAddress(ip: "127.255.255.255", port: ssdpPort), interfaces: [],
                targets: ["roku:ecp"], logger: .disabled)
            let found = Mutex<[SSDPSighting]>([])
            try await broadcast.search(count: 2, mx: 1) { sighting in found.withLock { $0.append(sighting) } }
            let sightings = found.withLock { $0 }
            #expect(Set(sightings.map(\.address)) == ["127.0.0.2", "127.0.0.3", "127.0.0.4"])
            for sim in simulators {
                let match = sightings.first { $0.address == sim.host }
                let sighting = try #require(match)
                #expect(sighting.location.port == sim.port)
                #expect(sighting.usn == "uuid:roku:ecp:\(sim.serial)")
                #expect(sighting.server == "Roku/12.5.0 UPnP/1.0 Roku/12.5.0")
                #expect(sighting.maxAge == 3600)
            }

            let unicast = SSDPDiscoverer(
                searchAddress: try SocketAddress(ip: "127.0.0.3", port: ssdpPort), interfaces: [],
                targets: ["roku:ecp"], logger: .disabled)
            let direct = Mutex<[SSDPSighting]>([])
            try await unicast.search(count: 1, mx: 1) { sighting in direct.withLock { $0.append(sighting) } }
            let directAddresses = direct.withLock { $0.map(\.address) }
            #expect(directAddresses == ["127.0.0.3"])

            // A TV that is off does not answer.
            try simulators[0].apply(["power": "off"])
            let again = Mutex<[String]>([])
            try await broadcast.search(count: 1, mx: 1) { sighting in again.withLock { $0.append(sighting.address) } }
            let answered = again.withLock { $0 }
            #expect(Set(answered) == ["127.0.0.3", "127.0.0.4"])
        } catch {
            for sim in simulators { await sim.stop() }
            throw error
        }
        for sim in simulators { await sim.stop() }
    }

    @Test func notifyAliveAtStart() async throws {
        let listener = try UDPSocket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        var options = RokuSimulatorOptions(host: "127.0.0.5", port: 0)
        options.notifyAddress = "127.0.0.1:\(listener.localAddress.port)"
        try await withRoku(options) { (sim, _, _) async throws in
            // Loopback does not drop it, but a busy machine may send it seconds late.
            let datagram = try await listener.receive(deadline: .now + .seconds(15))
            #expect(datagram.from.ip == "127.0.0.5")
            guard case .notify(let headers) = try SSDPMessage.parse(datagram.bytes) else {
                Issue.record("not a NOTIFY")
                return
            }
            #expect(headers.notificationType == "roku:ecp")
            #expect(headers.notificationSubtype == .alive)
            #expect(headers.location == sim.location)
        }
    }

    @Test func keepAliveMalformedAndHalfClosedClients() async throws {
        try await withRoku { (sim, _, _) async throws in
            let address = try SocketAddress(ip: sim.host, port: sim.port)
            // Two requests in one write on one connection, then Connection: close.
            let connection = try await TCPConnection.connect(to: address, timeout: .seconds(2))
            defer { connection.close() }
            let two =
                "GET /query/apps HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /keypress/Home HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            try await connection.write(Array(two.utf8), deadline: .now + .seconds(2))
            let text = try await readAll(connection)
            #expect(text.components("HTTP/1.1 200 OK") == 2)
            #expect(text.contains("Connection: close"))

            let bad = try await TCPConnection.connect(to: address, timeout: .seconds(2))
            defer { bad.close() }
            try await bad.write(Array("GARBAGE\r\n\r\n".utf8), deadline: .now + .seconds(2))
            #expect(try await readAll(bad).hasPrefix("HTTP/1.1 400"))

            // A client that connects and says nothing, or leaves mid-request, harms nobody.
            let silent = try await TCPConnection.connect(to: address, timeout: .seconds(2))
            let partial = try await TCPConnection.connect(to: address, timeout: .seconds(2))
            try await partial.write(Array("GET /query/ap".utf8), deadline: .now + .seconds(2))
            partial.close()
            let client = HTTPClient(host: sim.host, port: sim.port)
            #expect(try await client.get("/query/device-info").status == 200)
            await client.closeIdle()
            silent.close()
        }
    }

    @Test func manySimulatorsStartAndStop() async throws {
        let log = CommandLog.memory()
        for round in 0..<3 {
            var simulators: [RokuSimulator] = []
            for index in 0..<12 {
                let options = RokuSimulatorOptions(
                    host: "127.0.2.\(index + 1)", port: 0, wolPort: 0)
                simulators.append(try await RokuSimulator.start(options, log: log))
            }
            let client = HTTPClient(host: simulators[round].host, port: simulators[round].port)
            #expect(try await client.post("/keypress/Home").status == 200)
            await client.closeIdle()
            for sim in simulators { await sim.stop() }
            for sim in simulators {
                // Its port may have gone to another test's listener on the wildcard address since
                // (the kernel reuses a freed ephemeral port): what matters is that this simulator
                // no longer answers there.
                let probe = HTTPClient(host: sim.host, port: sim.port, requestTimeout: .seconds(5))
                let answer = try? await probe.get("/query/device-info")
                await probe.closeIdle()
                let fromIt = answer.map { String(decoding: $0.body, as: UTF8.self).contains(sim.serial) } ?? false
                #expect(!fromIt, "\(sim.host):\(sim.port) still answers after stop()")
            }
        }
        #expect(log.entries.count == 3)
    }
}

/// Reads until the server closes the connection.
private func readAll(_ connection: TCPConnection) async throws -> String {
    var bytes: [UInt8] = []
    while true {
        let chunk = try await connection.read(maxBytes: 65536, deadline: .now + .seconds(3))
        if chunk.isEmpty { break }
        bytes += chunk
    }
    return String(decoding: bytes, as: UTF8.self)
}

extension String {
    func components(_ separator: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
