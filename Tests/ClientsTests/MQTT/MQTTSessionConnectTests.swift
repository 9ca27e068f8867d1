import Clients
import TestSupport
import Testing
import Wire

@Suite("MQTT session: connecting", .cpuBound)
struct MQTTSessionConnectTests {
    typealias T = MQTTSessionTestSupport

    @Test("connectionOpened sends a CONNECT with the configured flags, byte for byte")
    func connectBytes() throws {
        let configuration = MQTTSessionConfiguration(
            clientID: "tv2mqtt_test", keepAlive: 60,
            will: MQTTWill(
                topic: "tv2mqtt/bridge/state", payload: Array("offline".utf8), qos: .atLeastOnce,
                retain: true),
            username: "u", password: Array("p".utf8))
        var session = try MQTTSession(configuration: configuration)
        let actions = session.connectionOpened(now: T.at(0))
        #expect(actions.count == 1)
        let packet = try #require(T.sent(actions).first)
        // Flags 0xEE: user name, password, will retain, will QoS 1, will, clean session (§3.1.2.3).
        var expected: [UInt8] = [
            0x10, 0x3D, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0xEE, 0x00, 0x3C,
        ]
        expected += [0x00, 0x0C] + Array("tv2mqtt_test".utf8)
        expected += [0x00, 0x14] + Array("tv2mqtt/bridge/state".utf8)
        expected += [0x00, 0x07] + Array("offline".utf8)
        expected += [0x00, 0x01, 0x75, 0x00, 0x01, 0x70]
        let bytes = try packet.encoded()
        #expect(bytes == expected)

        // A scripted broker decodes the same CONNECT back.
        var decoder = MQTTFrameDecoder()
        decoder.append(bytes)
        #expect(try decoder.next() == .connect(configuration.connectPacket))
        #expect(!session.isConnected)
    }

    @Test("CONNACK accepted reports connected with the session-present flag")
    func connAckAccepted() throws {
        var session = try MQTTSession(
            configuration: MQTTSessionConfiguration(clientID: "c", cleanSession: false))
        _ = session.connectionOpened(now: T.at(0))
        let actions = session.received(.connAck(MQTTConnAck(sessionPresent: true)), now: T.at(0.1))
        #expect(actions == [.connected(sessionPresent: true)])
        #expect(session.isConnected)
    }

    static let refusals: [MQTTConnectReturnCode] = [
        .unacceptableProtocolVersion, .identifierRejected, .serverUnavailable, .badUserNameOrPassword,
        .notAuthorized,
    ]

