import Glibc
import Harness
import Support

/// `command-latency`: key commands published by an MQTT client to `<base>/<tv>/set/key`, each
/// timed from just before the publish until the simulated TV receives the keypress.
///
/// One command at a time (the next goes out once the previous one arrived): this measures how
/// long a button press takes, not how many fit through. The first 20 are a warm-up (the
/// bridge's first keypress opens the HTTP connection it keeps alive; a Samsung's first one
/// opens and pairs the TLS remote channel) and are not counted.
///
/// Transports: Roku HTTP ECP, Roku ECP-2 (the simulator with `ecp2: true`; measured once the
/// bridge's session is authenticated, and only keypresses that came over it count), Samsung
/// (the TLS remote WebSocket on 8002), LG (the pointer input socket over TLS on 3001).
struct CommandLatency: Scenario {
    static let name = "command-latency"
    static let warmUp = 20

    var metrics: [(name: String, unit: String)] {
        [("command_latency_p50_ms", "ms"), ("command_latency_p99_ms", "ms")]
            + Transport.allCases.flatMap { [(Self.metric($0, "p50"), "ms"), (Self.metric($0, "p99"), "ms")] }
    }

    static func metric(_ transport: Transport, _ percentile: String) -> String {
        "command_latency_\(transport.rawValue)_\(percentile)_ms"
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let count = options.quick ? 200 : 2000
        var measurements: [Measurement] = []
        var measured: [(Transport, p50: Double, p99: Double)] = []
        for transport in Transport.allCases {
            let samples: [Double]
            do {
                samples = try await measure(transport, count: count)
            } catch {
                // One transport failing still reports the others; the worst-of rows say so.
                let note = "\(transport.label) failed: \(error)"
                measurements.append(Measurement(Self.metric(transport, "p50"), nil, unit: "ms", note: note))
                measurements.append(Measurement(Self.metric(transport, "p99"), nil, unit: "ms", note: note))
                continue
            }
            PlotSamples.shared.addLatency(
                group: LatencyGroup.mqtt, label: "tv2mqtt, \(transport.label)", samples: samples)
            let p50 = Statistics.percentile(samples, 50) ?? .nan
            let p99 = Statistics.percentile(samples, 99) ?? .nan
            measured.append((transport, p50, p99))
            let note = "\(samples.count) commands, one at a time, QoS 0"
            measurements.append(
                Measurement(
                    Self.metric(transport, "p50"), p50, unit: "ms", target: Targets.commandLatencyP50, note: note))
            measurements.append(
                Measurement(
                    Self.metric(transport, "p99"), p99, unit: "ms", target: Targets.commandLatencyP99, note: note))
        }
        let missing = Transport.allCases.filter { transport in !measured.contains { $0.0 == transport } }
        let worstNote =
            "worst of " + measured.map(\.0.label).joined(separator: ", ")
            + (missing.isEmpty ? "" : " (\(missing.map(\.label).joined(separator: ", ")) failed)")
        let worstP50 = measured.map(\.p50).max()
        let worstP99 = measured.map(\.p99).max()
        return [
            Measurement(
                "command_latency_p50_ms", worstP50, unit: "ms", target: Targets.commandLatencyP50, note: worstNote),
            Measurement(
                "command_latency_p99_ms", worstP99, unit: "ms", target: Targets.commandLatencyP99, note: worstNote),
        ] + measurements
    }

    /// Latencies in milliseconds of `count` commands through one transport.
    private func measure(_ transport: Transport, count: Int) async throws -> [Double] {
        try await Self.timedCommands(transport, count: count).map { ($0.received - $0.sent) * 1000 }
    }

    /// Publish and receipt times (wall clock, s) of `count` commands after the warm-up, through
    /// one transport, with a bridge started with `settings` (and stopped before this returns).
    static func timedCommands(
        _ transport: Transport, count: Int, settings: BridgeSettings = BridgeSettings()
    ) async throws -> [(sent: Double, received: Double)] {
        try await withBroker { broker in
            try await withTVs(transport, hosts: [BenchAddresses.commandTV]) { tvs in
                let tv = tvs[0]
                var settings = settings
                settings.tvs = [tv.bridgeFlag]
                return try await withBridge(settings, broker: broker) { bridge in
                    try await withProbe(broker, filters: ["\(bridge.baseTopic)/+/state"]) { probe in
                        let id = try await waitForTVs(1, probe: probe, bridge: bridge, timeout: .seconds(15))[0]
                        guard await tv.waitUntilReady(timeout: .seconds(15)) else {
                            throw BenchError("\(transport.label): the bridge never opened its session")
                        }
                        let publisher = try await CommandPublisher.connect(to: broker, clientID: "tvbench-commands")
                        defer { publisher.close() }
                        return try await Self.send(
                            count, to: tv, id: id, publisher: publisher, probe: probe, base: bridge.baseTopic)
                    }
                }
            }
        }
    }

    private static func send(
        _ count: Int, to tv: any BenchTV, id: String, publisher: CommandPublisher, probe: MQTTProbe, base: String
    ) async throws -> [(sent: Double, received: Double)] {
        let viaProbe = getenv("TVBENCH_PUBLISH").map { String(cString: $0) } == "probe"
        let topic = "\(base)/\(id)/set/key"
        let keys = tv.neutralKeys
        var samples: [(sent: Double, received: Double)] = []
        samples.reserveCapacity(count)
        var lost = 0
        let deadline = ContinuousClock.now + .seconds(120)
        for index in 0..<(Self.warmUp + count) {
            guard ContinuousClock.now < deadline else { throw BenchError("command-latency took over 120 s") }
            let sent = wallClockSeconds()
            if viaProbe {
                try await probe.client.publish(topic, keys[index % keys.count])
            } else {
                try await publisher.publish(topic, keys[index % keys.count])
            }
            guard let received = await tv.receivedCommand(after: sent, timeout: .seconds(2)) else {
                lost += 1
                if lost > count / 20 { throw BenchError("more than 5 % of the commands never arrived") }
                continue
            }
            if index >= Self.warmUp { samples.append((sent, received)) }
        }
        return samples
    }
}
