import TestSupport
import Testing
import Wire

@Suite("MQTT malformed input", .cpuBound)
struct MQTTMalformedTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var kind: WireError.Kind = .malformed
        var testDescription: String { name }
    }

    /// Fixed-header bytes whose flags break §2.2.2 or §3.3.1, or whose type is reserved.
    static let badHeaders: [UInt8] = [
        0x00, 0xF0,  // reserved types 0 and 15
        0x11, 0x18,  // CONNECT
        0x21,  // CONNACK
        0x36, 0x37, 0x38, 0x39,  // PUBLISH QoS 3, DUP with QoS 0
        0x41, 0x48,  // PUBACK
        0x52,  // PUBREC
        0x60, 0x63, 0x6A,  // PUBREL must be 0010
        0x72,  // PUBCOMP
        0x80, 0x83,  // SUBSCRIBE must be 0010
        0x92,  // SUBACK
        0xA0, 0xA3,  // UNSUBSCRIBE must be 0010
        0xB2,  // UNSUBACK
        0xC1, 0xD4, 0xE8,  // PINGREQ, PINGRESP, DISCONNECT
    ]

    @Test("bad fixed-header flags are refused on the first byte", arguments: badHeaders)
    func badFlagsRefusedEarly(header: UInt8) {
        var decoder = MQTTFrameDecoder()
        decoder.append([header])
        let error = #expect(throws: WireError.self) { try decoder.next() }
        #expect(error?.kind == .malformed)
        #expect(throws: WireError.self) { try MQTTPacket.decode(header: header, body: [0x00, 0x01][...]) }
    }

    static let cases: [Case] = [
        // Fixed lengths.
        Case(name: "PUBACK with 3 bytes", bytes: [0x40, 0x03, 0x00, 0x01, 0x00]),
        Case(name: "PUBREL with 1 byte", bytes: [0x62, 0x01, 0x00]),
        Case(name: "UNSUBACK with 0 bytes", bytes: [0xB0, 0x00]),
        Case(name: "PINGREQ with a body", bytes: [0xC0, 0x01, 0x00]),
        Case(name: "PINGRESP with a body", bytes: [0xD0, 0x01, 0x00]),
        Case(name: "DISCONNECT with a body", bytes: [0xE0, 0x02, 0x00, 0x00]),
        Case(name: "CONNACK with 3 bytes", bytes: [0x20, 0x03, 0x00, 0x00, 0x00]),
        // CONNACK contents.
        Case(name: "CONNACK reserved acknowledge flag", bytes: [0x20, 0x02, 0x02, 0x00]),
        Case(name: "CONNACK return code 6", bytes: [0x20, 0x02, 0x00, 0x06]),
        Case(name: "CONNACK return code 255", bytes: [0x20, 0x02, 0x00, 0xFF]),
        Case(name: "CONNACK session present with a refusal", bytes: [0x20, 0x02, 0x01, 0x05]),
        // Packet identifiers.
        Case(name: "PUBACK packet id 0", bytes: [0x40, 0x02, 0x00, 0x00]),
        Case(name: "PUBCOMP packet id 0", bytes: [0x70, 0x02, 0x00, 0x00]),
        Case(name: "PUBLISH QoS 1 packet id 0", bytes: [0x32, 0x05, 0x00, 0x01, 0x74, 0x00, 0x00]),
        Case(name: "PUBLISH QoS 2 without a packet id", bytes: [0x34, 0x03, 0x00, 0x01, 0x74]),
        Case(name: "SUBSCRIBE packet id 0", bytes: [0x82, 0x06, 0x00, 0x00, 0x00, 0x01, 0x23, 0x00]),
        Case(name: "SUBACK packet id 0", bytes: [0x90, 0x03, 0x00, 0x00, 0x00]),
        Case(name: "UNSUBSCRIBE packet id 0", bytes: [0xA2, 0x05, 0x00, 0x00, 0x00, 0x01, 0x23]),
        // PUBLISH topics.
        Case(name: "PUBLISH empty topic", bytes: [0x30, 0x02, 0x00, 0x00]),
        Case(name: "PUBLISH topic with '#'", bytes: [0x30, 0x03, 0x00, 0x01, 0x23]),
        Case(name: "PUBLISH topic with '+'", bytes: [0x30, 0x05, 0x00, 0x03, 0x61, 0x2F, 0x2B]),
        Case(name: "PUBLISH topic with U+0000", bytes: [0x30, 0x05, 0x00, 0x03, 0x61, 0x00, 0x62]),
        Case(name: "PUBLISH topic with byte 0xFF", bytes: [0x30, 0x03, 0x00, 0x01, 0xFF]),
        Case(name: "PUBLISH topic with overlong '/' (C0 AF)", bytes: [0x30, 0x04, 0x00, 0x02, 0xC0, 0xAF]),
        Case(name: "PUBLISH topic with a surrogate (ED A0 80)", bytes: [0x30, 0x05, 0x00, 0x03, 0xED, 0xA0, 0x80]),
        Case(name: "PUBLISH topic cut inside a character", bytes: [0x30, 0x04, 0x00, 0x02, 0xE2, 0x82]),
        Case(name: "PUBLISH topic longer than the packet", bytes: [0x30, 0x03, 0x00, 0x05, 0x61]),
        Case(name: "PUBLISH with one byte of topic length", bytes: [0x30, 0x01, 0x00]),
        // SUBSCRIBE and UNSUBSCRIBE.
        Case(name: "SUBSCRIBE with no filter", bytes: [0x82, 0x02, 0x00, 0x01]),
        Case(name: "SUBSCRIBE requested QoS 3", bytes: [0x82, 0x06, 0x00, 0x01, 0x00, 0x01, 0x23, 0x03]),
        Case(name: "SUBSCRIBE reserved option bits", bytes: [0x82, 0x06, 0x00, 0x01, 0x00, 0x01, 0x23, 0x04]),
        Case(name: "SUBSCRIBE without its QoS byte", bytes: [0x82, 0x05, 0x00, 0x01, 0x00, 0x01, 0x23]),
        Case(name: "SUBSCRIBE filter 'a#'", bytes: [0x82, 0x07, 0x00, 0x01, 0x00, 0x02, 0x61, 0x23, 0x00]),
        Case(name: "SUBSCRIBE empty filter", bytes: [0x82, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00]),
        Case(name: "SUBSCRIBE filter with invalid UTF-8", bytes: [0x82, 0x06, 0x00, 0x01, 0x00, 0x01, 0x80, 0x00]),
        Case(name: "UNSUBSCRIBE with no filter", bytes: [0xA2, 0x02, 0x00, 0x01]),
        Case(name: "UNSUBSCRIBE filter '#/a'", bytes: [0xA2, 0x07, 0x00, 0x01, 0x00, 0x03, 0x23, 0x2F, 0x61]),
        Case(name: "SUBACK with no return code", bytes: [0x90, 0x02, 0x00, 0x01]),
        Case(name: "SUBACK return code 3", bytes: [0x90, 0x03, 0x00, 0x01, 0x03]),
        Case(name: "SUBACK return code 0x81", bytes: [0x90, 0x03, 0x00, 0x01, 0x81]),
    ]

    @Test("malformed packets are refused", arguments: cases)
    func malformedRefused(testCase: Case) {
        let kind = MQTTTestSupport.errorKind { () throws(WireError) in _ = try MQTTTestSupport.decodeAll(testCase.bytes)
        }
        #expect(kind == testCase.kind)
    }

    @Test("a packet that decodes cleanly once its last byte arrives was not refused early")
    func lateFailureOnlyWhenComplete() throws {
        // PUBLISH with a wildcard topic: nothing is wrong until the body is read.
        let bytes: [UInt8] = [0x30, 0x03, 0x00, 0x01, 0x23]
        var decoder = MQTTFrameDecoder()
        decoder.append(bytes.dropLast())
        #expect(try decoder.next() == nil)
        decoder.append(bytes.suffix(1))
        #expect(throws: WireError.self) { try decoder.next() }
    }
}

