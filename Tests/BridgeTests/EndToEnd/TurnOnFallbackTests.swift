import Clients
import Configuration
import Drivers
import Harness
import MQTTInterface
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// Issue 17 item 1, end to end: MQTT → bridge → a simulated Roku that is off, and the TV's
/// `<base>/<tv>/event` topic the `turn_on` device triggers and the event entity listen to.
@Suite("Turn-on fallback end to end")
struct TurnOnFallbackTests {
    /// A bridge whose Wake-on-LAN goes to the simulators' listener (`wakes`) or to a port
    /// nobody listens on: a TV that ignores Wake-on-LAN.
    func startBridge(_ fixture: BridgeFixture, _ rokus: SimulatedRokus, wakes: Bool, wakeTimeout: Double = 3)
        async throws
    {
        let configuration = fixture.configuration {
            $0.discovery.ssdp = true
            $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: rokus.ssdpPort)
            $0.discovery.searchInterval = 0
            $0.wol.targets = [HostPort(host: "127.255.255.255", port: wakes ? rokus.wolPort : 9)]
            $0.wol.repeatCount = 1
            $0.wakeTimeout = wakeTimeout
        }
        try await fixture.startBridge(
            configuration, factory: VendorDriverFactory(configuration: configuration, logger: .disabled))
    }

    static func event(_ message: MQTTMessage) -> JSONValue? { try? JSONParser.parse(message.payload) }

    @Test("ON to a TV that ignores Wake-on-LAN: turn_on_requested at once, then command_failed and turn_on_failed")
    func ignoresWakeOnLAN() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus, wakes: false)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["power": "off"])
            await fixture.expectState(id) { $0["power"] == "OFF" }
            let eventTopic = "tv2mqtt/\(id)/event"

            let mark = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            let requested = await fixture.expectMessage(eventTopic, after: mark) {
                Self.event($0)?[TVEventType.member] == "turn_on_requested"
            }
            #expect(requested?.retain == false)
            let requestedEvent = try #require(requested.flatMap(Self.event))
            #expect(requestedEvent["type"] == "turn_on_requested")
            #expect(requestedEvent["tv"] == .string(id))
            await fixture.expectEvent("turn_on_requested", after: mark)

            let failed = await fixture.expectMessage(eventTopic, after: mark) {
                Self.event($0)?[TVEventType.member] == "turn_on_failed"
            }
            let failedEvent = try #require(failed.flatMap(Self.event))
            #expect(failedEvent["wake_timeout"] == 3)
            let commandFailed = await fixture.expectMessage(eventTopic, after: mark) {
                Self.event($0)?[TVEventType.member] == "command_failed"
            }
            let message = try #require(commandFailed.flatMap(Self.event)?["message"]?.stringValue)
            #expect(message.contains("Wake-on-LAN went to"))
            #expect(message.contains("wired Ethernet"))
            #expect(message.contains("Power on by network"))
            await fixture.expectEvent("command_failed", after: mark) { $0["command"] == "power" }
            // Once: the watch ended with the report.
            try await Task.sleep(for: .seconds(4))
            let failures = await fixture.log.all(eventTopic).filter {
                Self.event($0)?[TVEventType.member] == "turn_on_failed"
            }
            #expect(failures.count == 1)
        }
    }

    @Test("an ON during a watch moves its deadline; an ON after the failure is watched again")
    func watchMovesAndRestarts() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus, wakes: false, wakeTimeout: 6)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["power": "off"])
            await fixture.expectState(id) { $0["power"] == "OFF" }
            let eventTopic = "tv2mqtt/\(id)/event"
            func failures() async -> Int {
                await fixture.log.all(eventTopic).filter {
                    Self.event($0)?[TVEventType.member] == "turn_on_failed"
                }.count
            }

            // Timed from when the first ON was seen to be watched (no earlier than the bridge
            // took it): its deadline is at most 6 s after, the moved one at least 8 s after, and
            // the check at 7 s has a second of margin on either side.
            let mark = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            await fixture.expectMessage(eventTopic, after: mark) {
                Self.event($0)?[TVEventType.member] == "turn_on_requested"
            }
            let watched = ContinuousClock.now
            try await Task.sleep(until: watched + .seconds(2), clock: .continuous)
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            try await Task.sleep(until: watched + .seconds(7), clock: .continuous)
            let early = await failures()
            #expect(early == 0, "the second ON moved the deadline")
            let firstReported = await waitUntil(timeout: .seconds(10)) { await failures() == 1 }
            #expect(firstReported)

            // The watcher ended with the report; a new ON starts another.
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            let secondReported = await waitUntil(timeout: .seconds(10)) { await failures() == 2 }
            #expect(secondReported)
        }
    }

    @Test("ON to a TV that wakes: turn_on_requested, and no turn_on_failed once it is on")
    func wakes() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus, wakes: true)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["power": "off"])
            await fixture.expectState(id) { $0["power"] == "OFF" }
            let mark = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            await fixture.expectMessage("tv2mqtt/\(id)/event", after: mark) {
                Self.event($0)?[TVEventType.member] == "turn_on_requested"
            }
            await fixture.expectState(id, after: mark) { $0["power"] == "ON" }
            try await Task.sleep(for: .seconds(5))
            let types = await fixture.log.all("tv2mqtt/\(id)/event").compactMap {
                Self.event($0)?[TVEventType.member]?.stringValue
            }
            #expect(!types.contains("turn_on_failed"), "\(types)")
            // ON to a TV that is on: no request.
            let onMark = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            try await Task.sleep(for: .seconds(1))
            let later = await fixture.log.all("tv2mqtt/\(id)/event").count
            let before = await fixture.log.messages.prefix(onMark).filter { $0.topic == "tv2mqtt/\(id)/event" }.count
            #expect(later == before)
        }
    }

    @Test("events of other types reach the TV's topic with event_type; tv_discovered stays on bridge/event")
    func eventTopicCarriesTVEvents() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", limited: true)
            try await startBridge(fixture, rokus, wakes: true)
            let id = SimulatedRokus.id(tv)
            let limited = await fixture.expectMessage("tv2mqtt/\(id)/event") {
                Self.event($0)?[TVEventType.member] == "limited_mode"
            }
            #expect(limited.flatMap(Self.event)?["type"] == "limited_mode")
            let mark = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/key", "NoSuchKey")
            await fixture.expectMessage("tv2mqtt/\(id)/event", after: mark) {
                Self.event($0)?[TVEventType.member] == "command_failed"
            }
            let types = await fixture.log.all("tv2mqtt/\(id)/event").compactMap {
                Self.event($0)?[TVEventType.member]?.stringValue
            }
            #expect(!types.contains("tv_discovered"))
            let foreign = types.filter { TVEventType(rawValue: $0) == nil }
            #expect(foreign.isEmpty, "\(types)")
        }
    }
}
