import Clients
import TestSupport
import Testing
import Wire

@Suite("MQTT session: publishing and delivery", .cpuBound)
struct MQTTSessionPublishTests {
    typealias T = MQTTSessionTestSupport

    // MARK: Outbound

    @Test("QoS 0 publish is sent once with no id and nothing kept")
    func outboundQoS0() throws {
        var session = try T.connected()
        let (id, actions) = try session.publish(
            topic: "a/b", payload: [1, 2], retain: true, now: T.at(1))
        #expect(id == nil)
        #expect(actions == [.send(.publish(MQTTPublish(topic: "a/b", payload: [1, 2], retain: true)))])
        #expect(session.inFlightCount == 0)
    }

    @Test("QoS 1 publish is kept until PUBACK, then completed")
    func outboundQoS1() throws {
        var session = try T.connected()
        let (id, actions) = try session.publish(
            topic: "t", payload: [9], qos: .atLeastOnce, now: T.at(1))
        let packetID = try #require(id)
        #expect(packetID == 1)
        #expect(
            actions == [
                .send(.publish(MQTTPublish(topic: "t", payload: [9], qos: .atLeastOnce, packetID: 1)))
            ])
        #expect(session.inFlightCount == 1)
        #expect(session.received(.pubAck(packetID), now: T.at(2)) == [.publishCompleted(packetID)])
        #expect(session.inFlightCount == 0)
        // A duplicate PUBACK is ignored.
        #expect(session.received(.pubAck(packetID), now: T.at(3)).isEmpty)
    }

    @Test("QoS 2 publish runs PUBLISH, PUBREC, PUBREL, PUBCOMP")
    func outboundQoS2() throws {
        var session = try T.connected()
        let (id, _) = try session.publish(topic: "t", payload: [], qos: .exactlyOnce, now: T.at(1))
        let packetID = try #require(id)
        // PUBCOMP before PUBREC is out of order and ignored; it must not complete the publish.
        #expect(session.received(.pubComp(packetID), now: T.at(1.5)).isEmpty)
        #expect(session.received(.pubRec(packetID), now: T.at(2)) == [.send(.pubRel(packetID))])
        // A repeated PUBREC (our PUBREL may have been lost) gets PUBREL again.
        #expect(session.received(.pubRec(packetID), now: T.at(2.5)) == [.send(.pubRel(packetID))])
        #expect(session.inFlightCount == 1)
        #expect(session.received(.pubComp(packetID), now: T.at(3)) == [.publishCompleted(packetID)])
        #expect(session.inFlightCount == 0)
        #expect(session.received(.pubComp(packetID), now: T.at(4)).isEmpty)
    }

    @Test("an acknowledgement of the wrong kind frees nothing")
    func wrongKindAcksIgnored() throws {
        var session = try T.connected()
        let qos1 = try #require(
            try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(1)).id)
        let qos2 = try #require(
            try session.publish(topic: "t", payload: [], qos: .exactlyOnce, now: T.at(1)).id)
        let (sub, _) = try session.subscribe([MQTTSubscription(filter: "a")], now: T.at(1))
        let (unsub, _) = try session.unsubscribe(["a"], now: T.at(1))
        #expect(session.inFlightCount == 4)
        let wrong: [MQTTPacket] = [
            .pubRec(qos1), .pubComp(qos1), .subAck(MQTTSubAck(packetID: qos1, returnCodes: [.failure])),
            .unsubAck(qos1),
            .pubAck(qos2), .pubComp(qos2), .unsubAck(qos2),
            .pubAck(sub), .pubRec(sub), .pubComp(sub), .unsubAck(sub),
            .pubAck(unsub), .pubRec(unsub), .subAck(MQTTSubAck(packetID: unsub, returnCodes: [.failure])),
            .pubAck(999), .pubRec(999), .pubComp(999), .unsubAck(999), .pingResp,
        ]
        for packet in wrong {
            #expect(session.received(packet, now: T.at(2)).isEmpty, "\(packet)")
        }
        #expect(session.inFlightCount == 4)
        #expect(session.isConnected)
    }

    @Test("an invalid topic is refused before an id is taken")
    func invalidTopicRefused() throws {
        var session = try T.connected()
        let error = #expect(throws: MQTTSessionError.self) {
            try session.publish(topic: "a/+", payload: [], qos: .atLeastOnce, now: T.at(1))
        }
        #expect(error?.wireError?.kind == .malformed)
        #expect(throws: MQTTSessionError.self) {
            try session.publish(topic: "", payload: [], now: T.at(1))
        }
        #expect(throws: MQTTSessionError.self) { try session.subscribe([], now: T.at(1)) }
        #expect(throws: MQTTSessionError.self) {
            try session.subscribe([MQTTSubscription(filter: "a#")], now: T.at(1))
        }
        #expect(throws: MQTTSessionError.self) { try session.unsubscribe(["#/a"], now: T.at(1)) }
        #expect(session.inFlightCount == 0)
        #expect(try session.publish(topic: "a", payload: [], qos: .atLeastOnce, now: T.at(1)).id == 1)
    }

    // MARK: Subscriptions

    @Test("SUBACK completes a subscribe with its return codes")
    func subscribeCompleted() throws {
        var session = try T.connected()
        let subscriptions = [
            MQTTSubscription(filter: "a/+", qos: .atLeastOnce),
            MQTTSubscription(filter: "b", qos: .exactlyOnce),
        ]
        let (id, actions) = try session.subscribe(subscriptions, now: T.at(1))
        #expect(
            actions == [.send(.subscribe(MQTTSubscribe(packetID: id, subscriptions: subscriptions)))])
        let codes: [MQTTSubAckReturnCode] = [.granted(.atLeastOnce), .failure]
        #expect(
            session.received(.subAck(MQTTSubAck(packetID: id, returnCodes: codes)), now: T.at(2)) == [
                .subscribeCompleted(id, codes)
            ])
        #expect(session.inFlightCount == 0)
    }

    @Test("a SUBACK with the wrong number of return codes is a protocol violation")
    func subAckCountMismatch() throws {
        var session = try T.connected()
        let (id, _) = try session.subscribe(
            [MQTTSubscription(filter: "a"), MQTTSubscription(filter: "b")], now: T.at(1))
        let actions = session.received(
            .subAck(MQTTSubAck(packetID: id, returnCodes: [.failure])), now: T.at(2))
        guard case .closeConnection(.protocolViolation(let reason))? = actions.first else {
            Issue.record("expected a protocol violation, got \(actions)")
            return
        }
        #expect(reason.contains("MQTT-3.9.3-1"))
    }

    @Test("UNSUBACK completes an unsubscribe")
    func unsubscribeCompleted() throws {
        var session = try T.connected()
        let (id, actions) = try session.unsubscribe(["a/#", "b"], now: T.at(1))
        #expect(actions == [.send(.unsubscribe(MQTTUnsubscribe(packetID: id, filters: ["a/#", "b"])))])
        #expect(session.received(.unsubAck(id), now: T.at(2)) == [.unsubscribeCompleted(id)])
        #expect(session.received(.unsubAck(id), now: T.at(3)).isEmpty)
    }

    // MARK: Inbound

    @Test("inbound QoS 0 is delivered with no answer")
    func inboundQoS0() throws {
        var session = try T.connected()
        let message = MQTTPublish(topic: "tv2mqtt/x/set/power", payload: Array("ON".utf8))
        #expect(session.received(.publish(message), now: T.at(1)) == [.deliver(message)])
    }

    @Test("inbound QoS 1 is delivered and acknowledged, duplicates too (at least once)")
    func inboundQoS1() throws {
        var session = try T.connected()
        let message = MQTTPublish(topic: "a", payload: [1], qos: .atLeastOnce, packetID: 77)
        #expect(
            session.received(.publish(message), now: T.at(1)) == [.deliver(message), .send(.pubAck(77))])
        var duplicate = message
        duplicate.dup = true
        #expect(
            session.received(.publish(duplicate), now: T.at(2)) == [
                .deliver(duplicate), .send(.pubAck(77)),
            ])
    }

    @Test("inbound QoS 2 is delivered once however often it is resent before PUBREL")
    func inboundQoS2DeliveredOnce() throws {
        var session = try T.connected()
        let message = MQTTPublish(topic: "a", payload: [1], qos: .exactlyOnce, packetID: 5)
        #expect(
            session.received(.publish(message), now: T.at(1)) == [.deliver(message), .send(.pubRec(5))])
        var duplicate = message
        duplicate.dup = true
        #expect(session.received(.publish(duplicate), now: T.at(2)) == [.send(.pubRec(5))])
        #expect(session.received(.publish(message), now: T.at(2.5)) == [.send(.pubRec(5))])
        #expect(session.received(.pubRel(5), now: T.at(3)) == [.send(.pubComp(5))])
        // After PUBREL the id is free: the same id is a new message (§4.3.3).
        #expect(
            session.received(.publish(message), now: T.at(4)) == [.deliver(message), .send(.pubRec(5))])
    }

    @Test("PUBREL for an unknown id still gets PUBCOMP")
    func unknownPubRel() throws {
        var session = try T.connected()
        #expect(session.received(.pubRel(321), now: T.at(1)) == [.send(.pubComp(321))])
    }

    @Test("a QoS 1 PUBLISH built without an id is a protocol violation, not a trap")
    func inboundMissingID() throws {
        var session = try T.connected()
        let actions = session.received(
            .publish(MQTTPublish(topic: "a", payload: [], qos: .atLeastOnce)), now: T.at(1))
        #expect(actions.count == 1)
        #expect(!session.isConnected)
    }
}
