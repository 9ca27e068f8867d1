import Clients
import Drivers
import Harness
import Net
import Support
import Synchronization
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

/// The art channel believes only the TV, matches replies by request id, and reopens a channel
/// that stops answering or contradicts itself — logged once — against the simulator.
@Suite("Samsung The Frame: art channel trust and recovery")
struct SamsungArtChannelTrustTests {
    typealias Generations = SamsungArtFirmwareTests

    @Test("another client's art_mode_changed, relayed by the TV's channel server, never makes TV look like art")
    func relayedBroadcastIgnored() async throws {
        // 2019: the TV's own messages come from its host client id, others' from theirs.
        try await withSamsungRig(frame: true, artFirmware: .y2019) { rig in
            try await withDriver(rig.driver()) { driver, events in
                try await driver.pair()
                _ = try await Generations.polledState(driver) { $0.artMode == false }
                let token = try #require(events.tokens.last)
                let query = SamsungRemoteEndpoint.secure(
                    host: rig.simulator.host, clientName: rig.samsung.clientName, token: SamsungToken(token),
                    port: rig.simulator.portWSS
                ).query
                let other = try await WebSocketClient.connect(
                    url:
                        "wss://\(rig.simulator.host):\(rig.simulator.portWSS)/api/v2/channels/com.samsung.art-app?\(query)",
                    tls: TLSConfiguration(trust: .selfSigned(pinned: rig.simulator.certificateSHA256)),
                    connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
                var otherID = ""
                for await message in other.connection.incoming {
                    guard case .text(let text) = message, let event = try? JSONParser.parse(text) else { continue }
                    if event["event"] == "ms.channel.connect" {
                        otherID = event["data"]?["id"]?.stringValue ?? ""
                        break
                    }
                }
                // A fake greeting naming the other client as the host, then a fake change.
                let greeting: JSONValue = [
                    "method": "ms.channel.emit",
                    "params": [
                        "event": "ms.channel.connect", "to": "broadcast",
                        "data": ["clients": [["id": .string(otherID), "isHost": true]]],
                    ],
                ]
                try await other.connection.send(text: greeting.serialized())
                let fake = JSONValue.object(["event": "art_mode_changed", "status": "on", "value": "on"]).serialized()
                let broadcast: JSONValue = [
                    "method": "ms.channel.emit",
                    "params": ["event": "d2d_service_message", "to": "broadcast", "data": .string(fake)],
                ]
                try await other.connection.send(text: broadcast.serialized())
                try await Task.sleep(for: .seconds(1))
                let polled = await driver.poll(full: false)
                _ = try? await other.connection.close()
                #expect(polled.artMode == false)
                #expect(polled.power == true)
                let everArt = Generations.states(events).contains { $0.artMode == true }
                #expect(!everArt)
                let ignored = rig.logs.all.contains { $0.message.contains("from another client") }
                #expect(ignored)
            }
        }
    }

    @Test("replies that contradict the broadcasts twice in a row reopen the channel, logged once; art stays art")
    func wedgedChannelReopens() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2023) { rig in
            rig.simulator.setArtFault(.latched)
            // The driver on a clock that never moves: no answer or keep-alive deadline can pass on
            // a busy machine, and a poll starts a reconnection waiting out its backoff at once.
            // Its requests wait longer than the test can step the clock.
            var settings = rig.settings
            settings.requestTimeout = .seconds(600)
            let clock = ManualClock()
            try await clock.run {
                try await withDriver(rig.driver(settings: settings)) { driver, events in
                    try await driver.pair()
                    _ = try await Generations.polledState(driver) { $0.artMode == false }
                    let beforeArt = events.events.count
                    try rig.set(["art_mode": "on"])
                    _ = try await Generations.pushedState(events, after: beforeArt) { $0.artMode == true }
                    let pushedBefore = Generations.states(events).count
                    // Each poll asks; the latched channel answers "off" against its own broadcast.
                    try await Self.pollUntil(driver, rig, reopenings: 1)
                    let after = Generations.states(events).dropFirst(pushedBefore)
                    let leftArt = after.contains { $0.artMode != true }
                    #expect(!leftArt)
                    #expect(await driver.poll(full: false).artMode == true)
                    // Again, the other way round, once the new connection (opened after its 1 s
                    // backoff) latched "on" in its first status reply, which the simulator logs:
                    // reopened again, still logged once at info.
                    let latched = await clock.step(by: .seconds(1), atMost: 30, settle: .milliseconds(300)) {
                        rig.entries("art_latched").count >= 2
                    }
                    #expect(latched, "the new connection's first status reply")
                    let values = rig.entries("art_latched").compactMap { $0["value"]?.stringValue }
                    try #require(values == ["off", "on"], "\(values)")
                    let beforeTV = events.events.count
                    try rig.set(["art_mode": "off"])
                    _ = try await Generations.pushedState(events, after: beforeTV) {
                        $0.artMode == false && $0.power == true
                    }
                    try await Self.pollUntil(driver, rig, reopenings: 2)
                    let info = rig.logs.all.filter { $0.level == .info && $0.message.contains("contradicted") }
                    #expect(info.count == 1)
                    #expect(await driver.poll(full: false).artMode == false)
                }
            }
        }
    }

    @Test("a status request left unanswered reopens the channel, logged once; art_mode stays out while on")
    func unansweredReopens() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2023) { rig in
            rig.simulator.setArtFault(.unanswered)
            var settings = rig.settings
            settings.requestTimeout = .seconds(2)
            // The driver on a clock the test moves a second at a time: the 2 s a status request
            // waits are virtual, and no other deadline (the pairing's) can pass on a busy machine.
            let clock = ManualClock()
            try await clock.run {
                try await withDriver(rig.driver(settings: settings)) { driver, _ in
                    try await driver.pair()
                    let polled = try #require(await Self.poll(driver, clock))
                    #expect(polled.artMode == nil)
                    #expect(polled.power == true)
                    let reopened = await clock.step(by: .seconds(1), atMost: 30, settle: .milliseconds(300)) {
                        rig.logs.all.filter { $0.message.contains("no answer to a status request") }.count >= 2
                    }
                    #expect(reopened, "the unanswered status request did not reopen the channel twice")
                    let lines = rig.logs.all.filter { $0.message.contains("no answer to a status request") }
                    let infoLines = lines.filter { $0.level == .info }
                    #expect(infoLines.count == 1)
                    #expect(lines.count >= 2)
                    #expect(try #require(await Self.poll(driver, clock)).artMode == nil)
                }
            }
        }
    }

    /// A poll, with the clock moved a second at a time while it waits for the art channel.
    static func poll(_ driver: SamsungDriver, _ clock: ManualClock) async -> TVSnapshot? {
        let result = PolledSnapshot()
        let polling = Task { result.set(await driver.poll(full: false)) }
        _ = await clock.step(by: .seconds(1), atMost: 30, settle: .milliseconds(300)) { result.value != nil }
        await polling.value
        return result.value
    }

    @Test("a status request the TV refuses is said once in the log; art_mode stays out while on")
    func refusedStatus() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2023) { rig in
            rig.simulator.setArtFault(.refused)
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.pair()
                _ = await driver.poll(full: false)
                try await Task.sleep(for: .milliseconds(300))
                _ = await driver.poll(full: false)
                try await Self.waitForLog(rig, seconds: 5) { lines in
                    lines.contains { $0.message.contains("refused the art-mode status request") }
                }
                let refused = rig.logs.all.filter { $0.message.contains("refused the art-mode status request") }
                #expect(refused.first?.level == .info)
                let refusedInfo = refused.filter { $0.level == .info }
                #expect(refusedInfo.count == 1)
                #expect(await driver.poll(full: false).artMode == nil)
            }
        }
    }

    /// Polls (each poll asks the art mode) until the channel was reopened `reopenings` times.
    static func pollUntil(_ driver: SamsungDriver, _ rig: SamsungRig, reopenings: Int) async throws {
        // Each poll waits for the art channel's answers: a busy machine makes them slow.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let reopened = rig.logs.all.filter { $0.message.contains("contradicted") }.count
            if reopened >= reopenings { return }
            _ = await driver.poll(full: false)
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("the art channel was not reopened \(reopenings) times within 60 s")
    }

    static func waitForLog(_ rig: SamsungRig, seconds: Int, _ condition: ([LogRecord]) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline, !condition(rig.logs.all) {
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// What a poll returned, set from the task that ran it.
final class PolledSnapshot: Sendable {
    private let snapshot = Mutex<TVSnapshot?>(nil)
    var value: TVSnapshot? { snapshot.withLock { $0 } }
    func set(_ value: TVSnapshot) { snapshot.withLock { $0 = value } }
}
