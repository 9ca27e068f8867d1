import Clients
import Net
import TVSimulators
import Testing
import Wire

/// Requests, subscriptions, the pointer socket and toasts on a registered connection.
@Suite struct LGSSAPTests {
    @Test func subscriptionPushesAChangeMadeThroughSimState() async throws {
        try await withLG { (sim, client, _) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            // Integer ids, as aiowebostv sends them, come back as integers.
            let first = try await ssap.request("audio/getVolume", id: 7, type: "subscribe")
            #expect(first?["payload"]?["subscribed"] == true)
            #expect(first?["payload"]?["volumeStatus"]?["volume"] == 10)
            let power = try await ssap.request(
                "com.webos.service.tvpower/power/getPowerState", id: 8, type: "subscribe")
            #expect(power?["payload"]?["state"] == "Active")

            let posted = try await client.post("/sim/state", #"{"volume":30,"muted":true}"#)
            #expect(posted.status == 200)
            let pushes = await ssap.waitMessages(id: 7, count: 2)
            #expect(pushes.count == 2)
            #expect(pushes.last?["payload"]?["volumeStatus"]?["volume"] == 30)
            #expect(pushes.last?["payload"]?["volumeStatus"]?["muteStatus"] == true)
            // Nothing the power subscription reads changed: no push for it.
            #expect(ssap.messages(id: 8).count == 1)
            await ssap.close()
        }
    }

    @Test func pointerButtonIsLoggedAndActs() async throws {
        try await withLG { (sim, _, log) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            let answer = try await ssap.request("com.webos.service.networkinput/getPointerInputSocket", id: "ptr")
            let path = try #require(answer?["payload"]?["socketPath"]?.stringValue)
            #expect(path.hasPrefix("wss://\(sim.host):\(sim.portWSS ?? 0)/resources/"))
            #expect(path.hasSuffix("/netinput.pointer.sock"))
            let pointer = try await SSAPTestClient.open(url: path)
            try await pointer.connection.send(text: "type:button\nname:HOME\n\n")
            let logged = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "button" }
            #expect(logged?["name"] == "HOME")
            let home = await eventually { sim.state.appID == LGCatalog.homeApp }
            #expect(home)
            await pointer.close()

            // A path the TV never gave out is refused at the upgrade.
            await #expect(throws: WebSocketError.self) {
                _ = try await SSAPTestClient.open(
                    url: "wss://\(sim.host):\(sim.portWSS ?? 0)/resources/00/netinput.pointer.sock")
            }
            await ssap.close()
        }
    }

    @Test func toastIsLoggedWithItsMessage() async throws {
        try await withLG { (sim, _, log) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            let answer = try await ssap.request(
                "system.notifications/createToast", ["message": "Dinner is ready"], id: 3)
            #expect(answer?["payload"]?["returnValue"] == true)
            #expect(answer?["payload"]?["toastId"]?.stringValue != nil)
            let toast = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "toast" }
            #expect(toast?["message"] == "Dinner is ready")
            let empty = try await ssap.request("system.notifications/createToast", ["message": " "], id: 4)
            #expect(empty?["error"] == "500 Application error")
            await ssap.close()
        }
    }

    @Test func commandsChangeTheStateAndUnknownURIsAre404() async throws {
        try await withLG { (sim, _, log) async throws in
            let ssap = try await SSAPTestClient.open(sim)
            _ = try await ssap.pair()
            let launched = try await ssap.request("system.launcher/launch", ["id": "netflix"], id: 1)
            #expect(launched?["payload"]?["id"] == "netflix")
            #expect(sim.state.appID == "netflix")
            let away = try await ssap.request("tv/getCurrentChannel", id: 2)
            #expect(away?["type"] == "error")
            _ = try await ssap.request("tv/openChannel", ["channelNumber": "14-3"], id: 3)
            let channel = try await ssap.request("tv/getCurrentChannel", id: 4)
            #expect(channel?["payload"]?["channelName"] == "getTV")
            _ = try await ssap.request("tv/switchInput", ["inputId": "HDMI_2"], id: 5)
            #expect(sim.state.input == "HDMI_2")
            _ = try await ssap.request(
                "com.webos.service.apiadapter/audio/changeSoundOutput", ["output": "external_arc"], id: 6)
            #expect(sim.state.soundOutput == "external_arc")
            let badOutput = try await ssap.request(
                "com.webos.service.apiadapter/audio/changeSoundOutput", ["output": "nowhere"], id: 7)
            #expect(badOutput?["error"] == "500 Application error")
            _ = try await ssap.request("com.webos.service.ime/insertText", ["text": "abc", "replace": 0], id: 8)
            _ = try await ssap.request("com.webos.service.ime/deleteCharacters", ["count": 1], id: 9)
            #expect(sim.state.text == "ab")
            let unknown = try await ssap.request("no/such/thing", id: 10)
            #expect(unknown?["error"] == "404 no such service or method")
            let info = try await ssap.request("com.webos.service.connectionmanager/getinfo", id: 11)
            #expect(info?["payload"]?["wiredInfo"]?["macAddress"] == .string(sim.wiredMAC))
            #expect(info?["payload"]?["wifiInfo"]?["macAddress"] == .string(sim.wifiMAC))
            let logged = await log.waitFor(timeout: .seconds(30)) { $0["uri"] == "ssap://system.launcher/launch" }
            #expect(logged?["kind"] == "ssap")
            #expect(logged?["payload"]?["id"] == "netflix")
            await ssap.close()
        }
    }
}
