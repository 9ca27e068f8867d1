import Clients
import Net
import TVSimulators
import Testing
import Wire

/// REST on the plain port: device info, applications, and the `/sim/state` back door.
@Suite struct SamsungRESTTests {
    @Test func deviceInfoHasTheFieldsOfA2020TV() async throws {
        try await withSamsung { (sim, client, _) async throws in
            let response = try await client.get("/api/v2/")
            #expect(response.status == 200)
            let info = try JSONParser.parse(response.body)
            let device = try #require(info["device"])
            #expect(device["name"] == .string(sim.name))
            #expect(device["modelName"] == "QE55Q60TAUXXU")
            #expect(device["duid"] == .string(sim.duid))
            #expect(device["id"] == .string(sim.duid))
            #expect(device["wifiMac"] == .string(sim.wifiMAC))
            #expect(device["PowerState"] == "on")
            #expect(device["FrameTVSupport"] == "false")
            #expect(device["TokenAuthSupport"] == "true")
            #expect(device["OS"] == "Tizen")
            #expect(device["networkType"] == "wireless")
            #expect(device["type"] == "Samsung SmartTV")
            #expect(device["firmwareVersion"]?.stringValue != nil)
            #expect(device["model"]?.stringValue?.hasPrefix("20_") == true)
            #expect(info["id"] == .string(sim.duid))
            #expect(info["name"] == .string(sim.name))
            #expect(info["type"] == "Samsung SmartTV")
            #expect(info["version"]?.stringValue != nil)
            #expect(info["uri"] == .string("http://127.0.0.1:\(sim.portWS)/api/v2/"))
            // isSupport is JSON inside a string.
            let support = try JSONParser.parse(try #require(info["isSupport"]?.stringValue))
            #expect(support["TokenAuthSupport"] == "true")
            #expect(sim.duid.hasPrefix("uuid:"))
        }
    }

    @Test func standbyStillAnswersWithPowerStateStandby() async throws {
        try await withSamsung { (sim, client, _) async throws in
            try sim.apply(["power": "standby"])
            let info = try JSONParser.parse(try await client.get("/api/v2/").body)
            #expect(info["device"]?["PowerState"] == "standby")
        }
    }

    @Test func frameTVSaysSo() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, client, _) async throws in
            let info = try JSONParser.parse(try await client.get("/api/v2/").body)
            #expect(info["device"]?["FrameTVSupport"] == "true")
            #expect(info["device"]?["modelName"] == .string(sim.modelName))
        }
    }

    @Test func applicationsEndpoint() async throws {
        try await withSamsung { (sim, client, log) async throws in
            let youtube = try await client.get("/api/v2/applications/111299001912")
            #expect(youtube.status == 200)
            let app = try JSONParser.parse(youtube.body)
            #expect(app["id"] == "111299001912")
            #expect(app["name"] == "YouTube")
            #expect(app["running"] == false)
            #expect(app["visible"] == false)
            #expect(app["version"]?.stringValue != nil)
            #expect(try await client.get("/api/v2/applications/1234").status == 404)

            #expect(try await client.post("/api/v2/applications/3201907018807").status == 200)
            #expect(sim.state.appID == "3201907018807")
            let launched = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "app_launch" }
            #expect(launched?["app"] == "3201907018807")
            #expect(launched?["tv"] == .string(sim.name))
            #expect(launched?["host"] == "127.0.0.1")
            #expect(launched?["at"]?.doubleValue != nil)
            let running = try JSONParser.parse(try await client.get("/api/v2/applications/3201907018807").body)
            #expect(running["running"] == true)

            let closed = try await client.request("DELETE", "/api/v2/applications/3201907018807")
            #expect(closed.status == 200)
            #expect(sim.state.appID == nil)
        }
    }

    @Test func simStateReadsAndChanges() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, client, _) async throws in
            let changed = try await client.post(
                "/sim/state", #"{"volume":40,"muted":true,"app":"111299001912","art_mode":true}"#)
            #expect(changed.status == 200)
            let state = try await client.simState()
            #expect(state["volume"] == 40)
            #expect(state["muted"] == true)
            #expect(state["app"] == "111299001912")
            #expect(state["art_mode"] == true)
            #expect(state["power"] == "on")
            #expect(sim.state.volume == 40)
            try sim.apply(["app": nil, "source": "HDMI2"])
            #expect(sim.state.appID == nil)
            #expect(sim.state.source == "HDMI2")
        }
    }

    @Test func simStateRefusesBadFieldsByName() async throws {
        try await withSamsung { (sim, client, _) async throws in
            let cases: [(String, String)] = [
                (#"{"volume":101}"#, "'volume'"),
                (#"{"power":"sleep"}"#, "'power'"),
                (#"{"colour":"red"}"#, "'colour'"),
                (#"{"app":"nope"}"#, "'app'"),
                (#"{"art_mode":true}"#, "'art_mode'"),
                (#"{"muted":"yes"}"#, "'muted'"),
                (#"[1]"#, "JSON object"),
                ("{", "invalid JSON"),
            ]
            for (body, naming) in cases {
                let response = try await client.post("/sim/state", body)
                #expect(response.status == 400, "\(body)")
                #expect(response.text.contains(naming), "\(body): \(response.text)")
            }
            // Nothing was applied by a refused change.
            #expect(sim.state == SamsungSimState())
        }
    }
}
