import Clients
import Net
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

    @Test(
        "a cancelled wait returns false at once, not at its timeout; an uncancelled one at exactly its timeout",
        .timeLimit(.minutes(1)))
    func cancelled() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        // Neither the CONNACK nor the connect timeout may end the connection while time moves.
        let session = MQTTSessionConfiguration(
            clientID: "wait-cancelled", keepAlive: 0, connAckTimeout: .seconds(3600))
        let configuration = TestMQTT.configuration(
            port: broker.port, session: session, connectTimeout: .seconds(3600))
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            // The broker takes the connection and never answers CONNECT: the client stays connecting.
            let connection = try await broker.accept()
            defer { connection.close() }
            let cancelledWait = Task { await running.call { await $0.waitUntilConnected(timeout: .seconds(30)) } }
            #expect(await clock.waitForTimer(at: .seconds(30)), "the wait's timeout")
            cancelledWait.cancel()
            // Before, a cancelled wait spun (its 20 ms sleep threw at once) until the timeout.
            #expect(await cancelledWait.value == false)
            #expect(clock.elapsed == .zero)

            let timedWait = Task { await running.call { await $0.waitUntilConnected(timeout: .seconds(20)) } }
            #expect(await clock.waitForTimer(at: .seconds(20)), "the second wait's timeout")
            await clock.advance(to: .seconds(20) - .nanoseconds(1))
            #expect(clock.pendingDeadlines.first == .seconds(20))
            await clock.advance(to: .seconds(20))
            #expect(await timedWait.value == false)
            #expect(running.connectionCount == 0)
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
