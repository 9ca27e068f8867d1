import Clients
import Net
import TVSimulators
import Testing
import Wire

/// `tvsim roku`'s "Control by mobile apps" (`--ecp-setting-mode`, `/sim/state`
/// `ecp_setting_mode`) as Roku OS 15.2.4 applies it, and a silent Roku (`silent`) with its
/// `software_version`.
@Suite struct RokuECPSettingTests {
    @Test func enabledAndDefaultRefuseHTTPKeysOnly() async throws {
        let options = RokuSimulatorOptions(host: "127.0.0.1", port: 0, ecpSetting: .enabled)
        try await withRoku(options) { (sim, client, log) async throws in
            #expect(try await client.xml("/query/device-info").childText("ecp-setting-mode") == "enabled")
            let refused = try await client.post("/keypress/Home")
            #expect(refused.status == 403 && String(decoding: refused.body, as: UTF8.self) == "Forbidden")
            #expect(log.entries.last?["refused"] == "ecp-setting-mode enabled")
            #expect(try await client.post("/keydown/Up").status == 403)
            // Queries and launch keep working.
            #expect(try await client.get("/query/media-player").status == 200)
            #expect(try await client.post("/launch/837").status == 200)
            #expect(sim.state.appID == "837")

            _ = try await client.post("/sim/state", #"{"ecp_setting_mode":"default"}"#)
            #expect(try await client.xml("/query/device-info").childText("ecp-setting-mode") == "default")
            #expect(try await client.post("/keypress/Home").status == 403)
            _ = try await client.post("/sim/state", #"{"ecp_setting_mode":"permissive"}"#)
            #expect(try await client.post("/keypress/Home").status == 200)
            #expect(sim.state.appID == RokuCatalog.homeID)
            _ = try await client.post("/sim/state", #"{"ecp_setting_mode":"limited"}"#)
            let limited = try await client.post("/keypress/Home")
            #expect(limited.status == 403 && String(decoding: limited.body, as: UTF8.self).contains("Limited mode"))
            #expect(try await client.simState()["limited"] == true)
            #expect(try await client.post("/sim/state", #"{"ecp_setting_mode":"open"}"#).status == 400)
        }
    }

    @Test func silentAnswersNothingButSimState() async throws {
        try await withRoku { (sim, client, log) async throws in
            _ = try await client.post("/sim/state", #"{"silent":true,"software_version":"15.2.4"}"#)
            let impatient = HTTPClient(host: sim.host, port: sim.port, requestTimeout: .milliseconds(500))
            var kinds: [HTTPClientError.Kind] = []
            for target in ["/query/device-info", "/keypress/Home"] {
                do {
                    _ = try await impatient.request(target.hasPrefix("/query") ? "GET" : "POST", target)
                } catch {
                    kinds.append((error as? HTTPClientError)?.kind ?? .malformed)
                }
            }
            await impatient.closeIdle()
            #expect(kinds == [.timeout, .timeout])
            #expect(try await client.simState()["silent"] == true)
            _ = try await client.post("/sim/state", #"{"silent":false}"#)
            try await Task.sleep(for: .milliseconds(300))
            // The request held during the silence was not carried out late.
            #expect(log.entries.isEmpty)
            #expect(try await client.xml("/query/device-info").childText("software-version") == "15.2.4")
            #expect(try await client.post("/sim/state", #"{"software_version":"<x>"}"#).status == 400)
        }
    }
}
