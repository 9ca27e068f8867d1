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

    @Test("a broker that drops every connection right after CONNACK gets ever longer delays")
    func backoffGrowsAfterShortConnections() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "short-lived", keepAlive: 0)
        let backoff = ReconnectBackoff(initial: .milliseconds(200), maximum: .seconds(5), jitter: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session, backoff: backoff)) { _ in
            var accepted: [ContinuousClock.Instant] = []
            for _ in 0..<5 {
                let (connection, _) = try await broker.acceptSession(timeout: .seconds(20))
                accepted.append(.now)
                try await Task.sleep(for: .milliseconds(20))
                connection.close()
            }
            // 200, 400, 800, 1600 ms (plus connection time): were the backoff reset after every
            // CONNACK, every gap would be about 200 ms, for ever.
            let gaps = zip(accepted.dropFirst(), accepted).map { $0 - $1 }
            // The fourth delay is 1.6 s exactly (no jitter): a lower bound that load cannot break.
            #expect(gaps[3] >= .milliseconds(1550), "gaps: \(gaps)")
        }
    }

    @Test("a client that publishes all the time still pings a silent broker and declares the connection dead")
    func receiveSilencePingsWhilePublishing() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "busy", keepAlive: 1)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            let client = running.client
            // A TV playing: a state publish every 100 ms. The broker reads them and says nothing.
            let publishing = Task {
                while !Task.isCancelled {
                    try? await client.publish("tv/state", "playing")
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            defer { publishing.cancel() }
            let packets = try await connection.readUntilClosed(timeout: .seconds(10))
            #expect(packets.contains(.pingReq), "a PINGREQ despite the steady publishing")
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
            let ended = await waitUntil(timeout: .seconds(3)) { !finished.all.isEmpty }
            #expect(ended, "the publish still waits for a PUBACK after its task was cancelled")
            #expect(finished.all.first?.contains("cancelled") ?? false, "\(finished.all)")
            #expect(running.connectionCount == 1)
        }
    }
}
