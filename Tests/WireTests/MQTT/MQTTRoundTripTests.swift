import TestSupport
import Testing
import Wire

@Suite("MQTT round trips", .cpuBound)
struct MQTTRoundTripTests {
    static let packets: [MQTTPacket] = [
        .connect(MQTTConnect(clientID: "", cleanSession: true, keepAlive: 0)),
        .connect(
            MQTTConnect(
                clientID: "client-ü", cleanSession: false, keepAlive: 65535,
                will: MQTTWill(topic: "tv2mqtt/bridge/state", payload: [], qos: .exactlyOnce, retain: false),
                username: "user", password: [])),
        .connect(MQTTConnect(clientID: "x", username: "only-user")),
        .connAck(MQTTConnAck(sessionPresent: false, returnCode: .badUserNameOrPassword)),
        .publish(MQTTPublish(topic: "$SYS/x", payload: Array(repeating: 0xFF, count: 300), qos: .atMostOnce)),
        .publish(MQTTPublish(topic: "/", payload: [0], qos: .exactlyOnce, retain: true, dup: true, packetID: 65535)),
        .publish(
            MQTTPublish(topic: "日本/テレビ", payload: Array("{\"power\":\"ON\"}".utf8), qos: .atLeastOnce, packetID: 1)),
        .subscribe(
            MQTTSubscribe(packetID: 9, subscriptions: [MQTTSubscription(filter: "tv2mqtt/+/set/#", qos: .atLeastOnce)])),
        .subAck(MQTTSubAck(packetID: 9, returnCodes: [.granted(.atMostOnce), .granted(.exactlyOnce)])),
        .unsubscribe(MQTTUnsubscribe(packetID: 3, filters: ["a", "+/b", "#"])),
        .pubRel(65535), .pingResp, .disconnect,
    ]

    @Test("encode then decode returns the same packet", arguments: packets)
    func roundTrip(packet: MQTTPacket) throws {
        let bytes = try packet.encoded()
        #expect(bytes.count == (try packet.encodedSize()))
        #expect(try MQTTTestSupport.decodeOne(bytes) == packet)
    }
}
