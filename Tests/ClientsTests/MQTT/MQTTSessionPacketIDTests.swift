import Clients
import TestSupport
import Testing
import Wire

@Suite("MQTT session: packet identifiers", .cpuBound)
struct MQTTSessionPacketIDTests {
    typealias T = MQTTSessionTestSupport

    @Test(
        "ids count up from 1, are shared by publish, subscribe and unsubscribe, and never repeat while in use"
    )
    func idsCountUp() throws {
        var session = try T.connected()
        #expect(try session.publish(topic: "a", payload: [], qos: .atLeastOnce, now: T.at(1)).id == 1)
        #expect(try session.subscribe([MQTTSubscription(filter: "a")], now: T.at(1)).id == 2)
        #expect(try session.unsubscribe(["a"], now: T.at(1)).id == 3)
        #expect(try session.publish(topic: "a", payload: [], qos: .exactlyOnce, now: T.at(1)).id == 4)
        // QoS 0 takes no id.
        #expect(try session.publish(topic: "a", payload: [], now: T.at(1)).id == nil)
        #expect(try session.publish(topic: "a", payload: [], qos: .atLeastOnce, now: T.at(1)).id == 5)
    }

    @Test("ids wrap from 65535 to 1, skip ids still in use, and run out at 65535 in flight")
    func wrapAroundAndSkip() throws {
        var session = try T.connected()
        // Hold id 1 and 2, then cycle the counter to the top of the range.
        #expect(
            try session.publish(topic: "held", payload: [], qos: .atLeastOnce, now: T.at(1)).id == 1)
        #expect(
            try session.publish(topic: "held", payload: [], qos: .atLeastOnce, now: T.at(1)).id == 2)
        for expected in UInt16(3)...UInt16.max {
            let id = try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(1)).id
            #expect(id == expected)
            _ = session.received(.pubAck(expected), now: T.at(1))
        }
        // 1 and 2 are still in flight: the next id after 65535 is 3.
        #expect(try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(2)).id == 3)
        _ = session.received(.pubAck(1), now: T.at(2))
        // Freed 1 is not reused until the counter comes round again.
        #expect(try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(2)).id == 4)
    }

    @Test("with every id in flight the session refuses, and frees one on its acknowledgement")
    func exhaustion() throws {
        var session = try T.connected()
        for _ in 1...Int(UInt16.max) {
            _ = try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(1))
        }
        #expect(session.inFlightCount == 65_535)
        #expect(throws: MQTTSessionError.packetIDsExhausted) {
            try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(1))
        }
        #expect(throws: MQTTSessionError.packetIDsExhausted) {
            try session.subscribe([MQTTSubscription(filter: "a")], now: T.at(1))
        }
        // QoS 0 needs no id and still goes out.
        #expect(try session.publish(topic: "t", payload: [], now: T.at(1)).actions.count == 1)
        #expect(session.received(.pubAck(40_000), now: T.at(2)) == [.publishCompleted(40_000)])
        #expect(
            try session.publish(topic: "t", payload: [], qos: .atLeastOnce, now: T.at(2)).id == 40_000)
    }

    @Test("50,000 pipelined QoS 1 publishes complete in any ack order without slowing down")
    func manyInFlight() throws {
        var session = try T.connected()
        let payload = Array(repeating: UInt8(0x42), count: 64)
        var ids: [UInt16] = []
        ids.reserveCapacity(50_000)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<50_000 {
                ids.append(
                    try #require(
                        try session.publish(topic: "bench/x", payload: payload, qos: .atLeastOnce, now: T.at(1))
                            .id))
            }
            #expect(session.inFlightCount == 50_000)
            // Acknowledge odd positions first, then even ones.
            for index in stride(from: 1, to: ids.count, by: 2) {
                #expect(
                    session.received(.pubAck(ids[index]), now: T.at(2)) == [.publishCompleted(ids[index])])
            }
            for index in stride(from: 0, to: ids.count, by: 2) {
                #expect(
                    session.received(.pubAck(ids[index]), now: T.at(2)) == [.publishCompleted(ids[index])])
            }
        }
        #expect(session.inFlightCount == 0)
        #expect(Set(ids).count == 50_000)
        // A bound against a quadratic blow-up, not a latency: an O(n) scan per packet would take
        // minutes; generous for a debug build on a shared machine.
        #expect(elapsed < .seconds(60))
    }
}
