import Clients
import TestSupport
import Testing
import Wire

@Suite("MQTT session: redelivery after reconnect", .cpuBound)
struct MQTTSessionRedeliveryTests {
    typealias T = MQTTSessionTestSupport

    @Test(
        "unacknowledged PUBLISH is resent with DUP and its id, PUBREL past PUBREC, in original order",
        arguments: [true, false])
    func resendWithDupAfterReconnect(cleanSession: Bool) throws {
        var session = try T.connected(
            MQTTSessionConfiguration(clientID: "c", cleanSession: cleanSession))
        let first = try #require(
            try session.publish(topic: "q1", payload: [1], qos: .atLeastOnce, now: T.at(1)).id)
        let second = try #require(
            try session.publish(topic: "q2", payload: [2], qos: .exactlyOnce, now: T.at(1)).id)
        let third = try #require(
            try session.publish(topic: "q2b", payload: [3], qos: .exactlyOnce, now: T.at(1)).id)
        let acked = try #require(
            try session.publish(topic: "done", payload: [], qos: .atLeastOnce, now: T.at(1)).id)
        let (sub, _) = try session.subscribe([MQTTSubscription(filter: "s/#")], now: T.at(1))
        _ = try session.publish(topic: "zero", payload: [], now: T.at(1))
        _ = session.received(.pubRec(second), now: T.at(2))
        _ = session.received(.pubAck(acked), now: T.at(2))

        let actions = T.reconnect(&session, at: 10, sessionPresent: !cleanSession)
        #expect(
            actions == [
                .send(
                    .publish(
                        MQTTPublish(topic: "q1", payload: [1], qos: .atLeastOnce, dup: true, packetID: first))),
                .send(.pubRel(second)),
                .send(
                    .publish(
                        MQTTPublish(topic: "q2b", payload: [3], qos: .exactlyOnce, dup: true, packetID: third))),
                .send(
                    .subscribe(MQTTSubscribe(packetID: sub, subscriptions: [MQTTSubscription(filter: "s/#")]))
                ),
                .connected(sessionPresent: !cleanSession),
            ])
        // Resending counts as sending for keep-alive.
        #expect(session.nextDeadline == T.at(70))
        // The flows then finish as usual.
        #expect(session.received(.pubAck(first), now: T.at(11)) == [.publishCompleted(first)])
        #expect(session.received(.pubComp(second), now: T.at(11)) == [.publishCompleted(second)])
        #expect(session.received(.pubRec(third), now: T.at(11)) == [.send(.pubRel(third))])
        #expect(session.inFlightCount == 2)
    }

    @Test("with nothing outstanding a reconnect sends nothing but reports connected")
    func nothingToResend() throws {
        var session = try T.connected()
        #expect(T.reconnect(&session, at: 5) == [.connected(sessionPresent: false)])
        #expect(session.nextDeadline == T.at(65))
    }

    @Test("with a clean session, inbound QoS 2 state is forgotten on reconnect")
    func cleanSessionForgetsInbound() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", cleanSession: true))
        let message = MQTTPublish(topic: "a", payload: [], qos: .exactlyOnce, packetID: 9)
        #expect(session.received(.publish(message), now: T.at(1)).count == 2)
        _ = T.reconnect(&session, at: 2)
        #expect(
            session.received(.publish(message), now: T.at(3)) == [.deliver(message), .send(.pubRec(9))])
    }

    @Test("with a stored session, a resent inbound QoS 2 PUBLISH is not delivered again")
    func persistentSessionKeepsInbound() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", cleanSession: false))
        let message = MQTTPublish(topic: "a", payload: [], qos: .exactlyOnce, packetID: 9)
        _ = session.received(.publish(message), now: T.at(1))
        _ = T.reconnect(&session, at: 2, sessionPresent: true)
        var duplicate = message
        duplicate.dup = true
        #expect(session.received(.publish(duplicate), now: T.at(3)) == [.send(.pubRec(9))])
        #expect(session.received(.pubRel(9), now: T.at(4)) == [.send(.pubComp(9))])
    }

    @Test("a stored session the server lost (session present 0) forgets inbound QoS 2 state")
    func lostServerSessionForgetsInbound() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", cleanSession: false))
        let message = MQTTPublish(topic: "a", payload: [], qos: .exactlyOnce, packetID: 9)
        _ = session.received(.publish(message), now: T.at(1))
        _ = T.reconnect(&session, at: 2, sessionPresent: false)
        #expect(
            session.received(.publish(message), now: T.at(3)) == [.deliver(message), .send(.pubRec(9))])
    }

    @Test("abandonOutstanding returns the pending ids in order and frees them")
    func abandon() throws {
        var session = try T.connected()
        var ids: [UInt16] = []
        for index in 0..<5 {
            ids.append(
                try #require(
                    try session.publish(topic: "t\(index)", payload: [], qos: .atLeastOnce, now: T.at(1)).id))
        }
        _ = session.received(.pubAck(ids[2]), now: T.at(2))
        session.connectionClosed()
        #expect(session.abandonOutstanding() == [ids[0], ids[1], ids[3], ids[4]])
        #expect(session.inFlightCount == 0)
        #expect(T.reconnect(&session, at: 3) == [.connected(sessionPresent: false)])
    }
}
