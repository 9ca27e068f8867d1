import Clients
import Net
import TVSimulators
import Testing
import Wire

/// `tvsim roku`'s tuner (issue 15 item 8): channel list, active channel, tuning, live streams,
/// `ecp-setting-mode`, and the `/sim/state` fields `channel` and `live`.
@Suite struct RokuTunerTests {
    @Test func channelListActiveChannelAndTuning() async throws {
        try await withRoku { (sim, client, log) async throws in
            let list = try await client.xml("/query/tv-channels")
            let numbers = list.children.compactMap { $0.childText("number") }
            #expect(numbers == RokuTuner.channels.map(\.number))
            // Away from the tuner: no channel.
            #expect(try await client.xml("/query/tv-active-channel").firstChild(named: "channel") == nil)

            let tuned = try await client.post("/launch/tvinput.dtv?ch=14.3")
            #expect(tuned.status == 200)
            let active = try #require(try await client.xml("/query/tv-active-channel").firstChild(named: "channel"))
            #expect(active.childText("number") == "14.3")
            #expect(active.childText("program-title") == "Airwolf")
            #expect(sim.state.appID == "tvinput.dtv" && sim.state.channel == "14.3")
            #expect(log.entries.last?["kind"] == "channel" && log.entries.last?["channel"] == "14.3")

            let unknown = try await client.post("/launch/tvinput.dtv?ch=99.9")
            #expect(unknown.status == 400)
            #expect(log.entries.last?["refused"] == "unknown channel")
            #expect(sim.state.channel == "14.3")
        }
    }

    @Test func simStateChannelAndLive() async throws {
        try await withRoku { (sim, client, _) async throws in
            let set = try await client.post("/sim/state", #"{"app":"tvinput.dtv","channel":"7.1"}"#)
            #expect(set.status == 200)
            #expect(try await client.simState()["channel"] == "7.1")
            #expect(try await client.post("/sim/state", #"{"channel":"99.9"}"#).status == 400)
            #expect(try await client.post("/sim/state", #"{"live":"yes"}"#).status == 400)

            _ = try await client.post("/sim/state", #"{"app":"74519","media_state":"play"}"#)
            var player = try await client.xml("/query/media-player")
            #expect(player.childText("is_live") == "false" && player.childText("duration") != nil)
            _ = try await client.post("/sim/state", #"{"live":true}"#)
            player = try await client.xml("/query/media-player")
            #expect(player.childText("is_live") == "true" && player.childText("duration") == nil)
            #expect(sim.state.isLive)
        }
    }

    @Test func ecpSettingModeAndLimitedTunerQueries() async throws {
        try await withRoku { (_, client, _) async throws in
            #expect(try await client.xml("/query/device-info").childText("ecp-setting-mode") == "enabled")
            _ = try await client.post("/sim/state", #"{"limited":true}"#)
            #expect(try await client.xml("/query/device-info").childText("ecp-setting-mode") == "limited")
            #expect(try await client.get("/query/tv-channels").status == 403)
            #expect(try await client.get("/query/tv-active-channel").status == 403)
            // Tuning is a launch, which Limited mode allows.
            #expect(try await client.post("/launch/tvinput.dtv?ch=7.1").status == 200)
        }
    }

    @Test func stickHasNoTuner() async throws {
        try await withRoku(RokuSimulatorOptions(host: "127.0.0.1", port: 0, kind: .stick)) {
            (_, client, _) async throws in
            #expect(try await client.get("/query/tv-channels").status == 404)
            #expect(try await client.xml("/query/device-info").childText("supports-find-remote") == "true")
            #expect(try await client.post("/sim/state", #"{"channel":"7.1"}"#).status == 400)
        }
    }
}
