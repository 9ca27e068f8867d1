import Clients
import Net
import Synchronization
import TVSimulators
import Testing
import Wire

/// TLS and plain models, SSDP and the description, icons, power states and Wake-on-LAN.
@Suite(.serialized) struct LGNetworkTests {
    @Test func tlsModelServesBothPortsAndPlainModelOnly3000() async throws {
        try await withLG { (sim, _, _) async throws in
            let secure = try await SSAPTestClient.open(sim, secure: true)
            #expect(secure.fingerprint == sim.certificateSHA256)
            _ = try await secure.pair()
            let clear = try await SSAPTestClient.open(sim, secure: false)
            _ = try await clear.pair()
            let pointer = try await clear.request("com.webos.service.networkinput/getPointerInputSocket", id: 1)
            let path = pointer?["payload"]?["socketPath"]?.stringValue ?? ""
            #expect(path.hasPrefix("ws://\(sim.host):\(sim.portWS)/resources/"))
            await secure.close()
            await clear.close()
        }
        try await withLG(lgOptions(plain: true)) { (sim, client, _) async throws in
            #expect(sim.portWSS == nil)
            let clear = try await SSAPTestClient.open(sim, secure: false)
            _ = try await clear.pair()
            await clear.close()
            let description = try await HTTPClient(host: sim.host, port: sim.portUPnP, requestTimeout: .seconds(15))
                .get("/")
            #expect(description.text.contains("webos-second-screen-3000<"))
            #expect(try await client.get("/sim/state").status == 200)
        }
    }

    @Test func ssdpAnswersWithTheLGTargetAndTheDescriptionNamesTheTV() async throws {
        let shared = try SharedUDPPort()
        defer { shared.close() }
        var options = lgOptions()
        options.host = "127.0.0.41"
        options.ssdpPort = shared.port
        options.ssdpAnswerWindow = .milliseconds(100)
        try await withLG(options) { (sim, _, _) async throws in
            let target = "urn:lge-com:service:webos-second-screen:1"
            let discoverer = SSDPDiscoverer(
                searchAddress: try SocketAddress(ip: "127.255.255.255", port: shared.port), interfaces: [],
                targets: [target], logger: .disabled)
            let found = Mutex<[SSDPSighting]>([])
            try await discoverer.search(count: 3, mx: 1) { sighting in found.withLock { $0.append(sighting) } }
            let sightings = found.withLock { $0 }.filter { $0.address == "127.0.0.41" }
            let sighting = try #require(sightings.first)
            #expect(sighting.target == target)
            #expect(sighting.usn == "\(sim.udn)::\(target)")
            #expect(sighting.location.port == sim.portUPnP)
            let upnp = HTTPClient(host: sim.host, port: sim.portUPnP, requestTimeout: .seconds(15))
            let root = try await upnp.xml("/")
            await upnp.closeIdle()
            let device = try #require(root.firstChild(named: "device"))
            #expect(device.firstChild(named: "friendlyName")?.trimmedText == sim.name)
            #expect(device.firstChild(named: "modelName")?.trimmedText == sim.modelName)
            #expect(device.firstChild(named: "UDN")?.trimmedText == sim.udn)
        }
    }

    @Test func iconsAreServedAtTheLaunchPointURLs() async throws {
        try await withLG { (sim, client, _) async throws in
            let ssap = try await SSAPTestClient.open(sim, secure: false)
            _ = try await ssap.pair()
            let list = try await ssap.request("com.webos.applicationManager/listLaunchPoints", id: 1)
            let points = list?["payload"]?["launchPoints"]?.arrayValue ?? []
            let netflixPoints = points.filter { $0["id"] == "netflix" }
            let netflix = try #require(netflixPoints.first)
            let url = try #require(netflix["icon"]?.stringValue)
            let prefix = "http://\(sim.host):\(sim.portWS)"
            #expect(url.hasPrefix(prefix))
            let icon = try await client.get(String(url.dropFirst(prefix.count)))
            #expect(icon.status == 200)
            #expect(icon.headers["Content-Type"] == "image/png")
            await ssap.close()
        }
    }

    @Test func turnOffGoesThroughProcessingToActiveStandbyAndWakeOnLANWakes() async throws {
        var options = lgOptions()
        options.wolPort = 0
        try await withLG(options) { (sim, _, log) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            _ = try await ssap.request("com.webos.service.tvpower/power/getPowerState", id: "p", type: "subscribe")
            _ = try await ssap.request("system/turnOff", id: "off")
            let pushes = await ssap.waitMessages(id: "p", count: 3)
            #expect(pushes.count == 3)
            #expect(pushes.dropFirst().first?["payload"]?["processing"] == "Request Active Standby")
            #expect(pushes.last?["payload"]?["state"] == "Active Standby")
            let refused = try await ssap.request("system.launcher/launch", ["id": "netflix"], id: "l")
            #expect(refused?["error"] == "500 Application error")

            let target = try SocketAddress(ip: "127.0.0.1", port: try #require(sim.wolPort))
            try await WakeOnLANSender.wake([MACAddress(sim.wifiMAC)!], targets: [target], repeatCount: 1)
            let woke = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "wol" }
            #expect(woke?["mac"] == .string(sim.wifiMAC))
            let active = await ssap.waitMessages(id: "p", count: 4)
            #expect(active.last?["payload"]?["state"] == "Active")
            await ssap.close()
        }
    }

    @Test func suspendClosesTheNetworkUntilWoken() async throws {
        var options = lgOptions()
        options.wolPort = 0
        options.standby = .suspend
        try await withLG(options) { (sim, _, _) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            _ = try await ssap.request("system/turnOff", id: "off")
            let suspended = await eventually(timeout: .seconds(10)) { sim.state.power == .suspend }
            #expect(suspended)
            let closed = await eventually(timeout: .seconds(10)) { ssap.closeReason != nil }
            #expect(closed)
            await #expect(throws: WebSocketError.self) { _ = try await SSAPTestClient.open(sim) }

            let target = try SocketAddress(ip: "127.0.0.1", port: try #require(sim.wolPort))
            try await WakeOnLANSender.wake([MACAddress(sim.wiredMAC)!], targets: [target], repeatCount: 1)
            let active = await eventually(timeout: .seconds(10)) { sim.state.power == .active }
            #expect(active)
            let again = try await SSAPTestClient.open(sim)
            _ = try await again.pair()
            await again.close()
        }
    }
}
