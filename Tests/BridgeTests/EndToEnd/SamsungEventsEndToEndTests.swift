import Configuration
import Drivers
import Harness
import Net
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// Volume and mute pushed by UPnP events: MQTT → bridge → simulated Samsung, with
/// the bridge's NOTIFY listener on a free loopback port and polls every 60 s. The push tests run
/// the bridge under a `ManualClock` that stands still after the first poll: a change that
/// reaches MQTT then was pushed, since no poll can have run (how fast is `tvbench`'s).
@Suite("Samsung UPnP events end to end")
struct SamsungEventsEndToEndTests {
    static let id = "den"

    /// A simulated Samsung on `127.0.0.6` and a bridge polling it every `pollInterval` seconds,
    /// under `clock` when given (the simulator keeps real time).
    func withEvents(
        pollInterval: Double = 60, clock: ManualClock? = nil,
        adjust: (inout SamsungSimulatorOptions) -> Void = { _ in },
        _ body: (BridgeFixture, SamsungSimulator, CommandLog) async throws -> Void
    ) async throws {
        let log = CommandLog.memory()
        var options = SamsungSimulatorOptions(host: "127.0.0.6", portWS: 0, portWSS: 0, portUPnP: 0, name: "Den")
        adjust(&options)
        let simulator = try await SamsungSimulator.start(options, log: log)
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    var tv = BridgeConfiguration.ConfiguredTV(
                        host: simulator.host, kind: .samsung, id: TVID(Self.id), port: simulator.portWS)
                    tv.vendorOptions[SamsungTVOptions.self].secure = simulator.portWSS
                    tv.vendorOptions[SamsungTVOptions.self].upnp = simulator.portUPnP
                    $0.tvs = [tv]
                    $0.pollInterval = pollInterval
                }
                // The driver logs into the fixture's capture, where the tests read the fallback lines.
                let logger = Logger(label: "test", sink: fixture.logs, threshold: LogThreshold(.info))
                let factory = VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: logger)
                if let clock {
                    try await clock.run {
                        try await fixture.startBridge(configuration, factory: factory)
                        try await body(fixture, simulator, log)
                    }
                } else {
                    try await fixture.startBridge(configuration, factory: factory)
                    try await body(fixture, simulator, log)
                }
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    /// The simulator's first `subscribe` entry, and the initial event it sent (SEQ 0) answered 200.
    func expectSubscribed(_ log: CommandLog) async throws -> (sid: String, callback: URLParts) {
        let entry = await expectReceived(log, timeout: .seconds(20)) {
            $0["kind"] == "subscribe" && $0["action"] == "subscribe"
        }
        let sid = try #require(entry?["sid"]?.stringValue)
        let callback = try URLParts(parsing: try #require(entry?["callback"]?.stringValue))
        let initial = await expectReceived(log) {
            $0["kind"] == "subscribe" && $0["action"] == "notify" && $0["sid"]?.stringValue == sid
        }
        #expect(initial?["seq"]?.intValue == 0)
        #expect(initial?["status"]?.intValue == 200)
        return (sid, callback)
    }

    @Test("a volume or mute change on the TV reaches MQTT while no poll can run: pushed, not polled")
    func pushedNotWaitingForAPoll() async throws {
        let clock = ManualClock()
        try await withEvents(clock: clock) { fixture, simulator, log in
            // The first poll is due at once; after it, the next is a minute away and time stands still.
            #expect(await clock.waitForTimer(at: .zero))
            await clock.advance(to: .zero)
            await fixture.expectState(Self.id) { $0["power"] == "ON" && $0["volume"]?.intValue == 12 }
            _ = try await expectSubscribed(log)
            let changes: [(JSONValue, String)] = [
                (["volume": 33], "volume"), (["muted": true], "muted"), (["volume": 34], "volume"),
                (["muted": false], "muted"), (["volume": 35], "volume"), (["muted": true], "muted"),
            ]
            for (change, expected) in changes {
                let mark = await fixture.log.count
                try simulator.apply(change)
                let state = await fixture.expectState(Self.id, after: mark) { $0[expected] == change[expected] }
                #expect(state != nil, "\(change) was not pushed")
            }
            #expect(clock.elapsed == .zero, "no time passed, so no poll ran")
            // The initial event, then one per change (changes close together may share one).
            let notified = log.entries.filter { $0["kind"] == "subscribe" && $0["action"] == "notify" }
            #expect(notified.count >= 3)
        }
    }

    @Test("while volume and mute are pushed, polls leave out the two UPnP reads; a pushed value stays")
    func pushedNotPolled() async throws {
        try await withEvents(pollInterval: 1) { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" && $0["volume"]?.intValue == 12 }
            _ = try await expectSubscribed(log)
            try await Task.sleep(for: .milliseconds(500))  // a poll under way at the initial event
            let reads = simulator.renderingReadCount
            let polls = simulator.httpRequestCount
            try simulator.apply(["volume": 40])
            await fixture.expectState(Self.id, timeout: .seconds(30)) { $0["volume"]?.intValue == 40 }
            try await Task.sleep(for: .seconds(3))
            let polled = simulator.httpRequestCount - polls
            #expect(polled >= 3, "polls went on: \(polled) requests")
            #expect(simulator.renderingReadCount == reads, "no GetVolume or GetMute while pushed")
            // The polls in between kept the pushed volume.
            let state = await fixture.expectState(Self.id) { $0["power"] == "ON" }
            #expect(state?["volume"]?.intValue == 40)
        }
    }

    @Test("a TV that refuses the subscription: polled, one log line, and one line again when events work")
    func fallsBackToPolling() async throws {
        try await withEvents(pollInterval: 1, adjust: { $0.acceptsSubscriptions = false }) {
            fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            // Refused, then refused again at the first retry (2 s later): the warning is said once.
            let refusedTwice = await waitUntil(timeout: .seconds(30)) {
                log.entries.filter { $0["kind"] == "subscribe" && $0["action"] == "refused" }.count >= 2
            }
            #expect(refusedTwice)
            let warnings = fixture.logs.all.filter {
                $0.message.hasPrefix("UPnP events for volume and mute are not working")
            }
            #expect(warnings.count == 1, "\(warnings.map(\.message))")
            #expect(warnings.first?.level == .warning)
            // Polling still brings changes.
            try simulator.apply(["volume": 41])
            await fixture.expectState(Self.id) { $0["volume"]?.intValue == 41 }
            // The TV accepts again: subscribed at the next retry, said once.
            simulator.setAcceptsSubscriptions(true)
            _ = try await expectSubscribed(log)
            let recovered = await waitUntil(timeout: .seconds(30)) {
                fixture.logs.all.contains { $0.message.hasPrefix("UPnP events for volume and mute work again") }
            }
            #expect(recovered)
        }
    }

    @Test("NOTIFYs from another address, with a wrong SID or path, malformed or oversized are refused")
    func refusesStrangers() async throws {
        try await withEvents { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            let (sid, callback) = try await expectSubscribed(log)
            let body = Array(
                (#"<e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0"><e:property><LastChange>"#
                    + #"&lt;Event&gt;&lt;InstanceID val=&quot;0&quot;&gt;&lt;Volume channel=&quot;Master&quot; val=&quot;77&quot;/&gt;"#
                    + "&lt;/InstanceID&gt;&lt;/Event&gt;</LastChange></e:property></e:propertyset>").utf8)
            func notify(
                path: String = callback.path, sid: String = sid, nt: String = "upnp:event", body: [UInt8] = body
            )
                -> [UInt8]
            {
                let head =
                    "NOTIFY \(path) HTTP/1.1\r\nHOST: \(callback.hostHeader)\r\nNT: \(nt)\r\nNTS: upnp:propchange\r\n"
                    + "SID: \(sid)\r\nSEQ: 9\r\nContent-Length: \(body.count)\r\n\r\n"
                return Array(head.utf8) + body
            }
            let tv = simulator.host
            // Not the TV's address: closed at accept, unanswered (nil).
            #expect(await send(notify(), to: callback, from: "127.0.0.9") == nil)
            #expect(await send(notify(sid: "uuid:not-ours"), to: callback, from: tv) == 412)
            #expect(await send(notify(path: "/tv2mqtt/events/guess"), to: callback, from: tv) == 412)
            #expect(await send(notify(nt: "upnp:other"), to: callback, from: tv) == 412)
            #expect(await send(notify(body: Array("<not-xml".utf8)), to: callback, from: tv) == 400)
            let huge = [UInt8](repeating: 0x20, count: GENANotify.maxBodyBytes + 1)
            #expect(await send(notify(body: huge), to: callback, from: tv) == 413)
            #expect(await send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), to: callback, from: tv) == 405)
            // None of them changed the state; the genuine one does.
            let state = await fixture.log.latest("tv2mqtt/\(Self.id)/state")
            #expect(try JSONParser.parse(#require(state).payload)["volume"]?.intValue == 12)
            #expect(await send(notify(), to: callback, from: tv) == 200)
            await fixture.expectState(Self.id) { $0["volume"]?.intValue == 77 }
        }
    }

    @Test("the subscription is renewed at half its timeout, and UNSUBSCRIBEd when the bridge stops")
    func renewsAndUnsubscribes() async throws {
        // Granted 40 s: renewed exactly 20 s after each grant, on the bridge's clock. The jumps
        // stay short of the 60 s poll and keep-alive, whose requests a jump would time out
        // before their real answers came; the simulator's own expiry runs on real time.
        let clock = ManualClock()
        try await withEvents(clock: clock, adjust: { $0.eventTimeoutSeconds = 40 }) { fixture, simulator, log in
            #expect(await clock.waitForTimer(at: .zero))
            await clock.advance(to: .zero)
            let (sid, _) = try await expectSubscribed(log)
            for (index, at) in [Duration.seconds(20), .seconds(40)].enumerated() {
                #expect(await clock.waitForTimer(at: at), "no renewal armed at \(at): \(clock.pendingDeadlines)")
                await clock.advance(to: at)
                let renewals = await waitUntil(timeout: .seconds(30)) {
                    log.entries.filter { $0["action"] == "renew" && $0["sid"]?.stringValue == sid }.count > index
                }
                #expect(renewals, "not renewed at \(at)")
            }
            let renewed = log.entries.last { $0["action"] == "renew" }
            #expect(renewed?["timeout"]?.intValue == 40)
            #expect(simulator.eventSubscriptionIDs == [sid])
            try simulator.apply(["volume": 20])
            await fixture.expectState(Self.id) { $0["volume"]?.intValue == 20 }
            await fixture.stopBridge()
            let gone = await expectReceived(log) {
                $0["kind"] == "subscribe" && $0["action"] == "unsubscribe" && $0["sid"]?.stringValue == sid
            }
            #expect(gone != nil)
            #expect(simulator.eventSubscriptionIDs.isEmpty)
        }
    }

    /// Sends `bytes` to the listener from `source` (a loopback address); the answer's status.
    func send(_ bytes: [UInt8], to callback: URLParts, from source: String) async -> Int? {
        guard let address = try? SocketAddress(ip: callback.host, port: callback.effectivePort),
            let local = try? SocketAddress(ip: source, port: 0),
            let connection = try? await TCPConnection.connect(to: address, from: local)
        else { return nil }
        defer { connection.close() }
        let deadline = ContinuousClock.now + .seconds(5)
        var parser = HTTPResponseParser()
        do {
            try await connection.write(bytes, deadline: deadline)
            while true {
                let chunk = try await connection.read(maxBytes: 4096, deadline: deadline)
                if chunk.isEmpty { return try parser.finish(requestMethod: "NOTIFY")?.status }
                parser.append(chunk)
                if let response = try parser.next(requestMethod: "NOTIFY") { return response.status }
            }
        } catch {
            return nil
        }
    }
}
