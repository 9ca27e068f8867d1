import Glibc
import Harness
import Net
import Support

/// `state-latency`: a change made on the simulated TV (as its own remote would) until
/// `<base>/<tv>/state` shows it.
///
/// Poll: the bridge notices at its next poll, so each change is made at a random moment of the
/// poll cycle and the p99 approaches the poll interval; the target is interval + 50 ms. The
/// interval is shortened from the default 10 s (2 s, 1 s with `--quick`) so enough samples fit
/// in a run; what is measured (interval + the cost of one poll and publish) scales the same.
/// Push: a Roku with ECP-2, whose session pushes every change (`plugin-ui-run` for a new app);
/// the bridge publishes on the notify, without waiting for a poll. The poll interval stays at
/// the default 10 s there, so a change seen within it can only have come by push. The same
/// for a Samsung's volume, pushed by a UPnP NOTIFY to the bridge's GENA subscription: the
/// figure the test suite no longer times (it shows only that the change came with no poll).
struct StateLatency: Scenario {
    static let name = "state-latency"

    var metrics: [(name: String, unit: String)] {
        [
            ("state_latency_push_p99_ms", "ms"), ("state_latency_push_p50_ms", "ms"),
            ("state_latency_samsung_push_p99_ms", "ms"), ("state_latency_samsung_push_p50_ms", "ms"),
            ("state_latency_poll_p99_ms", "ms"), ("state_latency_poll_p50_ms", "ms"),
        ]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let interval = options.quick ? 1.0 : 2.0
        let count = options.quick ? 5 : 20
        let samples = try await measure(.rokuHTTP, interval: interval, count: count, phase: interval)
        let pollTarget = Targets.statePollP99(intervalSeconds: interval)
        let note = "\(samples.count) changes, poll interval \(Report.format(interval)) s"
        let pushCount = options.quick ? 10 : 50
        let push = try await measure(.rokuECP2, interval: 10, count: pushCount, phase: 0.2)
        let upnp = try await measure(.samsung, interval: 10, count: pushCount, phase: 0.2)
        let upnpNote = "\(upnp.count) volume changes pushed by UPnP events, poll interval 10 s"
        return [
            Measurement(
                "state_latency_push_p99_ms", Statistics.percentile(push, 99), unit: "ms", target: Targets.statePushP99,
                note: "\(push.count) app changes pushed over ECP-2, poll interval 10 s"),
            Measurement(
                "state_latency_push_p50_ms", Statistics.percentile(push, 50), unit: "ms", target: .info(),
                note: "ECP-2"),
            Measurement(
                "state_latency_samsung_push_p99_ms", Statistics.percentile(upnp, 99), unit: "ms",
                target: Targets.statePushP99, note: upnpNote),
            Measurement(
                "state_latency_samsung_push_p50_ms", Statistics.percentile(upnp, 50), unit: "ms", target: .info(),
                note: "UPnP GENA"),
            Measurement(
                "state_latency_poll_p99_ms", Statistics.percentile(samples, 99), unit: "ms", target: pollTarget,
                note: note),
            Measurement(
                "state_latency_poll_p50_ms", Statistics.percentile(samples, 50), unit: "ms", target: .info(),
                note: note),
        ]
    }

    /// `count` changes, each after a random pause of up to `phase` seconds.
    private func measure(_ transport: Transport, interval: Double, count: Int, phase: Double) async throws
        -> [Double]
    {
        try await withBroker { broker in
            try await withTVs(transport, hosts: [BenchAddresses.stateTV]) { tvs in
                let tv = tvs[0]
                let settings = BridgeSettings(tvs: [tv.bridgeFlag], pollInterval: interval)
                return try await withBridge(settings, broker: broker) { bridge in
                    try await withProbe(broker, filters: ["\(bridge.baseTopic)/+/state"]) { probe in
                        let id = try await waitForTVs(1, probe: probe, bridge: bridge, timeout: .seconds(15))[0]
                        guard await tv.waitUntilReady(timeout: .seconds(15)) else {
                            throw BenchError("\(transport.label): the bridge never opened its session")
                        }
                        var samples: [Double] = []
                        for step in 0..<count {
                            // A random phase of the poll cycle, so the samples cover all of it.
                            try await EventLoop.sleep(for: .milliseconds(Int.random(in: 0...Int(phase * 1000))))
                            let changed = wallClockSeconds()
                            let (field, value) = try tv.changeState(step: step)
                            let shown = await waitUntil(timeout: .seconds(interval * 3 + 2), interval: .milliseconds(5))
                            {
                                probe.state(base: bridge.baseTopic, tv: id)?[field] == value
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
