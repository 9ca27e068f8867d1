import Clients
import Net
import Testing
import Wire

/// The writer hands the socket whatever has queued up, many packets in one write: a burst must
/// still leave in the order it was queued, and a connection lost in the middle of it must lose
/// no QoS 1 message (issue 18, the MQTT throughput work).
@Suite("MQTT client: a burst keeps its order across a reconnect")
struct MQTTClientBurstOrderTests {
    static let count = 300

    @Test("300 queued QoS 1 publishes go out in order; after a drop, the unacknowledged ones are resent in order")
    func burstAcrossReconnect() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "burst-order", cleanSession: false, keepAlive: 0)
        try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
            let (first, _) = try await broker.acceptSession()
            defer { first.close() }
            #expect(await running.waitForConnection())
            let payloads = (0..<Self.count).map { Array("m\($0)".utf8) }
            for payload in payloads { try await running.client.enqueue("burst/t", payload, qos: .atLeastOnce) }

            // The first 100 arrive in order; the broker acknowledges 50 of them, then drops.
            var seen: [MQTTPublish] = []
            for _ in 0..<100 {
                guard case .publish(let publish)? = try await first.readPacket() else { break }
                seen.append(publish)
            }
            #expect(seen.map(\.payload) == Array(payloads.prefix(100)))
            for publish in seen.prefix(50) { try await first.send(.pubAck(try #require(publish.packetID))) }
            first.close()

            // The rest, in order, none lost. It starts at the first acknowledgement the client had
            // read: PUBACKs still unread when the connection went may be lost with it (a reset
            // discards them), and at least once allows sending those again.
            let (second, _) = try await broker.acceptSession(sessionPresent: true)
            defer { second.close() }
            guard case .publish(let firstResent)? = try await second.readPacket() else {
                Issue.record("nothing resent after the reconnect")
                return
            }
            let start = try #require(payloads.firstIndex(of: firstResent.payload))
            #expect(start <= 50, "m\(start) resent first, though m50 was the first unacknowledged")
            var resent = [firstResent]
            while resent.count < Self.count - start {
                guard case .publish(let publish)? = try await second.readPacket() else { break }
                resent.append(publish)
            }
            #expect(resent.map(\.payload) == Array(payloads.dropFirst(start)))
            // Those the broker had read before the drop come again marked as duplicates [MQTT-3.3.1-1].
            let marked = resent.prefix(100 - start).filter { $0.dup }.count
            #expect(marked == 100 - start)
            for publish in resent { try await second.send(.pubAck(try #require(publish.packetID))) }
        }
    }
}
