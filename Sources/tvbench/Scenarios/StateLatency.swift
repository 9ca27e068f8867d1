import Glibc
import Harness
import Support

/// `state-latency`: a change made on the simulated TV (as its own remote would) until
/// `<base>/<tv>/state` shows it.
///
/// Poll: the bridge notices at its next poll, so each change is made at a random moment of the
/// poll cycle and the p99 approaches the poll interval; the target is interval + 50 ms. The
/// interval is shortened from the default 10 s (2 s, 1 s with `--quick`) so enough samples fit
/// in a run; what is measured (interval + the cost of one poll and publish) scales the same.
/// Push (ECP-2 events, Samsung's WebSocket) is n/a until those transports exist.
struct StateLatency: Scenario {
    static let name = "state-latency"

    var metrics: [(name: String, unit: String)] {
        [("state_latency_push_p99_ms", "ms"), ("state_latency_poll_p99_ms", "ms"), ("state_latency_poll_p50_ms", "ms")]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let interval = options.quick ? 1.0 : 2.0
        let count = options.quick ? 5 : 20
        let samples = try await measurePoll(interval: interval, count: count)
        let pollTarget = Target.atMost(interval * 1000 + 50, "ms")
        let note = "\(samples.count) changes, poll interval \(Report.format(interval)) s"
        return [
            Measurement(
                "state_latency_push_p99_ms", nil, unit: "ms", target: .atMost(100, "ms"),
                note: "push needs ECP-2 or Samsung events: not built yet"),
            Measurement(
                "state_latency_poll_p99_ms", Statistics.percentile(samples, 99), unit: "ms", target: pollTarget,
                note: note),
            Measurement(
                "state_latency_poll_p50_ms", Statistics.percentile(samples, 50), unit: "ms", target: .info(),
                note: note),
        ]
    }

    private func measurePoll(interval: Double, count: Int) async throws -> [Double] {
        try await withBroker { broker in
            try await withTVs(.rokuHTTP, hosts: [BenchAddresses.stateTV]) { tvs in
                let tv = tvs[0]
                let settings = BridgeSettings(tvs: [tv.bridgeFlag], pollInterval: interval)
                return try await withBridge(settings, broker: broker) { bridge in
                    try await withProbe(broker, filters: ["\(bridge.baseTopic)/+/state"]) { probe in
                        let id = try await waitForTVs(1, probe: probe, bridge: bridge, timeout: .seconds(15))[0]
                        var samples: [Double] = []
                        for step in 0..<count {
                            // A random phase of the poll cycle, so the samples cover all of it.
                            try await Task.sleep(for: .milliseconds(Int.random(in: 0...Int(interval * 1000))))
                            let changed = wallClockSeconds()
                            let (field, value) = try tv.changeState(step: step)
                            let shown = await waitUntil(timeout: .seconds(interval * 3 + 2), interval: .milliseconds(5))
                            {
                                probe.state(base: bridge.baseTopic, tv: id)?[field]?.stringValue == value
                            }
                            try bridge.checkRunning()
                            guard shown, let seen = probe.seen("\(bridge.baseTopic)/\(id)/state") else {
                                throw BenchError("the state never showed \(field) = \(value)")
                            }
                            samples.append((seen.at - changed) * 1000)
                        }
                        return samples
                    }
                }
            }
        }
    }
}
