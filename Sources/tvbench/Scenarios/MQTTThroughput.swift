import Clients
import Harness
import Net
import Wire

/// `mqtt-throughput`: 200,000 QoS 0 and 50,000 QoS 1 publishes of 100 bytes by our MQTTClient,
/// and by `mosquitto_pub -l` with the same messages (one per line of its input), to the same
/// broker in the same run. Nobody subscribes: this is the publisher's speed.
///
/// Both keep at most 20 QoS 1 messages in flight (`mosquitto_pub -M 20`, its default; 20 tasks
/// publishing in turn for ours), and both are timed alike, connection set-up left out: from the
/// moment the client is connected and has nothing to send (mosquitto_pub: the broker has logged
/// its connection, it has slept out its start-up wait and blocks on an empty stdin pipe, which
/// the clock's start fills) until the broker logs the end of the connection, which it does once
/// it has read everything the client sent: the DISCONNECT follows the last PUBLISH (QoS 1: the
/// last PUBACK). Before, mosquitto_pub was timed from starting it to its exit, which counted a
/// process start, a connect and a 100 ms sleep it takes only when the CONNACK is not there yet
/// (a run of one message took 8 or 108 ms), and, for QoS 0, ended when it had *written* its last
/// message, with megabytes perhaps still unread in the broker's socket buffer; ours was timed
/// from after CONNACK, for QoS 0 until a fence's PUBACK.
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
        // 100-byte messages, all different (a counter), and as lines for mosquitto_pub -l.
        let messages = (0..<max(qos0Count, qos1Count)).map { index -> [UInt8] in
            let head = Array("tvbench message \(index) ".utf8)
            return head + Array(repeating: UInt8(ascii: "x"), count: 100 - head.count)
        }
        func lines(_ count: Int) -> [UInt8] {
            var lines: [UInt8] = []
            lines.reserveCapacity(count * 101)
            for message in messages.prefix(count) { lines += message + [0x0A] }
            return lines
        }

        return try await withBroker { broker in
            let ours0 = try await ourClient(broker, messages: messages.prefix(qos0Count), qos: .atMostOnce)
            let theirs0 = try await mosquittoPub(broker, lines: lines(qos0Count), qos: 0)
            let ours1 = try await ourClient(broker, messages: messages.prefix(qos1Count), qos: .atLeastOnce)
            let theirs1 = try await mosquittoPub(broker, lines: lines(qos1Count), qos: 1)
            let rate0 = { (run: TimedRun) in Double(qos0Count) / run.seconds }
            let rate1 = { (run: TimedRun) in Double(qos1Count) / run.seconds }
            let note0 = "\(qos0Count) × 100 B"
            let note1 = "\(qos1Count) × 100 B, \(Self.inFlight) in flight"
            // A broker busy all the time is the bottleneck: no client can go faster through it.
            let busy = { (ours: TimedRun, theirs: TimedRun) in
                "broker busy \(ours.brokerBusyPercent) % of the time with ours, \(theirs.brokerBusyPercent) % with mosquitto_pub"
            }
            return [
                Measurement("mqtt_qos0_msgs_per_s", rate0(ours0), unit: "msg/s", target: .info(), note: note0),
                Measurement("mqtt_qos1_msgs_per_s", rate1(ours1), unit: "msg/s", target: .info(), note: note1),
                Measurement(
                    "mosquitto_pub_qos0_msgs_per_s", rate0(theirs0), unit: "msg/s", target: .info(), note: note0),
                Measurement(
                    "mosquitto_pub_qos1_msgs_per_s", rate1(theirs1), unit: "msg/s", target: .info(), note: note1),
                Measurement(
                    "mqtt_qos0_ratio_vs_mosquitto_pub", theirs0.seconds / ours0.seconds, unit: "×",
                    target: Targets.mqttThroughputRatio, note: busy(ours0, theirs0)),
                Measurement(
                    "mqtt_qos1_ratio_vs_mosquitto_pub", theirs1.seconds / ours1.seconds, unit: "×",
                    target: Targets.mqttThroughputRatio, note: busy(ours1, theirs1)),
            ]
        }
    }

    /// How long a client took, and how much of that time the broker spent on the CPU.
    struct TimedRun {
        var seconds: Double
        var brokerCPUSeconds: Double

        /// The broker's CPU time over the run's wall time, as a whole percentage.
        var brokerBusyPercent: Int { Int((100 * brokerCPUSeconds / seconds).rounded()) }

        /// Times from `start` until `ended`, the broker's CPU time from `brokerCPUAtStart`.
        init(
            _ broker: BenchBroker, from start: ContinuousClock.Instant, to ended: ContinuousClock.Instant,
            brokerCPUAtStart: Double?
        ) {
            seconds = (ended - start).seconds
            let now = ProcessCPUClock.seconds(pid: broker.pid)
            brokerCPUSeconds = max(0, (now ?? 0) - (brokerCPUAtStart ?? now ?? 0))
        }
    }

    /// A client id the broker's log names once: each run waits for its own lines.
    private static func clientID(_ who: String) -> String {
        "tvbench-\(who)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Seconds from our client being connected until the broker has read its last message.
    private func ourClient(_ broker: BenchBroker, messages: ArraySlice<[UInt8]>, qos: MQTTQoS) async throws
        -> TimedRun
    {
        let id = Self.clientID("ours")
        let configuration = MQTTClientConfiguration(
            host: broker.host, port: broker.port, session: MQTTSessionConfiguration(clientID: id))
        let client = try MQTTClient(configuration: configuration, logger: .disabled)
        let running = Task { await client.run() }
        defer { running.cancel() }
        guard await client.waitUntilConnected(timeout: .seconds(10)) else {
            await client.stop()
            throw BenchError("our MQTT client could not connect")
        }
        let end = broker.watchForEnd(of: id, timeout: .seconds(300))
        let brokerCPU = ProcessCPUClock.seconds(pid: broker.pid)
        let start = ContinuousClock.now
        do {
            if qos == .atMostOnce {
                for message in messages { try await client.publish(Self.topic, message) }
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
            end.stop()
            await client.stop()
            throw error
        }
        // DISCONNECT goes out after everything queued before it.
        await client.stop()
        await running.value
        guard let ended = await end.seen() else {
            throw BenchError("the broker never logged the end of our client's connection")
        }
        return TimedRun(broker, from: start, to: ended, brokerCPUAtStart: brokerCPU)
    }

    /// Seconds from `mosquitto_pub -l` waiting on its empty stdin, connected, until the broker
    /// has read its last message. Its exit is not the end: it may sleep 100 ms before exiting.
    private func mosquittoPub(_ broker: BenchBroker, lines: [UInt8], qos: Int) async throws -> TimedRun {
        let id = Self.clientID("mosquitto-pub")
        let input = try PipeFeeder(lines)
        let process = try await ChildProcess.spawn(
            "mosquitto_pub",
            [
                "-h", broker.host, "-p", String(broker.port), "-i", id, "-t", Self.topic, "-q", String(qos),
                "-M", String(Self.inFlight), "-l",
            ], stdout: .discard, stderr: .capture, stdin: .file(input.inputPath))
        input.closeReadEnd()
        guard await broker.watchForConnection(of: id, timeout: .seconds(10)).seen() != nil else {
            input.feed()
            await process.terminate(grace: .milliseconds(500))
            throw BenchError("mosquitto_pub did not connect: \(process.capturedError())")
        }
        // Its main thread sleeps 100 ms when the CONNACK was not there at its first look; then
        // it reads stdin. Start the clock once that sleep is surely over.
        try await EventLoop.sleep(for: .milliseconds(300))
        let end = broker.watchForEnd(of: id, timeout: .seconds(300))
        let brokerCPU = ProcessCPUClock.seconds(pid: broker.pid)
        let start = ContinuousClock.now
        input.feed()
        guard let status = await process.wait(timeout: .seconds(300)) else {
            end.stop()
            await process.terminate(grace: .milliseconds(500))
            throw BenchError("mosquitto_pub did not finish")
        }
        if !status.isSuccess { end.stop() }
        guard status.isSuccess, let ended = await end.seen() else {
            throw BenchError("mosquitto_pub failed (\(status)): \(process.capturedError())")
        }
        return TimedRun(broker, from: start, to: ended, brokerCPUAtStart: brokerCPU)
    }
}
