import Configuration
import Drivers
import Harness
import Net
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// Issue 15 items 4–6 end to end: MQTT → bridge → simulated Roku, over HTTP ECP and ECP-2.
@Suite("Roku held keys, search and app icons end to end")
struct RokuExtrasEndToEndTests {
    func startBridge(_ fixture: BridgeFixture, _ rokus: SimulatedRokus, ecp2: Bool = false) async throws {
        let configuration = fixture.configuration {
            $0.discovery.ssdp = true
            $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: rokus.ssdpPort)
            $0.discovery.searchInterval = 0
            $0.wol.targets = [HostPort(host: "127.255.255.255", port: rokus.wolPort)]
            $0.wol.repeatCount = 1
            $0.vendorSettings[RokuSettings.self].ecp2 = ecp2 ? .auto : .off
        }
        try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
    }

    @Test("a held key is keydown, the hold, keyup: over HTTP and over ECP-2", arguments: [false, true])
    func heldKey(ecp2: Bool) async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: ecp2)
            try await startBridge(fixture, rokus, ecp2: ecp2)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" && (!ecp2 || $0["control"] == "ecp-2") }
            try await fixture.publish("tv2mqtt/\(id)/set", #"{"key":"Right","hold_ms":600}"#)
            let up = await expectReceived(rokus.log) { $0["kind"] == "keyup" && $0["key"] == "Right" }
            let entries = rokus.log.entries.filter { $0["key"] == "Right" }
            let kinds = entries.compactMap { $0["kind"]?.stringValue }
            #expect(kinds == ["keydown", "keyup"])
            let via = entries.map { $0["via"]?.stringValue }
            #expect(via == (ecp2 ? ["ecp-2", "ecp-2"] : [nil, nil]))
            #expect(up != nil)
        }
    }

    @Test("a held key out of range, with repeat, or a power key is refused and nothing is sent")
    func heldKeyRefused() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            for payload in [
                #"{"key":"Right","hold_ms":0}"#, #"{"key":"Right","hold_ms":10001}"#,
                #"{"key":"Right","hold_ms":500,"repeat":2}"#, #"{"hold_ms":500}"#, #"{"key":"PowerOff","hold_ms":500}"#,
            ] {
                let before = await fixture.log.count
                try await fixture.publish("tv2mqtt/\(id)/set", payload)
                await fixture.expectEvent("command_failed", "\(payload)", after: before)
            }
            let sent = rokus.log.entries.filter { $0["kind"] == "keydown" || $0["kind"] == "keyup" }
            #expect(sent.isEmpty)
        }
    }

    @Test("the ECP-2 session dropping during a hold: the key still comes up, over HTTP")
    func heldKeyReleasedAfterSessionDrop() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            try await startBridge(fixture, rokus, ecp2: true)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["control"] == "ecp-2" }
            try await fixture.publish("tv2mqtt/\(id)/set", #"{"key":"Fwd","hold_ms":1500}"#)
            await expectReceived(rokus.log) { $0["kind"] == "keydown" && $0["key"] == "Fwd" }
            tv.setECP2(false)
            let up = await expectReceived(rokus.log) { $0["kind"] == "keyup" && $0["key"] == "Fwd" }
            #expect(up?["via"] == nil, "released over HTTP: \(String(describing: up))")
        }
    }

    @Test("the bridge shutting down during a hold still releases the key")
    func heldKeyReleasedOnShutdown() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let clock = ManualClock()
            try await clock.run {
                try await startBridge(fixture, rokus)
                let id = SimulatedRokus.id(tv)
                #expect(await clock.waitForTimer(at: .zero))
                await clock.advance(to: .zero)
                await fixture.expectState(id) { $0["power"] == "ON" }
                try await fixture.publish("tv2mqtt/\(id)/set", #"{"key":"Rev","hold_ms":10000}"#)
                await expectReceived(rokus.log) { $0["kind"] == "keydown" && $0["key"] == "Rev" }
                await fixture.stopBridge()
                await expectReceived(rokus.log) { $0["kind"] == "keyup" && $0["key"] == "Rev" }
                #expect(clock.elapsed == .zero, "released at shutdown: the 10 s hold never passed")
            }
        }
    }

    @Test("search: set/search and the JSON form reach search/browse with their fields; a bad one is refused")
    func search() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(id)/set/search", "harry potter")
            await expectReceived(rokus.log) { $0["kind"] == "search" && $0["keyword"] == "harry potter" }
            try await fixture.publish(
                "tv2mqtt/\(id)/set",
                #"{"search":{"keyword":"The Crown","type":"tv-show","provider":"Netflix","launch":true}}"#)
            let entry = await expectReceived(rokus.log) { $0["kind"] == "search" && $0["keyword"] == "The Crown" }
            #expect(entry?["type"] == "tv-show" && entry?["provider"] == "Netflix" && entry?["launch"] == "true")
            await fixture.expectState(id) { $0["app"] == "Netflix" }
            let tooLong = String(repeating: "a", count: TVCommand.maxTextLength + 1)
            for payload in [
                #"{"search":""}"#, #"{"search":{"keyword":"x","type":"song"}}"#, "{\"search\":\"\(tooLong)\"}",
                #"{"search":{"keyword":"x","color":"red"}}"#,
            ] {
                let before = await fixture.log.count
                try await fixture.publish("tv2mqtt/\(id)/set", payload)
                await fixture.expectEvent("command_failed", after: before)
            }
            #expect(rokus.entries("search", of: tv).count == 2)
        }
    }

    @Test("app_icon: the icon of the app in front, fetched once per app, cleared when off or on an input")
    func appIcon() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            let topic = "tv2mqtt/\(id)/app_icon"
            let entity = try await fixture.component("app_icon", of: id)
            #expect(entity["platform"] == "image" && entity["image_topic"] == .string(topic))
            #expect(entity["content_type"] == "image/png")
            await fixture.expectState(id) { $0["power"] == "ON" }

            let netflix = try #require(RokuSimulator.icon(for: "12", kind: .tv))
            let youtube = try #require(RokuSimulator.icon(for: "837", kind: .tv))
            try await fixture.use("app", of: id, payload: "Netflix")
            await fixture.expectMessage(topic) { $0.payload == netflix.bytes }
            try await fixture.use("app", of: id, payload: "YouTube")
            await fixture.expectMessage(topic) { $0.payload == youtube.bytes }
            let back = await fixture.log.count
            try await fixture.use("app", of: id, payload: "Netflix")
            await fixture.expectMessage(topic, after: back) { $0.payload == netflix.bytes }
            #expect(tv.iconRequestCount == 2, "each app's icon fetched once")

            // An input has no icon: the topic is emptied, and the retained message is gone.
            let before = await fixture.log.count
            try await fixture.use("input", of: id, payload: "HDMI 1")
            await fixture.expectMessage(topic, after: before) { $0.payload.isEmpty }
            try await fixture.use("app", of: id, payload: "YouTube")
            await fixture.expectMessage(topic, after: before) { $0.payload == youtube.bytes }
            let off = await fixture.log.count
            try await fixture.use("power", of: id, payload: "OFF")
            await fixture.expectMessage(topic, after: off) { $0.payload.isEmpty }
            #expect(tv.iconRequestCount == 3)
        }
    }
}
