import Clients
import Net
import Support
import Synchronization
import TVSimulators
import Testing
import Wire

/// Power off, Wake-on-LAN and SSDP, over loopback sockets only.
@Suite(.serialized) struct SamsungNetworkTests {
    @Test func offRefusesEverythingUntilWokenByLAN() async throws {
        var options = samsungOptions()
        options.wolPort = 0
        try await withSamsung(options) { (sim, client, log) async throws in
            #expect(try await client.post("/sim/state", #"{"power":"off"}"#).status == 200)
            #expect(sim.state.power == .off)
            await client.closeIdle()
            try await Task.sleep(for: .milliseconds(50))
            await #expect(throws: HTTPClientError.self) { _ = try await client.get("/api/v2/") }
            await #expect(throws: WebSocketError.self) { _ = try await RemoteChannel.open(sim) }
            // The UPnP listener closes a moment after the power change (the one 30 s hang bound).
            let upnpRefuses = await eventually { (try? await upnp(sim, "GetVolume")) == nil }
            #expect(upnpRefuses)

            let target = try SocketAddress(ip: "127.0.0.1", port: try #require(sim.wolPort))
            try await WakeOnLANSender.wake([MACAddress("02:00:00:00:00:01")!], targets: [target], repeatCount: 1)
            try await Task.sleep(for: .milliseconds(100))
            #expect(sim.state.power == .off)

            try await WakeOnLANSender.wake([MACAddress(sim.wifiMAC)!], targets: [target], repeatCount: 1)
            let woke = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "wol" }
            #expect(woke?["mac"] == .string(sim.wifiMAC))
            #expect(woke?["tv"] == .string(sim.name))
            // The log entry comes first, the power change right after it.
            let on = await eventually { sim.state.power == .on }
            #expect(on)
            let info = try JSONParser.parse(try await client.get("/api/v2/").body)
            #expect(info["device"]?["PowerState"] == "on")
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            await channel.close()
            let upnpAnswers = await eventually {
                (try? await upnp(sim, "GetVolume"))?.status == 200
            }
            #expect(upnpAnswers)
        }
    }

    @Test func wakeOnLANTurnsStandbyOn() async throws {
        var options = samsungOptions()
        options.wolPort = 0
        try await withSamsung(options) { (sim, _, log) async throws in
            try sim.apply(["power": "standby"])
            let target = try SocketAddress(ip: "127.0.0.1", port: try #require(sim.wolPort))
            try await WakeOnLANSender.wake([MACAddress(sim.wifiMAC)!], targets: [target], repeatCount: 1)
            let woke = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "wol" }
            #expect(woke != nil)
            // The log entry comes first, the power change right after it.
            let on = await eventually { sim.state.power == .on }
            #expect(on)
        }
    }

    @Test func ssdpAnswersWithTheSamsungTargetAndItsOwnAddress() async throws {
        let shared = try SharedUDPPort()
        defer { shared.close() }
        let ssdpPort = shared.port
        let log = CommandLog.memory()
        var simulators: [SamsungSimulator] = []
        do {
            for host in ["127.0.0.5", "127.0.0.6"] {
                var options = samsungOptions()
                options.host = host
                options.ssdpPort = ssdpPort
                simulators.append(try await SamsungSimulator.start(options, log: log))
            }
            try simulators[1].apply(["power": "off"])
            let target = "urn:samsung.com:device:RemoteControlReceiver:1"
            let discoverer = SSDPDiscoverer(
                searchAddress: try SocketAddress(ip: "127.255.255.255", port: ssdpPort), interfaces: [],
                targets: [target], logger: .disabled)
            let found = Mutex<[SSDPSighting]>([])
            try await discoverer.search(count: 2, mx: 1) { sighting in found.withLock { $0.append(sighting) } }
            let sightings = found.withLock { $0 }
            // The TV that is off stays silent.
            #expect(Set(sightings.map(\.address)) == ["127.0.0.5"])
            let sim = simulators[0]
            let sighting = try #require(sightings.first)
            #expect(sighting.target == target)
            #expect(sighting.location.host == sim.host)
            #expect(sighting.location.port == sim.portUPnP)
            #expect(sighting.location.path == "/dmr")
            #expect(sighting.usn == "\(sim.duid)::\(target)")
        } catch {
            for sim in simulators { await sim.stop() }
            throw error
        }
        for sim in simulators { await sim.stop() }
    }

    @Test func identityIsStablePerAddress() async throws {
        // The standard REST port on an address of its own: an ephemeral port, freed by the first
        // simulator, could be taken by another test's socket before the second one binds it.
        var options = samsungOptions()
        options.host = "127.0.0.31"
        options.portWS = 8001
        let first = try await SamsungSimulator.start(options, log: .memory())
        let (duid, mac) = (first.duid, first.wifiMAC)
        await first.stop()
        let again = try await SamsungSimulator.start(options, log: .memory())
        #expect(again.duid == duid)
        #expect(again.wifiMAC == mac)
        await again.stop()
    }

    @Test func notifyAliveAtStartAndWhenWokenFromOff() async throws {
        let listener = try UDPSocket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        var options = samsungOptions()
        options.host = "127.0.0.7"
        options.notifyAddress = "127.0.0.1:\(listener.localAddress.port)"
        try await withSamsung(options) { (sim, _, _) async throws in
            for round in 0..<2 {
                // Loopback does not drop it, but a busy machine may send it seconds late.
                let datagram = try await listener.receive(deadline: .now + .seconds(15))
                #expect(datagram.from.ip == "127.0.0.7")
                guard case .notify(let headers) = try SSDPMessage.parse(datagram.bytes) else {
                    Issue.record("not a NOTIFY")
                    return
                }
                #expect(headers.notificationType == "urn:samsung.com:device:RemoteControlReceiver:1")
                #expect(headers.notificationSubtype == .alive)
                #expect(headers.location == sim.location)
                if round == 0 {
                    try sim.apply(["power": "off"])
                    try sim.apply(["power": "on"])
                }
            }
        }
    }
}
