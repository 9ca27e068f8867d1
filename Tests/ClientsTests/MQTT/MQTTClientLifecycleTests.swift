import Clients
import Harness
import Net
import Testing
import Wire

/// How `run()` ends: `stop()` and task cancellation, whatever the client is doing at the time.
@Suite("MQTTClient lifecycle: stop and cancellation")
struct MQTTClientLifecycleTests {
    @Test("stop() sends DISCONNECT, closes, and run() ends with .stopped")
    func stopWhileConnected() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let configuration = TestMQTT.configuration(
            port: broker.port, session: MQTTSessionConfiguration(clientID: "stop", keepAlive: 0))
        try await withClient(configuration) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            await running.stop(limit: .seconds(30))
            #expect(try await connection.readUntilClosed() == [.disconnect])
            let endedStopped = await running.waitForStates { $0.last == .stopped }
            #expect(endedStopped)
        }
    }

    @Test("cancelling the task running run() while connected ends it promptly with .stopped")
    func cancelWhileConnected() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let configuration = TestMQTT.configuration(
            port: broker.port, session: MQTTSessionConfiguration(clientID: "cancel", keepAlive: 0))
        try await withClient(configuration) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            await running.cancel(limit: .seconds(30))
            #expect(running.hasEnded)
            _ = try await connection.readUntilClosed(timeout: .seconds(30))
            let endedStopped = await running.waitForStates { $0.last == .stopped }
            #expect(endedStopped)
        }
    }

    @Test("stop() during a long reconnection delay ends run() at once, not when the delay is over")
    func stopDuringBackoff() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let backoff = ReconnectBackoff(initial: .seconds(30), maximum: .seconds(60), jitter: 0)
        let configuration = TestMQTT.configuration(
            port: broker.port, session: MQTTSessionConfiguration(clientID: "backoff"), backoff: backoff)
        // Virtual time stands still: run() can end only because stop() cut the delay short.
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            let connection = try await broker.accept()
            defer { connection.close() }
            _ = try await connection.readPacket()
            try await connection.send(.connAck(MQTTConnAck(returnCode: .serverUnavailable)))
            // Refused: the client now waits 30 s before trying again.
            #expect(await running.waitForDisconnect(containing: "server unavailable") != nil)
            #expect(await clock.waitForTimer(at: .seconds(30)), "the reconnection delay")
            await running.stop(limit: .seconds(30))
            #expect(running.hasEnded)
            #expect(clock.elapsed == .zero)
            let endedStopped = await running.waitForStates { $0.last == .stopped }
            #expect(endedStopped)
        }
    }

    @Test("stop() while the TLS handshake is under way: the client does not go on to CONNECT")
    func stopDuringConnect() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let (certificate, key) = try TLSContext.selfSignedCertificate(
            commonName: "fake broker", subjectAltNames: "IP:127.0.0.1")
        let serverContext = try TLSContext.server(certificatePEM: certificate, privateKeyPEM: key)
        let configuration = TestMQTT.configuration(
            port: listener.address.port, session: MQTTSessionConfiguration(clientID: "early-stop"),
            tls: TLSConfiguration(trust: .selfSigned(pinned: nil)))
        // The client's handshake deadline (the connect timeout, 3 s) is virtual and never passes:
        // in real time, on a busy machine, it passed before the test's half of the handshake began,
        // and the client closed ("the peer closed the connection").
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            // The TCP connection is up; the client now waits for the server's half of the handshake.
            let tcp = try await listener.accept(deadline: .now + .seconds(30))
            defer { tcp.close() }
            let stopped = Recorder<Bool>()
            Task {
                await running.call { await $0.stop() }
                stopped.append(true)
            }
            // stop() has no connection to close yet, so it returns at once; the handshake goes on after.
            let stopReturned = await waitUntil(timeout: .seconds(30)) { !stopped.all.isEmpty }
            #expect(stopReturned)
            let tls = try await TLSConnection.accept(
                over: tcp, context: serverContext, deadline: .now + .seconds(30))
            defer { tls.close() }
            // Nothing but the end of the stream: no CONNECT after stop().
            var received: [UInt8] = []
            while let bytes = try? await tls.read(maxBytes: 4096, deadline: .now + .seconds(30)),
                !bytes.isEmpty
            {
                received += bytes
            }
            #expect(received.isEmpty, "the client sent \(received.count) bytes after stop()")
            await running.ensureEnded(
                within: .seconds(30), what: "run() after stop() during the handshake")
            #expect(clock.elapsed == .zero)
            let endedStopped = await running.waitForStates { $0.last == .stopped }
            #expect(endedStopped)
        }
    }
}
