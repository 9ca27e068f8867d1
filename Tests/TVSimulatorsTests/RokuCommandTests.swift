import Clients
import Glibc
import Net
import TVSimulators
import Testing
import Wire

@Suite struct RokuCommandTests {
    @Test func keyEffects() async throws {
        try await withRoku { (sim, client, log) async throws in
            for key in ["VolumeUp", "volumeup", "VOLUMEUP"] {
                #expect(try await client.post("/keypress/\(key)").status == 200)
            }
            #expect(sim.state.volume == 18)
            _ = try await client.post("/keypress/VolumeMute")
            #expect(sim.state.muted)
            _ = try await client.post("/keypress/InputHDMI1")
            #expect(sim.state.appID == "tvinput.hdmi1")
            _ = try await client.post("/keypress/Back")
            #expect(sim.state.appID == "562859")
            _ = try await client.post("/keypress/InputTuner")
            #expect(sim.state.appID == "tvinput.dtv")
            _ = try await client.post("/keypress/Home")
            #expect(sim.state.appID == "562859")
            _ = try await client.post("/keypress/Power")
            #expect(sim.state.power == .standby)
            // In standby only the power keys do anything.
            _ = try await client.post("/keypress/VolumeUp")
            _ = try await client.post("/launch/12")
            #expect(sim.state.power == .on, "launch turns a TV in standby on")
            _ = try await client.post("/keypress/PowerOff")
            _ = try await client.post("/keypress/VolumeDown")
            #expect(sim.state.volume == 18)
            _ = try await client.post("/keypress/Power")
            #expect(sim.state.power == .on)
            #expect(try await client.post("/keydown/Left").status == 200)
            #expect(try await client.post("/keyup/Left").status == 200)
            let kinds = log.entries.map { $0["kind"]?.stringValue ?? "" }
            #expect(kinds.contains("keydown") && kinds.contains("keyup"))
            #expect(log.entries.first?["key"] == "VolumeUp", "logged in canonical spelling")
        }
    }

    @Test func literalTextIsDecodedUTF8() async throws {
        try await withRoku { (sim, client, log) async throws in
            for key in ["Lit_h", "Lit_i", "Lit_%20", "Lit_%E2%82%AC"] {
                #expect(try await client.post("/keypress/\(key)").status == 200)
            }
            #expect(sim.state.text == "hi €")
            let euro = try #require(log.entries.last)
            #expect(euro["kind"] == "text")
            #expect(euro["text"] == "€")
            #expect(euro["key"] == "Lit_%E2%82%AC")
            _ = try await client.post("/keypress/Backspace")
            #expect(sim.state.text == "hi ")
        }
    }

    @Test func unknownKeyIsRefusedAndLogged() async throws {
        try await withRoku { (sim, client, log) async throws in
            let response = try await client.post("/keypress/Explode")
            #expect(response.status == 400)
            let entry = try #require(log.entries.last)
            #expect(entry["kind"] == "keypress")
            #expect(entry["key"] == "Explode")
            #expect(entry["refused"] != nil)
            #expect(try await client.get("/keypress/Home").status == 405)
        }
    }

    @Test func limitedModeRefusesKeysAndMediaPlayer() async throws {
        var options = RokuSimulatorOptions(host: "127.0.0.1", port: 0)
        options.limited = true
        try await withRoku(options) { (sim, client, log) async throws in
            for path in ["/keypress/Home", "/keydown/Up", "/keyup/Up"] {
                let response = try await client.post(path)
                #expect(response.status == 403)
                #expect(response.text == "ECP command not allowed in Limited mode.")
            }
            let player = try await client.get("/query/media-player")
            #expect(player.status == 403)
            #expect(player.text == "ECP command not allowed in Limited mode.")
            #expect(log.entries.count == 3)
            let allRefused = log.entries.allSatisfy { $0["refused"] == "limited mode" }
            #expect(allRefused)
            // What still works in Limited mode.
            #expect(try await client.get("/query/device-info").status == 200)
            #expect(try await client.get("/query/apps").status == 200)
            #expect(try await client.get("/query/active-app").status == 200)
            #expect(try await client.post("/launch/837").status == 200)
            #expect(sim.state.appID == "837")
            #expect(try await client.simState()["limited"] == true)
            #expect(try await client.post("/sim/state", #"{"limited":false}"#).status == 200)
            #expect(try await client.post("/keypress/Home").status == 200)
        }
    }