    @Test("a refused CONNACK reports the code and closes", arguments: refusals)
    func connAckRefused(code: MQTTConnectReturnCode) throws {
        var session = try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "c"))
        _ = session.connectionOpened(now: T.at(0))
        let actions = session.received(.connAck(MQTTConnAck(returnCode: code)), now: T.at(0.1))
        #expect(actions == [.connectRefused(code), .closeConnection(.connectionRefused(code))])
        #expect(!session.isConnected)
        #expect(session.nextDeadline == nil)
        // Whatever else arrives before the socket closes is ignored.
        #expect(session.received(.pingResp, now: T.at(0.2)).isEmpty)
    }

    static let beforeConnAck: [MQTTPacket] = [
        .publish(MQTTPublish(topic: "a", payload: [])), .pubAck(1), .pingResp,
        .subAck(MQTTSubAck(packetID: 1, returnCodes: [.failure])),
        .unsubAck(1), .pubRel(1),
    ]

    @Test("any packet before CONNACK is a protocol violation", arguments: beforeConnAck)
    func packetBeforeConnAck(packet: MQTTPacket) throws {
        var session = try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "c"))
        _ = session.connectionOpened(now: T.at(0))
        let actions = session.received(packet, now: T.at(0.1))
        guard case .closeConnection(.protocolViolation(let reason))? = actions.first, actions.count == 1
        else {
            Issue.record("expected a protocol violation, got \(actions)")
            return
        }
        #expect(reason.contains(packet.typeName))
        #expect(reason.contains("before CONNACK"))
    }

    @Test("a second CONNACK is a protocol violation")
    func secondConnAck() throws {
        var session = try T.connected()
        let actions = session.received(.connAck(MQTTConnAck()), now: T.at(1))
        #expect(actions == [.closeConnection(.protocolViolation("second CONNACK on one connection"))])
        #expect(!session.isConnected)
    }

    static let clientOnly: [MQTTPacket] = [
        .connect(MQTTConnect(clientID: "x")), .pingReq, .disconnect,
        .subscribe(MQTTSubscribe(packetID: 1, subscriptions: [MQTTSubscription(filter: "#")])),
        .unsubscribe(MQTTUnsubscribe(packetID: 1, filters: ["#"])),
    ]

    @Test("a packet only clients send is a protocol violation from the server", arguments: clientOnly)
    func unexpectedPacket(packet: MQTTPacket) throws {
        var session = try T.connected()
        let actions = session.received(packet, now: T.at(1))
        #expect(
            actions == [
                .closeConnection(
                    .protocolViolation("server sent \(packet.typeName), which only clients send"))
            ]
        )
    }

    @Test("no CONNACK within the timeout closes the connection")
    func connAckTimeout() throws {
        var session = try MQTTSession(
            configuration: MQTTSessionConfiguration(clientID: "c", connAckTimeout: .seconds(5)))
        _ = session.connectionOpened(now: T.at(0))
        #expect(session.nextDeadline == T.at(5))
        #expect(session.tick(now: T.at(4.999)).isEmpty)
        #expect(session.tick(now: T.at(5)) == [.closeConnection(.connAckTimeout)])
        #expect(session.nextDeadline == nil)
    }

    @Test("a configuration that cannot make a valid CONNECT is refused")
    func invalidConfiguration() {
        #expect(throws: MQTTSessionError.self) {
            try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "c", password: [1]))
        }
        #expect(throws: MQTTSessionError.self) {
            try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "", cleanSession: false))
        }
        let error = #expect(throws: MQTTSessionError.self) {
            try MQTTSession(
                configuration: MQTTSessionConfiguration(
                    clientID: "c", will: MQTTWill(topic: "a/#", payload: [])))
        }
        #expect(error?.wireError?.kind == .malformed)
    }

    @Test(
        "an invalid configuration update is refused and changes nothing; a valid one is used next time")
    func updateConfiguration() throws {
        var session = try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "c"))
        #expect(throws: MQTTSessionError.self) {
            try session.updateConfiguration(MQTTSessionConfiguration(clientID: "c\u{0}"))
        }
        #expect(session.configuration.clientID == "c")
        try session.updateConfiguration(MQTTSessionConfiguration(clientID: "d", username: "u"))
        let connect = MQTTConnect(clientID: "d", username: "u")
        #expect(session.connectionOpened(now: T.at(0)) == [.send(.connect(connect))])
    }

    @Test("requests before CONNACK are refused as not connected")
    func requestsBeforeConnAck() throws {
        var session = try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "c"))
        #expect(throws: MQTTSessionError.notConnected) {
            try session.publish(topic: "a", payload: [], now: T.at(0))
        }
        _ = session.connectionOpened(now: T.at(0))
        #expect(throws: MQTTSessionError.notConnected) {
            try session.subscribe([MQTTSubscription(filter: "a")], now: T.at(0))
        }
        #expect(throws: MQTTSessionError.notConnected) { try session.unsubscribe(["a"], now: T.at(0)) }
    }

    @Test("disconnect sends DISCONNECT, then asks to close; a second call does nothing")
    func disconnectSendsDisconnect() throws {
        var session = try T.connected()
        #expect(session.disconnect() == [.send(.disconnect), .closeConnection(.disconnectRequested)])
        #expect(session.disconnect().isEmpty)
        #expect(throws: MQTTSessionError.notConnected) {
            try session.publish(topic: "a", payload: [], now: T.at(1))
        }
        session.connectionClosed()
        #expect(session.disconnect().isEmpty)
        #expect(session.tick(now: T.at(1000)).isEmpty)
    }

    @Test("close reasons describe themselves")
    func closeReasonDescriptions() {
        #expect(
            MQTTSessionCloseReason.connectionRefused(.notAuthorized).description
                == "connection refused: not authorized"
        )
        #expect(MQTTSessionCloseReason.pingTimeout.description.contains("PINGRESP"))
        #expect(MQTTSessionError.packetIDsExhausted.description.contains("65535"))
    }
}
