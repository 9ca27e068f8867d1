import Clients
import Net
import TVSimulators
import Testing
import Wire

/// Text input, the app list and app launch, Frame power, and what a hostile client sends.
@Suite struct SamsungMessageTests {
    @Test func textIsDecodedAndLogged() async throws {
        try await withSamsung { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            let text = "Grüße 👋"
            try await channel.send([
                "method": "ms.remote.control",
                "params": [
                    "Cmd": .string(Base64.encode(Array(text.utf8))), "DataOfCmd": "base64",
                    "TypeOfRemote": "SendInputString",
                ],
            ])
            try await channel.send(["method": "ms.remote.control", "params": ["TypeOfRemote": "SendInputEnd"]])
            let typed = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "text" }
            #expect(typed?["text"] == .string(text))
            let ended = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "text_end" }
            #expect(ended != nil)
            #expect(sim.state.text == text)
            await channel.close()
        }
    }

    @Test func installedAppsAndLaunchLikeTheFixtures() async throws {
        try await withSamsung { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            try await channel.send([
                "method": "ms.channel.emit", "params": ["event": "ed.installedApp.get", "to": "host"],
            ])
            let list = try #require(await channel.event("ed.installedApp.get"))
            #expect(list["from"] == "host")
            let apps = try #require(list["data"]?["data"]?.arrayValue)
            let found = apps.first { $0["appId"] == "111299001912" }
            let youtube = try #require(found)
            #expect(youtube["name"] == "YouTube")
            #expect(youtube["app_type"] == 2)
            #expect(youtube["is_lock"] == 0)
            #expect(youtube["icon"]?.stringValue?.hasSuffix("250x250.png") == true)

            try await channel.send([
                "method": "ms.channel.emit",
                "params": [
                    "event": "ed.apps.launch", "to": "host",
                    "data": ["appId": "3201907018807", "action_type": "DEEP_LINK", "metaTag": ""],
                ],
            ])
            let reply = try #require(await channel.event("ed.apps.launch"))
            #expect(reply["data"] == 200)
            #expect(reply["from"] == "host")
            #expect(sim.state.appID == "3201907018807")
            let launched = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "app_launch" }
            #expect(launched?["app"] == "3201907018807")
            #expect(launched?["via"] == "websocket")
            await channel.close()
        }
    }

    @Test func withoutAppSupportTheListIsNeverAnswered() async throws {
        try await withSamsung(samsungOptions(apps: false)) { (sim, _, _) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            try await channel.send([
                "method": "ms.channel.emit", "params": ["event": "ed.installedApp.get", "to": "host"],
            ])
            let list = await channel.event("ed.installedApp.get", timeout: .milliseconds(500))
            #expect(list == nil)
            await channel.close()
        }
    }

    @Test func frameClickTogglesArtAndAHoldPowersOff() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            try await channel.key("KEY_POWER")
            let art = await eventually { sim.state.artMode }
            #expect(art)
            #expect(sim.state.power == .on)
            try await channel.key("KEY_POWER")
            let tv = await eventually { !sim.state.artMode }
            #expect(tv)

            try await channel.key("KEY_POWER", "Press")
            // The simulator times the hold from when it reads Press, which a busy machine may
            // delay by seconds: the hold starts once it has.
            let pressed = await log.waitFor(timeout: .seconds(30)) { $0["cmd"] == "Press" }
            #expect(pressed != nil)
            try await Task.sleep(for: .milliseconds(3300))
            try await channel.key("KEY_POWER", "Release")
            let off = await eventually { sim.state.power == .standby }
            #expect(off)
            let release = await log.waitFor(timeout: .seconds(30)) { $0["cmd"] == "Release" }
            #expect((release?["held_ms"]?.intValue ?? 0) >= 3000)
            await channel.close()
        }
    }

    @Test func garbageNeverTrapsAndGetsAnErrorOrNothing() async throws {
        try await withSamsung { (sim, client, _) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            let junk = [
                "not json", "[]", "{}", #"{"method":42}"#, #"{"method":"ms.remote.control"}"#,
                #"{"method":"ms.remote.control","params":{"TypeOfRemote":"SendRemoteKey","Cmd":"Click"}}"#,
                #"{"method":"ms.remote.control","params":{"TypeOfRemote":"SendInputString","Cmd":"%%%"}}"#,
                #"{"method":"ms.channel.emit","params":{"event":"ed.apps.launch","data":{"appId":7}}}"#,
                #"{"method":"ms.application.stop"}"#,
                String(repeating: "[", count: 10_000),
            ]
            for text in junk { try await channel.connection.send(text: text) }
            try await channel.connection.send(binary: [0, 1, 2])
            let error = await channel.event("ms.error")
            #expect(error != nil)
            let message: JSONValue = "unrecognized method value : ms.application.stop"
            let unknown = await eventually { channel.received.contains { $0["data"]?["message"] == message } }
            #expect(unknown)
            // Still alive and well.
            try await channel.key("KEY_MUTE")
            let muted = await eventually { sim.state.muted }
            #expect(muted)
            #expect(try await client.get("/api/v2/").status == 200)
            await channel.close()
        }
    }

    @Test func otherChannelsAndPlainRequestsAreRefusedPolitely() async throws {
        try await withSamsung { (sim, client, _) async throws in
            #expect(try await client.get("/api/v2/channels/samsung.remote.control").status == 404)
            await #expect(throws: WebSocketError.self) {
                _ = try await WebSocketClient.connect(
                    url: "ws://\(sim.host):\(sim.portWS)/api/v2/channels/com.samsung.art-app",
                    connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
            }
        }
    }
}
