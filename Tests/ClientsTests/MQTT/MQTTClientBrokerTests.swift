import Clients
import Harness
import Net
import Testing
import Wire

/// The client against a real mosquitto 2.0, with mosquitto_pub and mosquitto_sub on the other
/// side: each test its own broker on a free loopback port.
///
/// Serialized: every child process (broker, CLI client, openssl) costs the harness a reaper
/// thread, and NetTests' "500 simultaneous connections share the one loop thread" counts the
/// process's threads while the suites run in parallel.
@Suite("MQTTClient against mosquitto", .serialized)
struct MQTTClientBrokerTests {
    @Test("a user name and password from the broker's password file are accepted")
    func authenticationSucceeds() async throws {
        let options = MosquittoOptions(allowAnonymous: false, users: ["alice": "s3cret"])
        try await withMosquitto(options) { broker in
            let id = TestMQTT.clientID("auth-ok")
            let session = MQTTSessionConfiguration(
                clientID: id, username: "alice", password: Array("s3cret".utf8))
            try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
                #expect(await running.waitForConnection())
                try await running.client.publish("auth/ok", "yes", qos: .atLeastOnce)
                // p2 = MQTT 3.1.1; the user name is the one we sent.
                #expect(broker.logText().contains("as \(id) (p2, c1, k60, u'alice')"))
            }
        }
    }

    @Test(
        "a wrong password is refused as 'not authorized' (mosquitto 2.0.11, MQTT 3.1.1) and retried at exactly 200 and 600 ms"
    )
    func authenticationFails() async throws {
        let options = MosquittoOptions(allowAnonymous: false, users: ["alice": "s3cret"])
        try await withMosquitto(options) { broker in
            let id = TestMQTT.clientID("auth-bad")
            let session = MQTTSessionConfiguration(
                clientID: id, username: "alice", password: Array("wrong".utf8))
            let backoff = ReconnectBackoff(initial: .milliseconds(200), maximum: .seconds(2), jitter: 0)
            let configuration = TestMQTT.configuration(
                port: broker.port, session: session, backoff: backoff)
            // The client's delays are virtual; mosquitto keeps real time.
            let clock = ManualClock()
            try await withClient(configuration, clock: clock) { running in
                let refusals = {
                    running.disconnectReasons.count { $0 == "connection refused: not authorized" }
                }
                // Refused at 0; the next attempts at exactly 200 ms and 200 + 400 = 600 ms.
                for (index, next) in [Duration.milliseconds(200), .milliseconds(600)].enumerated() {
                    let refused = await waitUntil(timeout: .seconds(30)) { refusals() >= index + 1 }
                    #expect(refused, "\(running.disconnectReasons)")
                    #expect(await clock.waitForTimer(at: next), "attempt at \(next): \(clock.pendingDeadlines)")
                    await clock.advance(to: next - .nanoseconds(1))
                    #expect(refusals() == index + 1, "no attempt before \(next)")
                    await clock.advance(to: next)
                }
                let refusedThrice = await waitUntil(timeout: .seconds(30)) { refusals() >= 3 }
                #expect(refusedThrice, "\(running.disconnectReasons)")
                #expect(running.connectionCount == 0)
                let loggedRefusal = running.logLines.contains { $0.contains("refused the connection: not authorized") }
                #expect(loggedRefusal)
                // mosquitto answers CONNACK return code 5 and logs the client before it has an id.
                #expect(TestMQTT.count("Sending CONNACK to 127.0.0.1 (0, 5)", in: broker) >= 3)
                let brokerLoggedRefusals = await waitUntil(timeout: .seconds(30)) {
                    TestMQTT.count("Client <unknown> disconnected, not authorised.", in: broker) >= 3
                }
                #expect(brokerLoggedRefusals)
                // The client names each delay as it starts it.
                let retries = running.logLines.filter { $0.contains("retrying in ") }
                    .compactMap { $0.split(separator: "retrying in ").last.map(String.init) }
                #expect(Array(retries.prefix(2)) == ["200 ms", "400 ms"], "\(retries)")
                #expect(clock.elapsed == .milliseconds(600))
            }
        }
    }

    @Test("our publishes at QoS 0, 1 and 2 reach mosquitto_sub with that QoS")
    func publishAtEachQoS() async throws {
        try await withMosquitto { broker in
            let subscriber = try await FormattedSubscriber(broker: broker, topics: ["qos/#"], qos: 2)
            defer { subscriber.process.kill() }
            try await subscriber.waitUntilSubscribed(on: broker)
            let id = TestMQTT.clientID("pub")
            try await withClient(TestMQTT.configuration(port: broker.port, session: .init(clientID: id))) { running in
                #expect(await running.waitForConnection())
                try await running.client.publish("qos/0", "zero", qos: .atMostOnce)
                try await running.client.publish("qos/1", "one", qos: .atLeastOnce)
                try await running.client.publish("qos/2", "two", qos: .exactlyOnce)
                let lines = await subscriber.waitForLines(count: 3)
                #expect(lines.sorted() == ["0 0 qos/0 zero", "1 0 qos/1 one", "2 0 qos/2 two"])
                // The broker saw each flow complete: PUBACK for QoS 1, PUBREC/PUBREL/PUBCOMP for QoS 2.
                let log = broker.logText()
                #expect(log.contains("Received PUBLISH from \(id) (d0, q0, r0, m0, 'qos/0'"))
                #expect(log.contains("Received PUBLISH from \(id) (d0, q1, r0, m"))
                #expect(log.contains("Sending PUBACK to \(id)"))
                #expect(log.contains("Received PUBLISH from \(id) (d0, q2, r0, m"))
                #expect(log.contains("Received PUBREL from \(id)"))
                #expect(log.contains("Sending PUBCOMP to \(id)"))
            }
        }
    }

    @Test("mosquitto_pub at QoS 0, 1 and 2 is delivered to us exactly once each, with that QoS")
    func receiveAtEachQoS() async throws {
        try await withMosquitto { broker in
            let id = TestMQTT.clientID("sub")
            try await withClient(TestMQTT.configuration(port: broker.port, session: .init(clientID: id))) { running in
                #expect(await running.waitForConnection())
                #expect(
                    try await running.client.subscribe("in/#", qos: .exactlyOnce) == .granted(.exactlyOnce))
                for qos in 0...2 {
                    try await MosquittoClients.publish(
                        to: broker.endpoint(), topic: "in/\(qos)", message: "m\(qos)", qos: qos)
                }
                _ = await running.waitForMessages(count: 3)
                // Let any duplicate arrive before counting.
                let pubcompReceived = await waitUntil(timeout: .seconds(30)) {
                    TestMQTT.count("Received PUBCOMP from \(id)", in: broker) >= 1
                }
                #expect(pubcompReceived)
                try await Task.sleep(for: .milliseconds(300))
                #expect(
                    running.messages == [
                        MQTTMessage(topic: "in/0", payload: Array("m0".utf8), qos: .atMostOnce),
                        MQTTMessage(topic: "in/1", payload: Array("m1".utf8), qos: .atLeastOnce),
                        MQTTMessage(topic: "in/2", payload: Array("m2".utf8), qos: .exactlyOnce),
                    ])
                let log = broker.logText()
                #expect(log.contains("Received PUBACK from \(id)"))
                #expect(log.contains("Received PUBREC from \(id)"))
                #expect(log.contains("Sending PUBREL to \(id)"))
            }
        }
    }

    @Test(
        "a retained message we publish is kept by the broker, and our empty retained payload deletes it"
    )
    func retainedOutbound() async throws {
        try await withMosquitto { broker in
            let session = MQTTSessionConfiguration(clientID: TestMQTT.clientID("ret-out"))
            try await withClient(TestMQTT.configuration(port: broker.port, session: session)) { running in
                #expect(await running.waitForConnection())
                try await running.client.publish("ret/a", "on", qos: .atLeastOnce, retain: true)
                #expect(
                    try await MosquittoClients.subscribe(
                        to: broker.endpoint(), topic: "ret/a", count: 1, timeout: .seconds(5)) == ["ret/a on"])
                try await running.client.publish("ret/a", [], qos: .atLeastOnce, retain: true)
                #expect(
                    try await MosquittoClients.subscribe(
                        to: broker.endpoint(), topic: "ret/a", count: 1, timeout: .seconds(1)) == [])
            }
        }
    }

    @Test(
        "a retained message reaches us on subscription with retain set; once deleted, it no longer does"
    )
    func retainedInbound() async throws {
        try await withMosquitto { broker in
            try await MosquittoClients.publish(
                to: broker.endpoint(), topic: "ret/b", message: "kept", qos: 1, retain: true)
            let id = TestMQTT.clientID("ret-in")
            try await withClient(TestMQTT.configuration(port: broker.port, session: .init(clientID: id))) { running in
                #expect(await running.waitForConnection())
                try await running.client.subscribe("ret/b", qos: .atLeastOnce)
                #expect(
                    await running.waitForMessages(count: 1) == [
                        MQTTMessage(
                            topic: "ret/b", payload: Array("kept".utf8), qos: .atLeastOnce, retain: true)
                    ])
                try await MosquittoClients.publish(
                    to: broker.endpoint(), topic: "ret/b", message: "", qos: 1, retain: true)
                // A live subscriber gets the deletion as an ordinary (not retained) empty message.
                let afterDelete = await running.waitForMessages(count: 2)
                #expect(
                    afterDelete.last
                        == MQTTMessage(topic: "ret/b", payload: [], qos: .atLeastOnce, retain: false))

                try await running.client.unsubscribe(["ret/b"])
                try await running.client.subscribe("ret/b", qos: .atLeastOnce)
                #expect(TestMQTT.count("Sending SUBACK to \(id)", in: broker) == 2)
                try await Task.sleep(for: .milliseconds(300))
                #expect(running.messages.count == 2)
            }
        }
    }

    @Test("the will is published when the connection dies without DISCONNECT, and not after stop()")
    func will() async throws {
        try await withMosquitto { broker in
            let proxy = try TCPProxy(to: broker.port)
            defer { proxy.close() }
            let subscriber = try await FormattedSubscriber(broker: broker, topics: ["will/#"], qos: 1)
            defer { subscriber.process.kill() }
            try await subscriber.waitUntilSubscribed(on: broker)

            let id = TestMQTT.clientID("will")
            let session = MQTTSessionConfiguration(
                clientID: id,
                will: MQTTWill(topic: "will/\(id)", payload: Array("offline".utf8), qos: .atLeastOnce))
            try await withClient(TestMQTT.configuration(port: proxy.port, session: session)) { running in
                #expect(await running.waitForConnection())
                proxy.sever()  // the network fails: no DISCONNECT reaches the broker
                #expect(await subscriber.waitForLines(count: 1) == ["1 0 will/\(id) offline"])
                #expect(await running.waitForConnection(count: 2))  // back through the proxy
            }
            // withClient stopped the client: DISCONNECT, so the broker discards the will.
            #expect(await broker.waitForLog(containing: "Client \(id) disconnected.\n"))
            try await Task.sleep(for: .milliseconds(300))
            #expect(subscriber.lines() == ["1 0 will/\(id) offline"])
        }
    }

    @Test(
        "with keepalive 1 s the client pings at exactly 1, 2, 3 s while idle and mosquitto answers; the connection survives"
    )
    func keepalive() async throws {
        try await withMosquitto { broker in
            let id = TestMQTT.clientID("ping")
            let session = MQTTSessionConfiguration(clientID: id, keepAlive: 1, connAckTimeout: .seconds(60))
            let configuration = TestMQTT.configuration(
                port: broker.port, session: session, connectTimeout: .seconds(60))
            // The client's pings go out at virtual times the test moves through as fast as the
            // broker answers, so mosquitto (1.5 s of real silence allowed) always sees them in time.
            let clock = ManualClock()
            try await withClient(configuration, clock: clock) { running in
                #expect(await running.waitForConnection())
                for second in 1...3 {
                    let due = Duration.seconds(second)
                    #expect(await clock.waitForTimer(at: due), "PINGREQ \(second): \(clock.pendingDeadlines)")
                    await clock.advance(to: due)
                    let pinged = await waitUntil(timeout: .seconds(30)) {
                        TestMQTT.count("Received PINGREQ from \(id)", in: broker) >= second
                    }
                    #expect(pinged)
                    // mosquitto answers in order: once this PUBACK is in, so is the PINGRESP, and
                    // time can move on. Sent at the ping's instant, it changes no silence.
                    try await running.call { try await $0.publish("ping/sync", "\(second)", qos: .atLeastOnce) }
                }
                #expect(TestMQTT.count("Sending PINGRESP to \(id)", in: broker) >= 3)
                #expect(!broker.logText().contains("exceeded timeout"))
                #expect(running.connectionCount == 1)
                #expect(running.disconnectReasons.isEmpty)
                #expect(await running.client.isConnected)
            }
        }
    }

    @Test("after a broker restart the client reconnects, re-subscribes, receives and publishes again")
    func reconnectAfterRestart() async throws {
        try await withMosquitto { broker in
            let id = TestMQTT.clientID("restart")
            try await withClient(TestMQTT.configuration(port: broker.port, session: .init(clientID: id))) { running in
                #expect(await running.waitForConnection())
                try await running.client.subscribe("re/#", qos: .atLeastOnce)

                try await broker.restart()
                #expect(await running.waitForConnection(count: 2, timeout: .seconds(30)))
                let states = running.states
                let disconnectIndex = states.firstIndex { $0.isDisconnected }
                let firstDisconnect = try #require(disconnectIndex)
                #expect(states.firstIndex(of: .connected(sessionPresent: false))! < firstDisconnect)
                #expect(states[firstDisconnect...].contains(.connected(sessionPresent: false)))
                let resubscribed = await waitUntil(timeout: .seconds(30)) {
                    TestMQTT.count("Sending SUBACK to \(id)", in: broker) >= 2
                }
                #expect(resubscribed)

                try await MosquittoClients.publish(
                    to: broker.endpoint(), topic: "re/after", message: "back", qos: 1)
                #expect(
                    await running.waitForMessages(count: 1) == [
                        MQTTMessage(topic: "re/after", payload: Array("back".utf8), qos: .atLeastOnce)
                    ])

                let subscriber = try await FormattedSubscriber(broker: broker, topics: ["out/#"], qos: 1)
                defer { subscriber.process.kill() }
                try await subscriber.waitUntilSubscribed(on: broker)
                try await running.client.publish("out/x", "resumed", qos: .atLeastOnce)
                #expect(await subscriber.waitForLines(count: 1) == ["1 0 out/x resumed"])
            }
        }
    }

    @Test(
        "a retained message above maxPacketSize is skipped and logged once; the client stays connected and goes on"
    )
    func oversizeInbound() async throws {
        try await withMosquitto { broker in
            let id = TestMQTT.clientID("big")
            let configuration = TestMQTT.configuration(
                port: broker.port, session: .init(clientID: id), maxPacketSize: 1024)
            // Retained before anyone subscribes: it comes with every (re)subscription, so closing
            // the connection over it would bring it straight back, in a loop.
            try await MosquittoClients.publish(
                to: broker.endpoint(), topic: "big/huge", message: String(repeating: "x", count: 5000), retain: true)
            try await withClient(configuration) { running in
                #expect(await running.waitForConnection())
                try await running.client.subscribe("big/#", qos: .atLeastOnce)
                let logged = await waitUntil(timeout: .seconds(30)) {
                    running.logLines.contains { $0.contains("skipped a message on big/huge: 50") }
                }
                #expect(logged, "\(running.logLines)")
                try await MosquittoClients.publish(to: broker.endpoint(), topic: "big/small", message: "ok")
                #expect(await running.waitForMessages(count: 1).map(\.topic) == ["big/small"])
                try await Task.sleep(for: .seconds(1))
                #expect(running.connectionCount == 1)
                #expect(running.disconnectReasons.isEmpty, "\(running.disconnectReasons)")
                let skipLines = running.logLines.count { $0.contains("skipped a message on big/huge") }
                #expect(skipLines == 1)
            }
        }
    }
}
