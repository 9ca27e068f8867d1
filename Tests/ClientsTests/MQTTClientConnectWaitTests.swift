import Clients
import Testing
import Wire

/// `waitUntilConnected` is woken by the client's own state changes: connected, stopped, its
/// timeout, or the cancellation of the task waiting.
@Suite("MQTTClient waitUntilConnected")
struct MQTTClientConnectWaitTests {
    @Test("returns true once CONNACK arrives", .timeLimit(.minutes(1)))
    func connected() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let configuration = TestMQTT.configuration(
            port: broker.port, session: MQTTSessionConfiguration(clientID: "wait-connected", keepAlive: 0))
        try await withClient(configuration) { running in
            let client = running.client
            let waiter = Task { await client.waitUntilConnected(timeout: .seconds(3600)) }
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await waiter.value)
        }
    }

    @Test("a cancelled wait returns false at once, not when its timeout is over", .timeLimit(.minutes(1)))
    func cancelled() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let configuration = TestMQTT.configuration(
            port: broker.port, session: MQTTSessionConfiguration(clientID: "wait-cancelled", keepAlive: 0))
        try await withClient(configuration) { running in
            // The broker takes the connection and never answers CONNECT: the client stays connecting.
            let connection = try await broker.accept()
            defer { connection.close() }
            let client = running.client
            let timeout = Duration.seconds(30)
            let started = ContinuousClock.now
            let waiter = Task { await client.waitUntilConnected(timeout: timeout) }
            try await Task.sleep(for: .milliseconds(100))
            waiter.cancel()
            #expect(await waiter.value == false)
            // Before, a cancelled wait spun (its 20 ms sleep threw at once) until the timeout.
            #expect(ContinuousClock.now - started < timeout)
        }
    }

    @Test("stop() ends a wait with false", .timeLimit(.minutes(1)))
    func stopped() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let configuration = TestMQTT.configuration(
            port: broker.port, session: MQTTSessionConfiguration(clientID: "wait-stopped", keepAlive: 0))
        let running = try RunningClient(configuration)
        let connection = try await broker.accept()
        defer { connection.close() }
        let client = running.client
        let waiter = Task { await client.waitUntilConnected(timeout: .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(100))
        await running.stop()
        #expect(await waiter.value == false)
    }
}
