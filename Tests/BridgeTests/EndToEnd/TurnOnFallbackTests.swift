import Clients
import Configuration
import Drivers
import Harness
import MQTTInterface
import Net
import TVModel
import TVSimulators
import TestSupport
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
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
    }

    static func event(_ message: MQTTMessage) -> JSONValue? { try? JSONParser.parse(message.payload) }

    /// The bridge under `clock` (the simulators keep real time), the TV seen on and then off,
    /// each at a poll (every second of the clock's).
    func startWithTVOff(
        _ fixture: BridgeFixture, _ rokus: SimulatedRokus, _ tv: RokuSimulator, under clock: ManualClock,
        wakes: Bool, wakeTimeout: Double = 3
    ) async throws -> String {
        try await startBridge(fixture, rokus, wakes: wakes, wakeTimeout: wakeTimeout)
        let id = SimulatedRokus.id(tv)
        #expect(await clock.waitForTimer(at: .zero))
        await clock.advance(to: .zero)
        await fixture.expectState(id) { $0["power"] == "ON" }
        try tv.apply(["power": "off"])
        let off = await clock.step(by: .seconds(1)) {
            await fixture.log.latest("tv2mqtt/\(id)/state").flatMap(Self.event)?["power"] == "OFF"
        }
        #expect(off, "the TV was never seen off")
        return id
    }

    /// How many `type` events the TV's topic carries.
    func count(_ type: String, _ fixture: BridgeFixture, _ id: String) async -> Int {
        await fixture.log.all("tv2mqtt/\(id)/event").filter { Self.event($0)?[TVEventType.member] == .string(type) }
            .count
    }

    @Test("ON to a TV that ignores Wake-on-LAN: turn_on_requested at once, then command_failed and turn_on_failed")
    func ignoresWakeOnLAN() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let clock = ManualClock()
            try await clock.run {
                let id = try await startWithTVOff(fixture, rokus, tv, under: clock, wakes: false)
                let eventTopic = "tv2mqtt/\(id)/event"

                let mark = await fixture.log.count
                let sent = clock.elapsed
                try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
                let requested = await fixture.expectMessage(eventTopic, after: mark) {
                    Self.event($0)?[TVEventType.member] == "turn_on_requested"
                }
                #expect(requested?.retain == false)
                let requestedEvent = try #require(requested.flatMap(Self.event))
                #expect(requestedEvent["type"] == "turn_on_requested")
                #expect(requestedEvent["tv"] == .string(id))
                await fixture.expectEvent("turn_on_requested", after: mark)

                // Reported at exactly wake_timeout (3 s) after the ON, not a moment before.
                #expect(await clock.waitForTimer(at: sent + .seconds(3)))
                await clock.advance(to: sent + .seconds(3) - .milliseconds(1))
                #expect(await count("turn_on_failed", fixture, id) == 0)
                await clock.advance(to: sent + .seconds(3))
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
                // Once: the watch ended with the report, so nothing is armed to report it again.
                await clock.advance(by: .seconds(4))
                #expect(await count("turn_on_failed", fixture, id) == 1)
            }
        }
    }

    @Test("an ON during a watch moves its deadline; an ON after the failure is watched again")
    func watchMovesAndRestarts() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let clock = ManualClock()
            try await clock.run {
                let id = try await startWithTVOff(fixture, rokus, tv, under: clock, wakes: false, wakeTimeout: 6)
                let eventTopic = "tv2mqtt/\(id)/event"
                // The first ON's deadline is 6 s after it; a second ON 2 s later moves it to 8 s.
                let mark = await fixture.log.count
                let first = clock.elapsed
                try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
                await fixture.expectMessage(eventTopic, after: mark) {
                    Self.event($0)?[TVEventType.member] == "turn_on_requested"
                }
                #expect(await clock.waitForTimer(at: first + .seconds(6)))
                await clock.advance(to: first + .seconds(2))
                try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
                #expect(await clock.waitForTimer(at: first + .seconds(8)), "\(clock.pendingDeadlines)")
                await clock.advance(to: first + .seconds(8) - .milliseconds(1))
                #expect(await count("turn_on_failed", fixture, id) == 0, "the second ON moved the deadline")
                await clock.advance(to: first + .seconds(8))
                let firstReported = await waitUntil(timeout: .seconds(30)) {
                    await count("turn_on_failed", fixture, id) == 1
                }
                #expect(firstReported)

                // The watcher ended with the report; a new ON starts another, 6 s on.
                let again = clock.elapsed
                try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
                #expect(await clock.waitForTimer(at: again + .seconds(6)))
                await clock.advance(to: again + .seconds(6))
                let secondReported = await waitUntil(timeout: .seconds(30)) {
                    await count("turn_on_failed", fixture, id) == 2
                }
                #expect(secondReported)
            }
        }
    }

    @Test("ON to a TV that wakes: turn_on_requested, and no turn_on_failed once it is on")
    func wakes() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let clock = ManualClock()
            try await clock.run {
                let id = try await startWithTVOff(fixture, rokus, tv, under: clock, wakes: true)
                let mark = await fixture.log.count
                let sent = clock.elapsed
                try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
                await fixture.expectMessage("tv2mqtt/\(id)/event", after: mark) {
                    Self.event($0)?[TVEventType.member] == "turn_on_requested"
                }
                // Seen on at a poll before wake_timeout (3 s), then the watch's deadline passes.
                let on = await clock.step(by: .milliseconds(500), atMost: 5) {
                    await fixture.log.all("tv2mqtt/\(id)/state").last.flatMap(Self.event)?["power"] == "ON"
                }
                #expect(on, "the TV never came on")
                await clock.advance(to: sent + .seconds(5))
                let types = await fixture.log.all("tv2mqtt/\(id)/event").compactMap {
                    Self.event($0)?[TVEventType.member]?.stringValue
                }
                #expect(!types.contains("turn_on_failed"), "\(types)")
                // ON to a TV that is on: no request.
                let onMark = await fixture.log.count
                try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
                try await Task.sleep(for: .seconds(1))
                let later = await fixture.log.all("tv2mqtt/\(id)/event").count
                let before = await fixture.log.messages.prefix(onMark).filter { $0.topic == "tv2mqtt/\(id)/event" }
                    .count
                #expect(later == before)
            }
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