    @Test func simStateGetAndPost() async throws {
        try await withRoku { (sim, client, _) async throws in
            let initial = try await client.simState()
            #expect(initial["power"] == "on")
            #expect(initial["app"] == "562859")
            #expect(initial["media_state"] == "close")
            let change =
                #"{"app":"291097","media_state":"pause","position_ms":73313,"volume":40,"muted":true,"screensaver":true}"#
            let response = try await client.post("/sim/state", change)
            #expect(response.status == 200)
            let state = try JSONParser.parse(response.body)
            #expect(state["app"] == "291097")
            #expect(state["media_state"] == "pause")
            #expect(state["position_ms"] == 73313)
            #expect(state["volume"] == 40)
            #expect(state["muted"] == true)
            let active = try await client.xml("/query/active-app")
            #expect(active.firstChild(named: "screensaver")?.attribute("type") == "ssvr")
            let player = try await client.xml("/query/media-player")
            #expect(player.attribute("state") == "pause")
            #expect(player.childText("position") == "73313 ms")

            for (body, field) in [
                (#"{"app":"nope"}"#, "app"), (#"{"volume":101}"#, "volume"), (#"{"muted":"yes"}"#, "muted"),
                (#"{"power":"sideways"}"#, "power"), (#"{"colour":1}"#, "colour"),
                (#"{"position_ms":1.5}"#, "position_ms"),
            ] {
                let refused = try await client.post("/sim/state", body)
                #expect(refused.status == 400, "\(body)")
                #expect(refused.text.contains(field), "\(refused.text) names \(field)")
            }
            #expect(try await client.post("/sim/state", "{not json").status == 400)
            #expect(try await client.post("/sim/state", "[1]").status == 400)
            #expect(sim.state.volume == 40, "a refused change changes nothing")
            #expect(throws: SimulatorError.self) { try sim.apply(["volume": "loud"]) }
        }
    }

    @Test func stickIgnoresTVKeys() async throws {
        var options = RokuSimulatorOptions(host: "127.0.0.1", port: 0)
        options.kind = .stick
        try await withRoku(options) { (sim, client, _) async throws in
            let info = try await client.xml("/query/device-info")
            #expect(info.childText("is-stick") == "true")
            #expect(info.childText("is-tv") == "false")
            #expect(info.childText("ethernet-mac") == nil)
            #expect(sim.name.hasPrefix("Roku Stick"))
            for key in ["VolumeUp", "PowerOff", "InputHDMI1"] {
                #expect(try await client.post("/keypress/\(key)").status == 200)
            }
            #expect(sim.state.volume == 15 && sim.state.power == .on && sim.state.appID == "562859")
            let apps = try await client.xml("/query/apps")
            let listsInputs = apps.children(named: "app").contains { $0.attribute("type") == "tvin" }
            #expect(!listsInputs)
            #expect(try await client.post("/launch/tvinput.hdmi1").status == 404)
            try sim.apply(["power": "standby"])
            #expect(try await client.xml("/query/device-info").childText("power-mode") == "DisplayOff")
        }
    }

    @Test func commandLogLineFormat() async throws {
        try await withRoku { (sim, client, log) async throws in
            let before = wallClock()
            _ = try await client.post("/keypress/Home")
            let entry = try #require(log.entries.first)
            #expect(entry["tv"] == .string(sim.serial))
            #expect(entry["kind"] == "keypress")
            #expect(entry["key"] == "Home")
            let at = try #require(entry["at"]?.doubleValue)
            #expect(at >= before - 1 && at <= wallClock() + 1)
            #expect((at * 1_000_000).rounded() == at * 1_000_000, "microsecond resolution")
            // One line of JSON that parses back to the same value.
            let line = entry.serialized()
            #expect(!line.contains("\n"))
            #expect(try JSONParser.parse(line) == entry)
        }
    }

    @Test func waitForSeesLaterEntries() async throws {
        try await withRoku { (_, client, log) async throws in
            async let found = log.waitFor(timeout: .seconds(30)) { $0["app"] == "2285" }
            try await Task.sleep(for: .milliseconds(50))
            _ = try await client.post("/launch/2285")
            #expect(await found?["kind"] == "launch")
            let launchedNone = await log.waitFor(timeout: .milliseconds(50)) { $0["app"] == "none" }
            #expect(launchedNone == nil)
        }
    }
}

func wallClock() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
