import Glibc
import Harness
import Testing

/// SIGTERM while the broker is frozen (SIGSTOP): the TCP connection stays up, nothing is ever
/// answered. The bridge must still end within 5 s, with exit status 0 (Tests/README.md ›
/// Reliability, issue 13).
@Suite("Faults: SIGTERM with a frozen broker")
struct FaultBrokerStoppedTests {
    @Test("broker stopped with SIGSTOP, bridge gets SIGTERM: it exits 0 within 5 s")
    func sigtermWithFrozenBroker() async throws {
        try await withMosquitto { broker in
            let directory = try TemporaryDirectory(prefix: "frozen-broker")
            defer { directory.remove() }
            let subscriber = try await MosquittoClients.startSubscriber(
                to: broker.endpoint(), topics: ["tv2mqtt/bridge/state"])
            try await subscriber.waitUntilSubscribed(on: broker)
            let bridge = try await FaultBridgeProcess.start([
                "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir", directory.path,
            ])
            defer { bridge.kill() }
            let online = await subscriber.waitForLines(count: 1, timeout: .seconds(30)).last
            await subscriber.stop()
            try #require(online == "tv2mqtt/bridge/state online", "stderr: \(bridge.capturedError())")

            // Only the mosquitto this test started, by its pid; it is always resumed below.
            let brokerPID = try #require(broker.pid)
            #expect(kill(brokerPID, SIGSTOP) == 0)
            defer { kill(brokerPID, SIGCONT) }
            try await Task.sleep(for: .milliseconds(200))

            let signalled = ContinuousClock.now
            #expect(bridge.signal(SIGTERM))
            let status = await bridge.wait(timeout: .seconds(5))
            let took = ContinuousClock.now - signalled
            kill(brokerPID, SIGCONT)
            #expect(status == .exited(0), "after \(took); stderr: \(bridge.capturedError())")
            print("SIGTERM with a frozen broker: exited \(String(describing: status)) after \(took)")
        }
    }
}
