import TestSupport
import Testing
import Wire

@Suite("MQTT CONNECT and CONNACK", .cpuBound)
struct MQTTConnectTests {
    /// The minimal CONNECT of the golden suite with its flags byte (offset 9) replaced.
    static func connect(flags: UInt8, tail: [UInt8] = []) -> [UInt8] {
        let body: [UInt8] = [0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, flags, 0x00, 0x3C, 0x00, 0x01, 0x61] + tail
        return [0x10, UInt8(body.count)] + body
    }

    @Test("a well-formed CONNECT decodes")
    func baseline() throws {
        #expect(try MQTTTestSupport.decodeOne(Self.connect(flags: 0x02)) == .connect(MQTTConnect(clientID: "a")))
    }

    static let badFlags: [(UInt8, String)] = [
        (0x03, "reserved bit 0 set [MQTT-3.1.2-3]"),
        (0x0A, "will QoS without the will flag [MQTT-3.1.2-13]"),
        (0x22, "will retain without the will flag [MQTT-3.1.2-15]"),
        (0x1E, "will QoS 3 [MQTT-3.1.2-14]"),
        (0x42, "password without user name [MQTT-3.1.2-22]"),
        (0x00, "empty client id needs clean session"),
    ]

    @Test("inconsistent connect flags are malformed", arguments: badFlags)
    func badConnectFlags(flags: UInt8, why: String) {
        // The flag checks come before the fields they describe are read; the 0x00 case uses
        // an empty client id so that only the clean-session rule is broken.
        var bytes = Self.connect(flags: flags)
        if flags == 0x00 {
            bytes = [0x10, 0x0C, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0x00, 0x00, 0x3C, 0x00, 0x00]
        }
        let kind = MQTTTestSupport.errorKind { () throws(WireError) in _ = try MQTTTestSupport.decodeAll(bytes) }
        #expect(kind == .malformed, "\(why)")
    }

    @Test("another protocol level or name is unsupported")
    func otherProtocols() {
        var level3 = Self.connect(flags: 0x02)
        level3[8] = 0x03
        let level3Error = MQTTTestSupport.errorKind { () throws(WireError) in
            _ = try MQTTTestSupport.decodeAll(level3)
        }
        #expect(level3Error == .unsupported)

        // MQTT 3.1: "MQIsdp", level 3.
        let body: [UInt8] = [0x00, 0x06] + Array("MQIsdp".utf8) + [0x03, 0x02, 0x00, 0x3C, 0x00, 0x01, 0x61]
        let mqisdp: [UInt8] = [0x10, UInt8(body.count)] + body
        let mqisdpError = MQTTTestSupport.errorKind { () throws(WireError) in
            _ = try MQTTTestSupport.decodeAll(mqisdp)
        }
        #expect(mqisdpError == .unsupported)
    }

    @Test("CONNECT with trailing bytes or missing fields is malformed")
    func trailingAndMissing() {
        let trailing = Self.connect(flags: 0x02, tail: [0x00])
        let trailingError = MQTTTestSupport.errorKind { () throws(WireError) in
            _ = try MQTTTestSupport.decodeAll(trailing)
        }
        #expect(trailingError == .malformed)
        // User name flag set but no user name follows.
        let missing = Self.connect(flags: 0x82)
        let missingError = MQTTTestSupport.errorKind { () throws(WireError) in
            _ = try MQTTTestSupport.decodeAll(missing)
        }
        #expect(missingError == .malformed)
    }

    @Test("a user name with invalid UTF-8 is malformed")
    func invalidUserName() {
        let bytes = Self.connect(flags: 0x82, tail: [0x00, 0x02, 0xC3, 0x28])
        let userNameError = MQTTTestSupport.errorKind { () throws(WireError) in
            _ = try MQTTTestSupport.decodeAll(bytes)
        }
        #expect(userNameError == .malformed)
    }

    static let descriptions: [(MQTTConnectReturnCode, UInt8, String)] = [
        (.accepted, 0, "connection accepted"),
        (.unacceptableProtocolVersion, 1, "unacceptable protocol version"),
        (.identifierRejected, 2, "identifier rejected"),
        (.serverUnavailable, 3, "server unavailable"),
        (.badUserNameOrPassword, 4, "bad user name or password"),
        (.notAuthorized, 5, "not authorized"),
    ]

    @Test("each CONNACK return code decodes and describes itself in the spec's words", arguments: descriptions)
    func returnCodeDescription(code: MQTTConnectReturnCode, byte: UInt8, text: String) throws {
        #expect(code.rawValue == byte)
        #expect(code.description == text)
        let decoded = try MQTTTestSupport.decodeOne([0x20, 0x02, 0x00, byte])
        #expect(decoded == .connAck(MQTTConnAck(sessionPresent: false, returnCode: code)))
    }

    @Test("return codes 6 through 255 are refused, never trapped")
    func unknownReturnCodes() {
        for byte in UInt8(6)...UInt8(255) {
            let kind = MQTTTestSupport.errorKind { () throws(WireError) in
                _ = try MQTTPacket.decode(header: 0x20, body: [0x00, byte][...])
            }
            #expect(kind == .malformed)
        }
    }
}
