import Clients
import Harness
import Net
import Testing
import Wire

/// Issue 13: a broker (or anyone publishing through it) must not be able to put the client in
/// a reconnect loop, leave a dead connection unnoticed, or hold a caller that gave up.
@Suite("MQTTClient hardening: oversize messages, silence, cancellation, backoff")
struct MQTTClientHardeningTests {
    /// An oversize PUBLISH's bytes: fixed header, topic, packet id, then `payloadSize` bytes.
    static func bigPublish(topic: String, qos: MQTTQoS, id: UInt16?, payloadSize: Int) throws -> [UInt8] {
        try MQTTPacket.publish(
            MQTTPublish(
                topic: topic, payload: [UInt8](repeating: 0x78, count: payloadSize), qos: qos,
                retain: qos == .atMostOnce,
                packetID: id)
        ).encoded()
    }

    @Test("an oversize PUBLISH is skipped and acknowledged as its QoS requires; the connection stays up")
    func oversizeSkippedAndAcknowledged() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "oversize", keepAlive: 0)
        let configuration = TestMQTT.configuration(port: broker.port, session: session, maxPacketSize: 1024)
        try await withClient(configuration) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            // 300 KB each, sent in small pieces so that the client sees the body arrive over many reads.
            var sizes: [Int] = []
            for (qos, id) in [(MQTTQoS.atMostOnce, UInt16?.none), (.atLeastOnce, 7), (.exactlyOnce, 8)] {
                let bytes = try Self.bigPublish(topic: "big/q\(qos.rawValue)", qos: qos, id: id, payloadSize: 300_000)
                sizes.append(bytes.count)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 7000)
                    try await connection.send(bytes: Array(bytes[start..<end]))
                    start = end
                }
            }
            #expect(try await connection.readPacket() == .pubAck(7))
            #expect(try await connection.readPacket() == .pubRec(8))
            try await connection.send(.pubRel(8))
            #expect(try await connection.readPacket() == .pubComp(8))
            try await connection.send(.publish(MQTTPublish(topic: "big/small", payload: Array("ok".utf8))))
            #expect(await running.waitForMessages(count: 1).map(\.topic) == ["big/small"])
            #expect(running.connectionCount == 1)
            #expect(running.disconnectReasons.isEmpty)
            // Logged once each, with topic and size.
            for qos in 0...2 {
                let lines = running.logLines.filter { $0.contains("skipped a message on big/q\(qos):") }
                #expect(lines.count == 1, "\(running.logLines)")
                #expect(lines.first?.contains("\(sizes[qos]) bytes exceed the 1024-byte limit") ?? false)
            }
        }
    }

    @Test(
        "a broker that drops every connection right after CONNACK gets the attempts at 0, 1, 3, 7 … s: 1 s doubling, capped at 60 s"
    )
    func backoffGrowsAfterShortConnections() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(
            clientID: "short-lived", keepAlive: 0, connAckTimeout: .seconds(3600))
        let backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(60), jitter: 0)
        let configuration = TestMQTT.configuration(
            port: broker.port, session: session, backoff: backoff, connectTimeout: .seconds(3600))
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            // Were the backoff reset after every CONNACK, every delay would be 1 s, for ever.
            let delays: [Int] = [1, 2, 4, 8, 16, 32, 60, 60]
            var attempt = Duration.zero
            for (index, delay) in delays.enumerated() {
                let (connection, _) = try await broker.acceptSession()
                #expect(await running.waitForConnection(count: index + 1))
                connection.close()
                // Dropped at once (no virtual time passes): the next attempt is due `delay` later.
                let next = attempt + .seconds(delay)
                #expect(await clock.waitForTimer(at: next), "attempt at \(next): \(clock.pendingDeadlines)")
                await clock.advance(to: next - .nanoseconds(1))
                #expect(clock.pendingDeadlines.first == next)
                await clock.advance(to: next)
                attempt = next
            }
            let (last, _) = try await broker.acceptSession()
            defer { last.close() }
            #expect(await running.waitForConnection(count: delays.count + 1))
            #expect(clock.elapsed == .seconds(183))
            let retries = running.logLines.filter { $0.contains("retrying in ") }
                .compactMap { $0.split(separator: "retrying in ").last.map(String.init) }
            let announced = delays.map { "\(Double($0)) s" }
            #expect(retries == announced, "\(retries)")
        }
    }

    @Test(
        "a client that publishes all the time still pings a silent broker at 1 s and declares the connection dead at 2 s"
    )
    func receiveSilencePingsWhilePublishing() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "busy", keepAlive: 1, connAckTimeout: .seconds(60))
        let configuration = TestMQTT.configuration(
            port: broker.port, session: session, connectTimeout: .seconds(60))
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            // A TV playing: a state publish every 100 ms. The broker reads them and says nothing:
            // the send silence never reaches 1 s, the receive silence does.
            for tenth in 1...19 {
                await clock.advance(to: .milliseconds(100 * tenth))
                if tenth == 10 {
                    // 1 s of receive silence: the PINGREQ, whatever was sent meanwhile.
                    #expect(try await connection.readPacket() == .pingReq, "the PINGREQ despite the publishing")
                    #expect(await clock.waitForTimer(at: .seconds(2)), "the PINGRESP deadline")
                }
                try await running.call { try await $0.publish("tv/state", "playing") }
                let packet = try await connection.readPacket()
                guard case .publish = packet else {
                    Issue.record("expected the publish, got \(String(describing: packet))")
                    return
                }
            }
            #expect(running.disconnectReasons.isEmpty)
            await clock.advance(to: .seconds(2))
            #expect(try await connection.readUntilClosed() == [])
            #expect(await running.waitForDisconnect(containing: "no PINGRESP in time") != nil)
        }
    }

    @Test("cancelling a QoS 1 publish that waits for its PUBACK ends the wait at once")
    func cancelledPublishReturns() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "cancel", keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            let client = running.client
            let finished = Recorder<String>()
            let publishing = Task {
                do {
                    try await client.publish("t", "never acknowledged", qos: .atLeastOnce)
                    finished.append("acknowledged")
                } catch {
                    finished.append("\(error)")
                }
            }
            guard case .publish? = try await connection.readPacket() else {
                Issue.record("expected PUBLISH")
                return
            }
            publishing.cancel()
            let ended = await waitUntil(timeout: .seconds(30)) { !finished.all.isEmpty }
            #expect(ended, "the publish still waits for a PUBACK after its task was cancelled")
            #expect(finished.all.first?.contains("cancelled") ?? false, "\(finished.all)")
            #expect(running.connectionCount == 1)
        }
    }
}
