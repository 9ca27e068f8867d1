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
        try await withClient(configuration) { running in
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
                    try await client.enqueue("homeassistant/x/config", payload, qos: .atMostOnce, retain: true)
                }
            }
            // The broker's side of a slow link: 4 MB/s, paced by the clock rather than by sleeps,
            // so a loaded machine (sleeps that overrun) catches up instead of slowing the link.
            let rate = 4_000_000.0
            var received = 0
            let started = ContinuousClock.now
            while received < expectedBytes && ContinuousClock.now - started < .seconds(60) {
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let allowed = Int(rate * seconds) - received
                guard allowed > 0 else {
                    try await Task.sleep(for: .milliseconds(2))
                    continue
                }
                let bytes = try await connection.connection.read(
                    maxBytes: min(allowed, 64 * 1024), deadline: .now + .seconds(10))
                if bytes.isEmpty { break }
                received += bytes.count
            }
            let published = await publishing.result
            #expect(throws: Never.self, "\(running.disconnectReasons)") { try published.get() }
            #expect(received == expectedBytes, "took \(ContinuousClock.now - started)")
            #expect(running.disconnectReasons.isEmpty, "\(running.disconnectReasons)")
            let highest = peak.withLock { $0 }
            #expect(highest <= 256 * 1024 + 20_100, "the outbox held \(highest) bytes")
            print("slow link: \(received) bytes in \(ContinuousClock.now - started), outbox peak \(highest) bytes")
        }
    }
}
