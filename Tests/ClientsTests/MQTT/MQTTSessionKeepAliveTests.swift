import Clients
import TestSupport
import Testing
import Wire

@Suite("MQTT session: keep-alive", .cpuBound)
struct MQTTSessionKeepAliveTests {
    typealias T = MQTTSessionTestSupport

    @Test("PINGREQ goes out exactly when nothing was sent for the keep-alive interval")
    func keepaliveSendsPingreqAfterIdle() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", keepAlive: 60))
        #expect(session.nextDeadline == T.at(60))
        #expect(session.tick(now: T.at(59.999)).isEmpty)
        #expect(session.tick(now: T.at(60)) == [.send(.pingReq)])
        // Only one PINGREQ outstanding: the deadline is now the PINGRESP's (min(60, 10) s).
        #expect(session.nextDeadline == T.at(70))
        #expect(session.tick(now: T.at(65)).isEmpty)
        #expect(session.received(.pingResp, now: T.at(60.2)).isEmpty)
        #expect(session.nextDeadline == T.at(120))
    }

    @Test("PINGREQ goes out after keep-alive of receive silence, however often the client sends")
    func receiveSilencePings() throws {
        // A TV that is playing makes the bridge publish every poll. If sending postponed the
        // PINGREQ, a half-open connection (NAT timeout, broker host gone) would never be
        // noticed: nothing comes back, and nothing asks whether anything would.
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", keepAlive: 30))
        for second in stride(from: 1.0, through: 29.0, by: 2) {
            _ = try session.publish(topic: "a", payload: [1], now: T.at(second))
        }
        #expect(session.nextDeadline == T.at(30))
        #expect(session.tick(now: T.at(30)) == [.send(.pingReq)])
        // Publishing on while the PINGREQ is out does not excuse a missing PINGRESP.
        _ = try session.publish(topic: "a", payload: [1], now: T.at(35))
        #expect(session.tick(now: T.at(40)) == [.closeConnection(.pingTimeout)])
    }

    @Test("PINGREQ goes out after keep-alive of send silence, however often the broker sends")
    func sendSilencePings() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", keepAlive: 30))
        // QoS 0 deliveries need no answer: the client stays silent (§3.1.2.10 counts what it sends).
        for second in stride(from: 5.0, through: 25.0, by: 5) {
            _ = session.received(.publish(MQTTPublish(topic: "a", payload: [])), now: T.at(second))
        }
        #expect(session.nextDeadline == T.at(30))
        #expect(session.tick(now: T.at(30)) == [.send(.pingReq)])
    }

    @Test("traffic both ways postpones the PINGREQ; the earlier silence sets the deadline")
    func trafficBothWaysPostpones() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", keepAlive: 30))
        _ = try session.publish(topic: "a", payload: [1], now: T.at(20))
        #expect(session.nextDeadline == T.at(30))  // nothing received since CONNACK at 0
        // An inbound QoS 1 message is received and acknowledged: both silences end at 25.
        _ = session.received(
            .publish(MQTTPublish(topic: "a", payload: [], qos: .atLeastOnce, packetID: 4)), now: T.at(25))
        #expect(session.nextDeadline == T.at(55))
        #expect(session.tick(now: T.at(54.9)).isEmpty)
        #expect(session.tick(now: T.at(55)) == [.send(.pingReq)])
        #expect(session.received(.pingResp, now: T.at(55.1)).isEmpty)
        #expect(session.nextDeadline == T.at(85))  // PINGREQ sent at 55, PINGRESP received at 55.1
    }

    @Test("a late PINGRESP declares the connection dead")
    func deadConnectionWhenPingrespLate() throws {
        var session = try T.connected(
            MQTTSessionConfiguration(clientID: "c", keepAlive: 60, pingTimeout: .seconds(5)))
        #expect(session.tick(now: T.at(60)) == [.send(.pingReq)])
        #expect(session.tick(now: T.at(64.9)).isEmpty)
        #expect(session.tick(now: T.at(65)) == [.closeConnection(.pingTimeout)])
        #expect(!session.isConnected)
        #expect(session.nextDeadline == nil)
        // A PINGRESP that straggles in afterwards changes nothing.
        #expect(session.received(.pingResp, now: T.at(66)).isEmpty)
    }

    @Test("a reconnect starts keep-alive afresh without a stale PINGREQ")
    func reconnectResetsPing() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", keepAlive: 10))
        #expect(session.tick(now: T.at(10)) == [.send(.pingReq)])
        _ = T.reconnect(&session, at: 12)
        #expect(session.nextDeadline == T.at(22))
    }

    @Test("keep-alive 0 runs no timer once connected")
    func keepAliveZero() throws {
        var session = try T.connected(MQTTSessionConfiguration(clientID: "c", keepAlive: 0))
        #expect(session.nextDeadline == nil)
        #expect(session.tick(now: T.at(100_000)).isEmpty)
    }

    @Test("the default PINGRESP timeout is the smaller of keep-alive and 10 seconds")
    func defaultPingTimeout() {
        #expect(MQTTSessionConfiguration(clientID: "c", keepAlive: 60).pingTimeout == .seconds(10))
        #expect(MQTTSessionConfiguration(clientID: "c", keepAlive: 4).pingTimeout == .seconds(4))
        #expect(MQTTSessionConfiguration(clientID: "c", keepAlive: 0).pingTimeout == .seconds(10))
        #expect(
            MQTTSessionConfiguration(clientID: "c", pingTimeout: .seconds(3)).pingTimeout == .seconds(3))
    }

    @Test("nothing runs while disconnected")
    func disconnectedHasNoDeadline() throws {
        var session = try MQTTSession(configuration: MQTTSessionConfiguration(clientID: "c"))
        #expect(session.nextDeadline == nil)
        #expect(session.tick(now: T.at(1000)).isEmpty)
        #expect(session.received(.pingResp, now: T.at(1000)).isEmpty)
    }
}
