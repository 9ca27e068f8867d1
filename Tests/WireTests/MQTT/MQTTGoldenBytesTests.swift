import TestSupport
import Testing
import Wire

/// Expected bytes are written out by hand from the spec's figures, not produced by the encoder.
@Suite("MQTT golden bytes", .cpuBound)
struct MQTTGoldenBytesTests {
    struct Golden: CustomTestStringConvertible, Sendable {
        let name: String
        let packet: MQTTPacket
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let goldens: [Golden] = [
        Golden(
            name: "CONNECT minimal (§3.1, clean session, keep alive 60)",
            packet: .connect(MQTTConnect(clientID: "a", cleanSession: true, keepAlive: 60)),
            bytes: [0x10, 0x0D, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x3C, 0x00, 0x01, 0x61]),
        Golden(
            name: "CONNECT with will, user name and password (flags 0xEC)",
            packet: .connect(
                MQTTConnect(
                    clientID: "tv2mqtt", cleanSession: false, keepAlive: 15,
                    will: MQTTWill(topic: "s", payload: Array("off".utf8), qos: .atLeastOnce, retain: true),
                    username: "u", password: [0x70])),
            bytes: [
                0x10, 0x21, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0xEC, 0x00, 0x0F,
                0x00, 0x07, 0x74, 0x76, 0x32, 0x6D, 0x71, 0x74, 0x74,
                0x00, 0x01, 0x73, 0x00, 0x03, 0x6F, 0x66, 0x66,
                0x00, 0x01, 0x75, 0x00, 0x01, 0x70,
            ]),
        Golden(
            name: "CONNACK accepted with session present",
            packet: .connAck(MQTTConnAck(sessionPresent: true, returnCode: .accepted)),
            bytes: [0x20, 0x02, 0x01, 0x00]),
        Golden(
            name: "CONNACK not authorized",
            packet: .connAck(MQTTConnAck(sessionPresent: false, returnCode: .notAuthorized)),
            bytes: [0x20, 0x02, 0x00, 0x05]),
        Golden(
            name: "PUBLISH QoS 0",
            packet: .publish(MQTTPublish(topic: "a/b", payload: Array("hi".utf8))),
            bytes: [0x30, 0x07, 0x00, 0x03, 0x61, 0x2F, 0x62, 0x68, 0x69]),
        Golden(
            name: "PUBLISH QoS 1 with DUP and RETAIN",
            packet: .publish(
                MQTTPublish(topic: "t", payload: [0x01], qos: .atLeastOnce, retain: true, dup: true, packetID: 0x1234)),
            bytes: [0x3B, 0x06, 0x00, 0x01, 0x74, 0x12, 0x34, 0x01]),
        Golden(
            name: "PUBLISH QoS 2 with empty payload",
            packet: .publish(MQTTPublish(topic: "t", payload: [], qos: .exactlyOnce, packetID: 7)),
            bytes: [0x34, 0x05, 0x00, 0x01, 0x74, 0x00, 0x07]),
        Golden(name: "PUBACK", packet: .pubAck(10), bytes: [0x40, 0x02, 0x00, 0x0A]),
        Golden(name: "PUBREC", packet: .pubRec(10), bytes: [0x50, 0x02, 0x00, 0x0A]),
        Golden(name: "PUBREL (flags 0010)", packet: .pubRel(10), bytes: [0x62, 0x02, 0x00, 0x0A]),
        Golden(name: "PUBCOMP", packet: .pubComp(0xFFFF), bytes: [0x70, 0x02, 0xFF, 0xFF]),
        Golden(
            name: "SUBSCRIBE two filters (flags 0010)",
            packet: .subscribe(
                MQTTSubscribe(
                    packetID: 1,
                    subscriptions: [
                        MQTTSubscription(filter: "a/+", qos: .atLeastOnce),
                        MQTTSubscription(filter: "#", qos: .exactlyOnce),
                    ])),
            bytes: [0x82, 0x0C, 0x00, 0x01, 0x00, 0x03, 0x61, 0x2F, 0x2B, 0x01, 0x00, 0x01, 0x23, 0x02]),
        Golden(
            name: "SUBACK granted QoS 1 and failure",
            packet: .subAck(MQTTSubAck(packetID: 1, returnCodes: [.granted(.atLeastOnce), .failure])),
            bytes: [0x90, 0x04, 0x00, 0x01, 0x01, 0x80]),
        Golden(
            name: "UNSUBSCRIBE (flags 0010)",
            packet: .unsubscribe(MQTTUnsubscribe(packetID: 2, filters: ["a/#"])),
            bytes: [0xA2, 0x07, 0x00, 0x02, 0x00, 0x03, 0x61, 0x2F, 0x23]),
        Golden(name: "UNSUBACK", packet: .unsubAck(2), bytes: [0xB0, 0x02, 0x00, 0x02]),
        Golden(name: "PINGREQ", packet: .pingReq, bytes: [0xC0, 0x00]),
        Golden(name: "PINGRESP", packet: .pingResp, bytes: [0xD0, 0x00]),
        Golden(name: "DISCONNECT", packet: .disconnect, bytes: [0xE0, 0x00]),
    ]

    @Test("each packet encodes to the spec's bytes", arguments: goldens)
    func encodesToGoldenBytes(golden: Golden) throws {
        #expect(try golden.packet.encoded() == golden.bytes)
        #expect(try golden.packet.encodedSize() == golden.bytes.count)
    }

    @Test("the spec's bytes decode to each packet", arguments: goldens)
    func decodesGoldenBytes(golden: Golden) throws {
        #expect(try MQTTTestSupport.decodeOne(golden.bytes) == golden.packet)
        let body = golden.bytes[2...]
        #expect(try MQTTPacket.decode(header: golden.bytes[0], body: body) == golden.packet)
    }

    @Test("all fourteen packet types are covered")
    func everyTypeCovered() {
        let types = Set(Self.goldens.map { $0.bytes[0] >> 4 })
        #expect(types == Set(1...14))
    }

    @Test("encode(into:) appends after existing bytes")
    func encodeAppends() throws {
        var buffer: [UInt8] = [0xAA]
        try MQTTPacket.pingReq.encode(into: &buffer)
        try MQTTPacket.pubAck(1).encode(into: &buffer)
        #expect(buffer == [0xAA, 0xC0, 0x00, 0x40, 0x02, 0x00, 0x01])
    }

    @Test("type names follow the spec")
    func typeNames() {
        #expect(MQTTPacket.pubRel(1).typeName == "PUBREL")
        #expect(MQTTPacket.connAck(MQTTConnAck()).typeName == "CONNACK")
    }
}
