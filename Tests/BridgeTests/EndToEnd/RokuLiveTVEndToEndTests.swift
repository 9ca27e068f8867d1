import Clients
import Drivers
import Harness
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// Issue 15 items 1–3 and 7 through MQTT, the bridge and `tvsim roku`: live TV (channel and
/// program), channel tuning, live streams, and the capabilities device-info reports.
@Suite("Roku live TV end to end")
struct RokuLiveTVEndToEndTests {
    let base = RokuEndToEndTests()

    @Test("on the tuner the state carries the channel and program; they go when the TV leaves live TV")
    func liveTVState() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await base.startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["app": "tvinput.dtv", "channel": "7.1"])
            let live = await fixture.expectState(id) { $0["channel"] == "7.1 KQED" }
            #expect(live?["channel_number"] == "7.1")
            #expect(live?["channel_name"] == "KQED")
            #expect(live?["media_title"] == "PBS NewsHour")
            #expect(live?["media_description"] == "News and analysis of the day's events.")
            #expect(live?["input"] == "Live TV")
            try tv.apply(["app": "837"])
            let left = await fixture.expectState(id) { $0["app"] == "YouTube" }
            for field in ["channel", "channel_number", "channel_name", "media_title", "media_description"] {
                #expect(left?[field] == nil, "\(field) stale after leaving live TV: \(String(describing: left))")
            }
        }
    }

    @Test(
        "the channel select lists the tuner's channels; set/channel and {\"channel\"} tune with launch/tvinput.dtv?ch=")
    func channelTuning() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await base.startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            let select = try await fixture.component("channel", of: id)
            let options = select["options"]?.arrayValue?.compactMap(\.stringValue)
            #expect(options == ["2.1 KTVU", "7.1 KQED", "7.2 KQED+", "14.3 getTV"])
            _ = try await fixture.component("current_channel", of: id)
            _ = try await fixture.component("media_title", of: id)

            // The select's own payload (the option label).
            try await fixture.use("channel", of: id, payload: "7.2 KQED+")
            await expectReceived(rokus.log) { $0["kind"] == "channel" && $0["channel"] == "7.2" }
            await fixture.expectState(id) { $0["channel"] == "7.2 KQED+" && $0["media_title"] == "Nature" }
            // The JSON command with the number alone.
            try await fixture.publish("tv2mqtt/\(id)/set", #"{"channel":"14.3"}"#)
            await expectReceived(rokus.log) { $0["kind"] == "channel" && $0["channel"] == "14.3" }
            await fixture.expectState(id) { $0["channel"] == "14.3 getTV" && $0["media_title"] == "Airwolf" }

            // An unknown channel is refused and nothing is sent.
            let before = rokus.entries("channel", of: tv).count
            try await fixture.publish("tv2mqtt/\(id)/set/channel", "99.9")
            let failure = try #require(await fixture.log.waitForEvent("tv2mqtt", type: "command_failed"))
            #expect(failure["message"]?.stringValue?.contains("unknown channel") == true)
            try await Task.sleep(for: .milliseconds(300))
            #expect(rokus.entries("channel", of: tv).count == before)
        }
    }

    @Test("a stick has no tuner: no channel entities, and a channel command fails")
    func stickHasNoTuner() async throws {
        try await withRokus { fixture, rokus in
            let stick = try await rokus.start("127.0.0.3", kind: .stick)
            try await base.startBridge(fixture, rokus)
            let id = SimulatedRokus.id(stick)
            await fixture.expectState(id) { $0["power"] == "ON" }
            _ = try await fixture.component("find_remote", of: id)
            let latest = await fixture.log.latest("homeassistant/device/\(id)/config")
            let config = try JSONParser.parse(#require(latest).payload)
            for key in ["channel", "current_channel", "media_title"] {
                let component = config["components"]?[key]
                #expect(component == nil || component?.objectValue?.keys.sorted() == ["platform"], "\(key)")
            }
            try await fixture.publish("tv2mqtt/\(id)/set/channel", "7.1")
            let failure = try #require(await fixture.log.waitForEvent("tv2mqtt", type: "command_failed"))
            #expect(failure["message"]?.stringValue?.contains("no TV tuner") == true)
        }
    }

    @Test(
        "find_remote only where supports-find-remote is true: the TV (false) has none, the stick (true) presses FindRemote"
    )
    func findRemote() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let stick = try await rokus.start("127.0.0.3", kind: .stick)
            try await base.startBridge(fixture, rokus)
            let tvID = SimulatedRokus.id(tv)
            let stickID = SimulatedRokus.id(stick)
            await fixture.expectState(tvID) { $0["power"] == "ON" }
            try await fixture.use("find_remote", of: stickID)
            await expectReceived(rokus.log) { $0["kind"] == "keypress" && $0["key"] == "FindRemote" }
            let latest = await fixture.log.latest("homeassistant/device/\(tvID)/config")
            let config = try JSONParser.parse(#require(latest).payload)
            #expect(config["components"]?["find_remote"]?.objectValue?.keys.sorted() == ["platform"])
        }
    }

    @Test("a live stream: live true, no duration and no position; a video: live false with its duration")
    func liveStream() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await base.startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["app": "74519", "media_state": "play", "position_ms": 73313])
            let video = await fixture.expectState(id) { $0["app_id"] == "74519" && $0["live"] == false }
            #expect(video?["duration"] != nil)
            try tv.apply(["live": true])
            let live = await fixture.expectState(id) { $0["live"] == true }
            #expect(live?["duration"] == nil, "\(String(describing: live))")
            #expect(live?["position"] == nil, "\(String(describing: live))")
            #expect(live?["media_state"] == "playing")
        }
    }

    @Test("ecp-setting-mode is in the state, and limited announces Limited mode before any command")
    func ecpSettingMode() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", limited: true)
            try await base.startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            let state = await fixture.expectState(id) { $0["ecp_setting_mode"] == "limited" }
            #expect(state?["limited_mode"] == true)
            let event = try #require(await fixture.log.waitForEvent("tv2mqtt", type: "limited_mode"))
            #expect(event["message"]?.stringValue?.contains("Control by mobile apps") == true)
            _ = try await fixture.component("ecp_setting_mode", of: id)
            try tv.apply(["limited": false])
            await fixture.expectState(id) { $0["ecp_setting_mode"] == "enabled" && $0["limited_mode"] == false }
        }
    }

    @Test("over ECP-2 (state pushed, no polling) live streams and channel changes read the same as over HTTP")
    func overECP2() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            let id = try await RokuECP2EndToEndTests().startPushing(fixture, rokus, tv)
            try tv.apply(["app": "74519", "media_state": "play", "position_ms": 1000])
            let video = await fixture.expectState(id) { $0["app_id"] == "74519" && $0["live"] == false }
            #expect(video?["duration"] != nil, "\(String(describing: video))")
            try tv.apply(["live": true])
            let live = await fixture.expectState(id) { $0["live"] == true }
            #expect(live?["duration"] == nil && live?["position"] == nil, "\(String(describing: live))")
            try tv.apply(["app": "tvinput.dtv", "channel": "7.1"])
            await fixture.expectState(id) { $0["channel"] == "7.1 KQED" && $0["live"] == nil }
            try tv.apply(["channel": "14.3"])
            await fixture.expectState(id) { $0["channel"] == "14.3 getTV" && $0["media_title"] == "Airwolf" }
            try tv.apply(["app": "837"])
            let left = await fixture.expectState(id) { $0["app"] == "YouTube" }
            #expect(left?["channel"] == nil && left?["media_title"] == nil, "\(String(describing: left))")
        }
    }
}
