import Clients
import Harness
import Net
import Testing
import Wire

/// The client against a fake broker the test scripts byte by byte: the exact bytes it sends,
/// its timers, its redelivery, and what it does with a broker that misbehaves.
@Suite("MQTTClient against a scripted broker")
struct MQTTClientScriptedTests {
    /// A length-prefixed UTF-8 string (§1.5.3).
    static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    static let protocolName: [UInt8] = [0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04]  // "MQTT", level 4

    struct ConnectCase: Sendable, CustomTestStringConvertible {
        let name: String
        let session: MQTTSessionConfiguration
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let connectCases: [ConnectCase] = [
        ConnectCase(
            name: "will QoS 1 retained, user and password, clean session, keepalive 30",
            session: MQTTSessionConfiguration(
                clientID: "tv2mqtt-test", cleanSession: true, keepAlive: 30,
                will: MQTTWill(
                    topic: "tv/bridge/state", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true),
                username: "user", password: Array("pw".utf8)),
            // flags 0xEE: user name, password, will retain, will QoS 1, will, clean session.
            bytes: [0x10, 60] + protocolName + [0xEE, 0x00, 0x1E] + string("tv2mqtt-test")
                + string("tv/bridge/state")
                + string("offline") + string("user") + string("pw")),
        ConnectCase(
            name: "nothing optional, session kept, keepalive off",
            session: MQTTSessionConfiguration(clientID: "b", cleanSession: false, keepAlive: 0),
            bytes: [0x10, 13] + protocolName + [0x00, 0x00, 0x00] + string("b")),
        ConnectCase(
            name: "will QoS 2 with an empty payload, user name without password, keepalive 300",
            session: MQTTSessionConfiguration(
                clientID: "c", keepAlive: 300, will: MQTTWill(topic: "w", payload: [], qos: .exactlyOnce),
                username: "u"),
            // flags 0x96: user name, will QoS 2, will, clean session.
            bytes: [0x10, 21] + protocolName + [0x96, 0x01, 0x2C] + string("c") + string("w") + string("")
                + string("u")),
    ]

    @Test(
        "the client sends exactly the CONNECT bytes of MQTT 3.1.1 §3.1 for its configuration",
        arguments: connectCases)
    func connectBytes(_ testCase: ConnectCase) async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        try await withClient(TestMQTT.configuration(port: broker.port, session: testCase.session)) {
            running in
            let connection = try await broker.accept()
            defer { connection.close() }
            #expect(try await connection.readBytes(testCase.bytes.count) == testCase.bytes)
            try await connection.send(.connAck(MQTTConnAck()))
            #expect(await running.waitForConnection())
        }
    }

