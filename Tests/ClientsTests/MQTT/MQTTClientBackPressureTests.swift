import Clients
import Harness
import Net
import Synchronization
import Testing
import Wire

/// Issue 13, item 4: a discovery republish of many MB over a slow link. The outbox stays
/// bounded (publishers wait for the writer), and the link is never cut for being slow.
@Suite("MQTTClient back-pressure over a slow link")
struct MQTTClientBackPressureTests {
    @Test("16 MB enqueued over a ~4 MB/s link: the queue stays under its bound, nothing times out, all arrive")
    func slowLink() async throws {
        let broker = try ScriptedBroker()
        defer { broker.close() }
        let session = MQTTSessionConfiguration(clientID: "slow-link", keepAlive: 0)
        var configuration = TestMQTT.configuration(port: broker.port, session: session)
        configuration.maxQueuedBytes = 256 * 1024
        // Far longer than one 64 KiB slice takes here (or the kernel's send buffer takes to
        // half drain, when the socket says it is writable again), shorter than the whole 16 MB.
        configuration.writeTimeout = .seconds(3)
        let messageCount = 800
        let payload = [UInt8](repeating: 0x7B, count: 20_000)
        let expectedBytes =
            try MQTTPacket.publish(MQTTPublish(topic: "homeassistant/x/config", payload: payload, retain: true))
            .encoded().count * messageCount
        // The link's speed is virtual: the broker reads at 4 MB/s of the client's clock, moving
        // it on by each read's worth, so the 3 s write deadline is measured against the link,
        // not against how long a loaded machine takes to run the test.
        let clock = ManualClock()
        try await withClient(configuration, clock: clock) { running in
            let (connection, _) = try await broker.acceptSession()
            defer { connection.close() }
            #expect(await running.waitForConnection())
            let client = running.client
            let peak = Mutex(0)
            let sampling = Task {
                while !Task.isCancelled {
                    let queued = await client.queuedByteCount
                    peak.withLock { $0 = max($0, queued) }
                    try? await Task.sleep(for: .milliseconds(2))
                }
            }
            defer { sampling.cancel() }
            let publishing = Task {
                for _ in 0..<messageCount {
                    try await running.call {
                        try await $0.enqueue("homeassistant/x/config", payload, qos: .atMostOnce, retain: true)
                    }
                }
            }
            let rate = 4_000_000
            var received = 0
            while received < expectedBytes {
                let bytes = try await connection.connection.read(
                    maxBytes: 64 * 1024, deadline: .now + .seconds(30))
                if bytes.isEmpty { break }
                received += bytes.count
                await clock.advance(to: .nanoseconds(Int64(received) * 1_000_000_000 / Int64(rate)))
            }
            let published = await publishing.result
            #expect(throws: Never.self, "\(running.disconnectReasons)") { try published.get() }
            #expect(received == expectedBytes, "\(received) of \(expectedBytes) bytes")
            #expect(running.disconnectReasons.isEmpty, "\(running.disconnectReasons)")
            let highest = peak.withLock { $0 }
            #expect(highest <= 256 * 1024 + 20_100, "the outbox held \(highest) bytes")
            // 16 MB at 4 MB/s: longer than the write deadline, which holds for each slice only.
            #expect(clock.elapsed > configuration.writeTimeout)
        }
    }
}
