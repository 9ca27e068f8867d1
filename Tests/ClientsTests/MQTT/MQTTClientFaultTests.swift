import Clients
import Harness
import Net
import Testing
import Wire

/// A broker that misbehaves or refuses: the client reports why, reconnects, never crashes.
@Suite("MQTTClient with a faulty or refusing broker")
struct MQTTClientFaultTests {
    struct GarbageCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// Sent after CONNACK, or instead of it.
        let bytes: [UInt8]
        let beforeConnAck: Bool
        /// Close our side right after sending (a truncated packet).
        let closeAfter: Bool
        /// What the disconnect reason must say.
        let reason: String
        var testDescription: String { name }
    }

    static let garbageCases: [GarbageCase] = [
        GarbageCase(
            name: "packet type 0", bytes: [0x00, 0x00], beforeConnAck: false, closeAfter: false,
            reason: "malformed packet from the broker: MQTT: packet type 0 is reserved"),
        GarbageCase(
            name: "packet type 15", bytes: [0xF0, 0x00], beforeConnAck: false, closeAfter: false,
            reason: "malformed packet from the broker: MQTT: packet type 15 is reserved"),
        GarbageCase(
            name: "remaining length of five bytes", bytes: [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            beforeConnAck: false,
            closeAfter: false, reason: "remaining length uses more than 4 bytes"),
        // Refused on the header alone: the client neither waits for nor buffers 256 MiB. (An
        // oversize PUBLISH is skipped instead: MQTTClientHardeningTests.)
        GarbageCase(
            name: "SUBACK header announcing 256 MiB, no body", bytes: [0x90, 0xFF, 0xFF, 0xFF, 0x7F],
            beforeConnAck: false, closeAfter: false,
            reason:
                "packet from the broker too large: MQTT: SUBACK of 268435460 bytes exceeds the 1048576-byte limit"
        ),
        GarbageCase(
            name: "PUBLISH announcing 20 bytes, 3 sent, then close",
            bytes: [0x30, 0x14, 0x00, 0x03, 0x61],
            beforeConnAck: false, closeAfter: true,
            reason: "the broker closed the connection in the middle of a packet"
        ),
        GarbageCase(
            name: "CONNACK with reserved return code 9", bytes: [0x20, 0x02, 0x00, 0x09],
            beforeConnAck: true,
            closeAfter: false, reason: "CONNACK return code 9 is reserved"),
        GarbageCase(
            name: "PUBACK instead of CONNACK", bytes: [0x40, 0x02, 0x00, 0x01], beforeConnAck: true,
            closeAfter: false,
            reason: "protocol violation: PUBACK received before CONNACK"),
        GarbageCase(
            name: "text instead of CONNACK", bytes: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8),
            beforeConnAck: true,
            closeAfter: false, reason: "malformed packet from the broker"),
    ]

    @Test(
        "garbage from the broker ends the connection with a clear reason, and the client reconnects",
        arguments: garbageCases)
    func garbage(_ testCase: GarbageCase) async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "garbage", keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let connection: ScriptedConnection
            if testCase.beforeConnAck {
                connection = try await broker.accept()
                guard case .connect? = try await connection.readPacket() else {
                    Issue.record("expected CONNECT")
                    return
                }
            } else {
                (connection, _) = try await broker.acceptSession()
                #expect(await running.waitForConnection())
            }
            defer { connection.close() }
            try await connection.send(bytes: testCase.bytes)
            if testCase.closeAfter {
                connection.close()
            } else {
                // The client must hang up by itself, without sending anything more.
                #expect(try await connection.readUntilClosed() == [])
            }
            let reason = await running.waitForDisconnect(containing: testCase.reason)
            #expect(reason != nil, "reasons: \(running.disconnectReasons)")

            let (again, _) = try await broker.acceptSession()
            defer { again.close() }
            #expect(await running.waitForConnection(count: testCase.beforeConnAck ? 1 : 2))
        }
    }

    @Test("random bytes from the broker, whatever they decode to, end in a reconnect, never a crash")
    func randomBytes() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "random", keepAlive: 0)
        var generator = SplitMix64(seed: 0x7432_6d71_7474)
        let rounds = 8
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            for round in 1...rounds {
                let (connection, _) = try await broker.acceptSession()
                defer { connection.close() }
                #expect(await running.waitForConnection(count: round))
                let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
                try await connection.send(bytes: bytes)
                // Random bytes may be a valid packet prefix that waits for more: end it either way.
                connection.close()
                let disconnectedEachRound = await running.waitForStates { states in
                    states.count { $0.isDisconnected } >= round
                }
                #expect(disconnectedEachRound)
            }
            let (last, _) = try await broker.acceptSession()
            defer { last.close() }
            #expect(await running.waitForConnection(count: rounds + 1))
            #expect(running.disconnectReasons.count == rounds)
        }
    }

    static let refusals: [(MQTTConnectReturnCode, String)] = [
        (.unacceptableProtocolVersion, "unacceptable protocol version"),
        (.identifierRejected, "identifier rejected"),
        (.serverUnavailable, "server unavailable"),
        (.badUserNameOrPassword, "bad user name or password"),
        (.notAuthorized, "not authorized"),
    ]

    @Test(
        "each CONNACK refusal code 1–5 surfaces with its meaning from §3.2.2.3, and the client retries",
        arguments: refusals)
    func connAckRefusal(_ code: MQTTConnectReturnCode, _ meaning: String) async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "refused", keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let connection = try await broker.accept()
            defer { connection.close() }
            guard case .connect? = try await connection.readPacket() else {
                Issue.record("expected CONNECT")
                return
            }
            try await connection.send(.connAck(MQTTConnAck(returnCode: code)))
            #expect(try await connection.readUntilClosed() == [])
            #expect(await running.waitForDisconnect(containing: "connection refused: \(meaning)") != nil)
            let loggedRefusal = running.logLines.contains {
                $0.contains("error") && $0.contains("refused the connection: \(meaning)")
            }
            #expect(loggedRefusal)
            #expect(running.connectionCount == 0)

            // It tries again (a broker may come back, credentials may be fixed on its side).
            let retry = try await broker.accept()
            defer { retry.close() }
            guard case .connect? = try await retry.readPacket() else {
                Issue.record("expected a second CONNECT")
                return
            }
        }
    }
}

extension MQTTConnectionState {
    var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
}

/// A small deterministic generator, so "random" bytes are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