    @Test(
        "with keepalive 1 s a PINGREQ goes out at exactly 1 s of silence, answered ones keep the connection, an unanswered one ends it 1 s later"
    )
    func pingTimingAndDeadConnection() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        // Keepalive shorter than the CONNACK timeout (10 s): the first PINGREQ must not wait for that.
        let session = MQTTSessionConfiguration(
            clientID: "pinger", keepAlive: 1, connAckTimeout: .seconds(60))
        // No jitter, and CONNACK and connect timeouts whose timers (armed, then no longer needed,
        // they stay until they fire) are out of the way of the ones the test waits for.
        let backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(60), jitter: 0)
        let configuration = TestMQTT.configuration(
            port: broker.port, session: session, backoff: backoff, connectTimeout: .seconds(30))
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            // CONNECT and CONNACK at 0 s: the first PINGREQ is due at 1 s of silence, not at the
            // CONNACK deadline (10 s).
            for second in 1...10 {
                let due = Duration.seconds(second)
                #expect(await clock.waitForTimer(at: due), "PINGREQ \(second) armed: \(clock.pendingDeadlines)")
                await clock.advance(to: due - .nanoseconds(1))
                #expect(clock.pendingDeadlines.first == due, "nothing fired before \(due)")
                await clock.advance(to: due)
                #expect(try await connection.readPacket() == .pingReq)
                // The PINGRESP deadline: 1 s (the keepalive) after the PINGREQ.
                #expect(await clock.waitForTimer(at: due + .seconds(1)))
                // Answered, then a message behind it: once the client delivers the message it has
                // taken the PINGRESP too, before the test moves time on.
                try await connection.send(.pingResp)
                try await connection.send(.publish(MQTTPublish(topic: "sync", payload: [UInt8(second)])))
                #expect(await running.waitForMessages(count: second).count == second)
            }
            #expect(running.connectionCount == 1)
            #expect(running.disconnectReasons.isEmpty)

            // Not answered: the PINGREQ at 11 s, the connection declared dead at exactly 12 s.
            #expect(await clock.waitForTimer(at: .seconds(11)))
            await clock.advance(to: .seconds(11))
            #expect(try await connection.readPacket() == .pingReq)
            #expect(await clock.waitForTimer(at: .seconds(12)))
            await clock.advance(to: .seconds(12) - .nanoseconds(1))
            #expect(clock.pendingDeadlines.first == .seconds(12))
            #expect(running.disconnectReasons.isEmpty)
            await clock.advance(to: .seconds(12))
            #expect(try await connection.readUntilClosed() == [])
            #expect(await running.waitForDisconnect(containing: "no PINGRESP in time") != nil)
            #expect(running.connectionCount == 1)

            // The first reconnection delay, 1 s: the next attempt at exactly 13 s.
            #expect(await clock.waitForTimer(at: .seconds(13)))
            await clock.advance(to: .seconds(13))
            let (again, _) = try await broker.acceptSession()
            defer { again.close() }
            #expect(await running.waitForConnection(count: 2))
        }
    }

    @Test(
        "an unacknowledged QoS 1 publish is resent with DUP=1 and its id after a reconnect to a kept session"
    )
    func resendQoS1() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "resend-1", cleanSession: false, keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let (first, connect) = try await broker.acceptSession()
            defer { first.close() }
            #expect(!connect.cleanSession)
            #expect(await running.waitForConnection())
            let client = running.client
            let publishing = Task {
                try await client.publish("t/q1", Array("hello".utf8), qos: .atLeastOnce)
            }

            guard case .publish(let original)? = try await first.readPacket() else {
                Issue.record("expected PUBLISH")
                return
            }
            let id = try #require(original.packetID)
            #expect(original.qos == .atLeastOnce && !original.dup)
            first.close()  // no PUBACK: the broker "lost" the connection

            let (second, _) = try await broker.acceptSession(sessionPresent: true)
            defer { second.close() }
            #expect(
                try await second.readPacket()
                    == .publish(
                        MQTTPublish(
                            topic: "t/q1", payload: Array("hello".utf8), qos: .atLeastOnce, dup: true,
                            packetID: id)))
            try await second.send(.pubAck(id))
            try await value(of: publishing)
            let resumedSession = await running.waitForStates { $0.last == .connected(sessionPresent: true) }
            #expect(resumedSession)
        }
    }

    @Test(
        "after a reconnect to a kept session: PUBREL is resent for a QoS 2 publish past PUBREC, PUBLISH with DUP=1 before"
    )
    func resendQoS2() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "resend-2", cleanSession: false, keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let (first, _) = try await broker.acceptSession()
            defer { first.close() }
            #expect(await running.waitForConnection())
            let client = running.client
            let released = Task { try await client.publish("t/a", Array("A".utf8), qos: .exactlyOnce) }
            guard case .publish(let a)? = try await first.readPacket(), let idA = a.packetID else {
                Issue.record("expected PUBLISH A")
                return
            }
            try await first.send(.pubRec(idA))
            #expect(try await first.readPacket() == .pubRel(idA))
            let pending = Task { try await client.publish("t/b", Array("B".utf8), qos: .exactlyOnce) }
            guard case .publish(let b)? = try await first.readPacket(), let idB = b.packetID else {
                Issue.record("expected PUBLISH B")
                return
            }
            #expect(idA != idB && !b.dup)
            first.close()  // neither PUBCOMP for A nor PUBREC for B

            let (second, _) = try await broker.acceptSession(sessionPresent: true)
            defer { second.close() }
            // In their original order [MQTT-4.6.0-1]: A is at its release step, B not yet received.
            #expect(try await second.readPacket() == .pubRel(idA))
            #expect(
                try await second.readPacket()
                    == .publish(
                        MQTTPublish(
                            topic: "t/b", payload: Array("B".utf8), qos: .exactlyOnce, dup: true, packetID: idB)
                    ))
            try await second.send(.pubComp(idA))
            try await value(of: released)
            try await second.send(.pubRec(idB))
            #expect(try await second.readPacket() == .pubRel(idB))
            try await second.send(.pubComp(idB))
            try await value(of: pending)
        }
    }

    @Test(
        "an inbound QoS 2 PUBLISH sent again with DUP=1 before PUBREL is delivered once and acknowledged twice"
    )
    func inboundQoS2Duplicate() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "dup-in", keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            let message = MQTTPublish(
                topic: "in/x", payload: Array("once".utf8), qos: .exactlyOnce, packetID: 7)
            try await connection.send(.publish(message))
            #expect(try await connection.readPacket() == .pubRec(7))
            var duplicate = message
            duplicate.dup = true
            try await connection.send(.publish(duplicate))
            #expect(try await connection.readPacket() == .pubRec(7))
            try await connection.send(.pubRel(7))
            #expect(try await connection.readPacket() == .pubComp(7))
            // The id is free again: a new message with it is a new message.
            let next = MQTTPublish(
                topic: "in/x", payload: Array("next".utf8), qos: .exactlyOnce, packetID: 7)
            try await connection.send(.publish(next))
            #expect(try await connection.readPacket() == .pubRec(7))
            let messages = await running.waitForMessages(count: 2)
            #expect(messages.map(\.text) == ["once", "next"])
            let allExactlyOnce = messages.allSatisfy { $0.qos == .exactlyOnce && $0.topic == "in/x" }
            #expect(allExactlyOnce)
        }
    }

    /// Waits for a task started by the test, bounded so a client bug cannot hang the suite.
    func value(of task: Task<Void, any Error>, within limit: Duration = .seconds(10)) async throws {
        let outcome = Recorder<Result<Void, any Error>>()
        let waiter = Task { outcome.append(await task.result) }
        guard await waitUntil(timeout: limit, { !outcome.all.isEmpty }) else {
            waiter.cancel()
            task.cancel()
            throw ScriptError.unexpected("the operation did not complete within \(limit)")
        }
        try outcome.all[0].get()
    }
}
