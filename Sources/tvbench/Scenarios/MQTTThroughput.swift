import Clients
import Harness
import Wire

/// `mqtt-throughput`: 200,000 QoS 0 and 50,000 QoS 1 publishes of 100 bytes by our MQTTClient,
/// and by `mosquitto_pub -l` with the same messages (one per line of its input), to the same
/// broker in the same run. Nobody subscribes: this is the publisher's speed.
///
/// Both keep at most 20 QoS 1 messages in flight (`mosquitto_pub -M 20`, its default; 20 tasks
/// publishing in turn for ours). Ours is timed from the first publish until the broker has
/// everything (the last PUBACK; for QoS 0, the PUBACK of a QoS 1 message sent after them, which
/// the broker handles in order). `mosquitto_pub` is timed from start to exit, which includes
/// starting a process and connecting: a few milliseconds, under 1 % of its time here.
struct MQTTThroughput: Scenario {
    static let name = "mqtt-throughput"
    static let inFlight = 20
    static let topic = "bench/throughput"

    var metrics: [(name: String, unit: String)] {
        [
            ("mqtt_qos0_msgs_per_s", "msg/s"), ("mqtt_qos1_msgs_per_s", "msg/s"),
            ("mosquitto_pub_qos0_msgs_per_s", "msg/s"), ("mosquitto_pub_qos1_msgs_per_s", "msg/s"),
            ("mqtt_qos0_ratio_vs_mosquitto_pub", "×"), ("mqtt_qos1_ratio_vs_mosquitto_pub", "×"),
        ]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let qos0Count = options.quick ? 20_000 : 200_000
        let qos1Count = options.quick ? 5_000 : 50_000
        let directory = try TemporaryDirectory(prefix: "tvbench-throughput")
        // 100-byte messages, all different (a counter), as lines for mosquitto_pub -l.
        let messages = (0..<max(qos0Count, qos1Count)).map { index -> [UInt8] in
            let head = Array("tvbench message \(index) ".utf8)
            return head + Array(repeating: UInt8(ascii: "x"), count: 100 - head.count)
        }
        var lines: [UInt8] = []
        lines.reserveCapacity(messages.count * 101)
        for message in messages { lines += message + [0x0A] }
        let qos0File = directory.file("qos0.txt")
        let qos1File = directory.file("qos1.txt")
        try FileText.write(String(decoding: lines.prefix(qos0Count * 101), as: UTF8.self), to: qos0File)
        try FileText.write(String(decoding: lines.prefix(qos1Count * 101), as: UTF8.self), to: qos1File)

        return try await withBroker { broker in
            let ours0 = try await ourClient(broker, messages: messages.prefix(qos0Count), qos: .atMostOnce)
            let theirs0 = try await mosquittoPub(broker, file: qos0File, count: qos0Count, qos: 0)
            let ours1 = try await ourClient(broker, messages: messages.prefix(qos1Count), qos: .atLeastOnce)
            let theirs1 = try await mosquittoPub(broker, file: qos1File, count: qos1Count, qos: 1)
            let note0 = "\(qos0Count) × 100 B"
            let note1 = "\(qos1Count) × 100 B, \(Self.inFlight) in flight"
            return [
                Measurement("mqtt_qos0_msgs_per_s", ours0, unit: "msg/s", target: .info(), note: note0),
                Measurement("mqtt_qos1_msgs_per_s", ours1, unit: "msg/s", target: .info(), note: note1),
                Measurement("mosquitto_pub_qos0_msgs_per_s", theirs0, unit: "msg/s", target: .info(), note: note0),
                Measurement("mosquitto_pub_qos1_msgs_per_s", theirs1, unit: "msg/s", target: .info(), note: note1),
                Measurement("mqtt_qos0_ratio_vs_mosquitto_pub", ours0 / theirs0, unit: "×", target: .atLeast(1)),
                Measurement("mqtt_qos1_ratio_vs_mosquitto_pub", ours1 / theirs1, unit: "×", target: .atLeast(1)),
            ]
        }
    }

    /// Messages per second through our client.
    private func ourClient(_ broker: BenchBroker, messages: ArraySlice<[UInt8]>, qos: MQTTQoS) async throws -> Double {
        let configuration = MQTTClientConfiguration(
            host: broker.host, port: broker.port, session: MQTTSessionConfiguration(clientID: "tvbench-ours"))
        let client = try MQTTClient(configuration: configuration, logger: .disabled)
        let running = Task { await client.run() }
        defer { running.cancel() }
        guard await client.waitUntilConnected(timeout: .seconds(10)) else {
            await client.stop()
            throw BenchError("our MQTT client could not connect")
        }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            if qos == .atMostOnce {
                for message in messages { try await client.publish(Self.topic, message) }
                try await client.publish(Self.topic, Array("fence".utf8), qos: .atLeastOnce)
            } else {
                let window = Self.inFlight
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<window {
                        group.addTask {
                            var index = messages.startIndex + lane
                            while index < messages.endIndex {
                                try await client.publish(Self.topic, messages[index], qos: .atLeastOnce)
                                index += window
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        } catch {
            await client.stop()
            throw error
        }
        let elapsed = (clock.now - start).seconds
        await client.stop()
        await running.value
        return Double(messages.count) / elapsed
    }

    /// Messages per second through `mosquitto_pub -l`.
    private func mosquittoPub(_ broker: BenchBroker, file: String, count: Int, qos: Int) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await ChildProcess.run(
            "mosquitto_pub",
            [
                "-h", broker.host, "-p", String(broker.port), "-i", "tvbench-mosquitto-pub", "-t", Self.topic, "-q",
                String(qos), "-M", String(Self.inFlight), "-l",
            ], stdin: .file(file), timeout: .seconds(300))
        let elapsed = (clock.now - start).seconds
        guard result.status.isSuccess else {
            throw BenchError("mosquitto_pub failed (\(result.status)): \(result.error)")
        }
        return Double(count) / elapsed
    }
}