@Suite("MQTT encoder validation", .cpuBound)
struct MQTTEncoderValidationTests {
    static let invalid: [(name: String, packet: MQTTPacket, kind: WireError.Kind)] = [
        ("PUBLISH to a wildcard topic", .publish(MQTTPublish(topic: "a/+", payload: [])), .malformed),
        ("PUBLISH to an empty topic", .publish(MQTTPublish(topic: "", payload: [])), .malformed),
        ("PUBLISH topic with U+0000", .publish(MQTTPublish(topic: "a\u{0}", payload: [])), .malformed),
        ("PUBLISH QoS 1 without an id", .publish(MQTTPublish(topic: "a", payload: [], qos: .atLeastOnce)), .malformed),
        (
            "PUBLISH QoS 2 with id 0", .publish(MQTTPublish(topic: "a", payload: [], qos: .exactlyOnce, packetID: 0)),
            .malformed
        ),
        ("PUBLISH QoS 0 with an id", .publish(MQTTPublish(topic: "a", payload: [], packetID: 3)), .malformed),
        ("PUBLISH QoS 0 with DUP", .publish(MQTTPublish(topic: "a", payload: [], dup: true)), .malformed),
        (
            "PUBLISH topic of 65536 bytes",
            .publish(MQTTPublish(topic: String(repeating: "a", count: 65_536), payload: [])), .tooLarge
        ),
        ("PUBACK id 0", .pubAck(0), .malformed),
        ("UNSUBACK id 0", .unsubAck(0), .malformed),
        ("SUBSCRIBE with no filter", .subscribe(MQTTSubscribe(packetID: 1, subscriptions: [])), .malformed),
        (
            "SUBSCRIBE id 0", .subscribe(MQTTSubscribe(packetID: 0, subscriptions: [MQTTSubscription(filter: "#")])),
            .malformed
        ),
        (
            "SUBSCRIBE bad filter",
            .subscribe(MQTTSubscribe(packetID: 1, subscriptions: [MQTTSubscription(filter: "a/#/b")])), .malformed
        ),
        ("SUBACK with no code", .subAck(MQTTSubAck(packetID: 1, returnCodes: [])), .malformed),
        ("UNSUBSCRIBE with no filter", .unsubscribe(MQTTUnsubscribe(packetID: 1, filters: [])), .malformed),
        ("UNSUBSCRIBE bad filter", .unsubscribe(MQTTUnsubscribe(packetID: 1, filters: ["+a"])), .malformed),
        (
            "CONNACK refusal with session present",
            .connAck(MQTTConnAck(sessionPresent: true, returnCode: .serverUnavailable)), .malformed
        ),
        (
            "CONNECT empty client id without clean session", .connect(MQTTConnect(clientID: "", cleanSession: false)),
            .malformed
        ),
        ("CONNECT password without user name", .connect(MQTTConnect(clientID: "a", password: [1])), .malformed),
        ("CONNECT client id with U+0000", .connect(MQTTConnect(clientID: "a\u{0}")), .malformed),
        (
            "CONNECT will topic with a wildcard",
            .connect(MQTTConnect(clientID: "a", will: MQTTWill(topic: "#", payload: []))), .malformed
        ),
        (
            "CONNECT user name of 65536 bytes",
            .connect(MQTTConnect(clientID: "a", username: String(repeating: "u", count: 65_536))), .tooLarge
        ),
        (
            "CONNECT password of 65536 bytes",
            .connect(MQTTConnect(clientID: "a", username: "u", password: Array(repeating: 0, count: 65_536))), .tooLarge
        ),
        (
            "CONNECT will message of 65536 bytes",
            .connect(
                MQTTConnect(clientID: "a", will: MQTTWill(topic: "w", payload: Array(repeating: 0, count: 65_536)))),
            .tooLarge
        ),
    ]

    @Test("invalid packets are refused by the encoder and leave the buffer unchanged", arguments: invalid)
    func encoderRefuses(name: String, packet: MQTTPacket, kind: WireError.Kind) {
        var buffer: [UInt8] = [0x01]
        let error = #expect(throws: WireError.self) { try packet.encode(into: &buffer) }
        #expect(error?.kind == kind)
        #expect(buffer == [0x01])
        #expect(throws: WireError.self) { try packet.encodedSize() }
    }

    @Test("a string of exactly 65535 bytes is accepted")
    func maximumString() throws {
        let topic = String(repeating: "a", count: 65_535)
        let packet = MQTTPacket.publish(MQTTPublish(topic: topic, payload: []))
        let bytes = try packet.encoded()
        #expect(Array(bytes.prefix(6)) == [0x30, 0x81, 0x80, 0x04, 0xFF, 0xFF])
        #expect(try MQTTTestSupport.decodeOne(bytes) == packet)
    }
}
