import Clients
import Net
import TVSimulators
import Testing
import Wire

@Suite struct RokuECPTests {
    @Test func rootDescriptionAndDeviceInfo() async throws {
        try await withRoku { (sim, client, _) async throws in
            let root = try await client.xml("/")
            let device = try #require(root.firstChild(named: "device"))
            #expect(device.childText("deviceType") == "urn:roku-com:device:player:1-0")
            #expect(device.childText("manufacturer") == "Roku")
            #expect(device.childText("serialNumber") == sim.serial)
            #expect(device.childText("UDN") == "uuid:\(sim.udn)")
            #expect(
                device.firstChild(named: "serviceList")?.firstChild(named: "service")?.childText(
                    "serviceType")
                    == "urn:roku-com:service:ecp:1")

            let info = try await client.xml("/query/device-info")
            #expect(info.name == "device-info")
            #expect(info.childText("serial-number") == sim.serial)
            #expect(info.childText("is-tv") == "true")
            #expect(info.childText("is-stick") == "false")
            #expect(info.childText("model-number") == "7820X")
            #expect(info.childText("wifi-mac") == sim.wifiMAC)
            #expect(info.childText("ethernet-mac") == sim.ethernetMAC)
            #expect(info.childText("power-mode") == "PowerOn")
            #expect(info.childText("supports-ecs-textedit") == "true")
            #expect(info.childText("user-device-name") == sim.name)
        }
    }

    @Test func standbyReportsReady() async throws {
        try await withRoku { (sim, client, _) async throws in
            #expect(try await client.post("/keypress/PowerOff").status == 200)
            #expect(try await client.xml("/query/device-info").childText("power-mode") == "Ready")
            #expect(sim.state.power == .standby)
            #expect(try await client.post("/keypress/poweron").status == 200)
            #expect(try await client.xml("/query/device-info").childText("power-mode") == "PowerOn")
        }
    }

    @Test func appsAndLaunch() async throws {
        try await withRoku { (sim, client, log) async throws in
            let apps = try await client.xml("/query/apps")
            let ids = apps.children(named: "app").compactMap { $0.attribute("id") }
            #expect(ids.contains("12") && ids.contains("tvinput.hdmi1") && ids.contains("tvinput.dtv"))
            let netflix = apps.children(named: "app").first { $0.attribute("id") == "12" }
            #expect(netflix?.attribute("type") == "appl")

            let home = try await client.xml("/query/active-app")
            #expect(home.firstChild(named: "app")?.attribute("id") == "562859")
            #expect(home.firstChild(named: "app")?.attribute("type") == "home")
            #expect(try await client.xml("/query/media-player").attribute("state") == "close")

            #expect(try await client.post("/launch/12?contentId=abc%20d&mediaType=movie").status == 200)
            let active = try await client.xml("/query/active-app")
            #expect(active.firstChild(named: "app")?.attribute("id") == "12")
            #expect(active.firstChild(named: "app")?.trimmedText == "Netflix")
            let player = try await client.xml("/query/media-player")
            #expect(player.attribute("state") == "play")
            #expect(player.firstChild(named: "plugin")?.attribute("id") == "12")
            #expect(player.childText("duration") == "5400000 ms")
            #expect(player.childText("is_live") == "false")
            let entry = try #require(log.entries.last)
            #expect(entry["kind"] == "launch")
            #expect(entry["app"] == "12")
            #expect(entry["contentId"] == "abc d")
            #expect(entry["mediaType"] == "movie")

            let unknown = try await client.post("/launch/999999")
            #expect(unknown.status == 404)
            #expect(log.entries.last?["refused"] != nil)
            #expect(sim.state.appID == "12")

            #expect(try await client.post("/launch/tvinput.hdmi1").status == 200)
            #expect(
                try await client.xml("/query/active-app").firstChild(named: "app")?.attribute("type")
                    == "tvin")
        }
    }

    @Test func positionAdvancesWhilePlaying() async throws {
        try await withRoku { (sim, client, _) async throws in
            try sim.apply(["app": "12", "position_ms": 1000])
            try await Task.sleep(for: .milliseconds(300))
            let playing = sim.state.positionMS
            #expect(playing >= 1250)
            _ = try await client.post("/keypress/Play")
            #expect(sim.state.mediaState == .pause)
            let paused = sim.state.positionMS
            try await Task.sleep(for: .milliseconds(100))
            #expect(sim.state.positionMS == paused)
            let player = try await client.xml("/query/media-player")
            #expect(player.attribute("state") == "pause")
            #expect(player.childText("position") == "\(paused) ms")
        }
    }
}
