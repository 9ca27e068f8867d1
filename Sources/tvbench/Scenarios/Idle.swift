import Harness
import Net

/// `idle`: the bridge with 10 TVs and nothing happening (the default 10 s poll) for 60 s (5 s
/// with `--quick`): its resident memory at the end, and its CPU time over the period, to the
/// nanosecond from its CPU-time clock (/proc counts 10 ms ticks: too coarse for 0.05 %).
struct Idle: Scenario {
    static let name = "idle"
    static let tvCount = 10

    var metrics: [(name: String, unit: String)] {
        [("idle_rss_mb", "MB"), ("idle_cpu_percent", "%")]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        try await Self.measure(options: options, prefix: "idle", extraArguments: [], note: "") { _ in {} }
    }

    /// The idle measurement, named `<prefix>_rss_mb` and `<prefix>_cpu_percent`; `attach` runs
    /// once the TVs are up, before the period, and returns what ends it.
    static func measure(
        options: BenchOptions, prefix: String, extraArguments: [String], note extra: String,
        attach: (BridgeProcess) async throws -> @Sendable () -> Void
    ) async throws -> [Measurement] {
        let period: Duration = options.quick ? .seconds(5) : .seconds(60)
        let hosts = (0..<Self.tvCount).map(BenchAddresses.idleTV)
        return try await withBroker { broker in
            try await withTVs(.rokuHTTP, hosts: hosts) { tvs in
                var settings = BridgeSettings(tvs: tvs.map(\.bridgeFlag), pollInterval: 10)
                settings.extraArguments = extraArguments
                return try await withBridge(settings, broker: broker) { bridge in
                    try await withProbe(broker, filters: ["\(bridge.baseTopic)/+/state"]) { probe in
                        _ = try await waitForTVs(Self.tvCount, probe: probe, bridge: bridge, timeout: .seconds(20))
                        let detach = try await attach(bridge)
                        defer { detach() }
                        // Let the start-up work (discovery configs, the stale-config sweep's 2 s) finish.
                        try await EventLoop.sleep(for: .seconds(3))
                        guard let before = bridge.stats() else { throw BenchError("cannot read /proc for the bridge") }
                        let cpuBefore = ProcessCPUClock.seconds(pid: bridge.pid)
                        let clock = ContinuousClock()
                        let start = clock.now
                        try await EventLoop.sleep(for: period)
                        try bridge.checkRunning()
                        guard let after = bridge.stats() else { throw BenchError("cannot read /proc for the bridge") }
                        let cpuAfter = ProcessCPUClock.seconds(pid: bridge.pid)
                        let elapsed = (clock.now - start).seconds
                        var note = "\(Self.tvCount) Rokus, poll 10 s\(extra), \(Report.format(elapsed)) s"
                        let cpuSeconds: Double
                        if let cpuBefore, let cpuAfter {
                            cpuSeconds = cpuAfter - cpuBefore
                            note += "; CPU from its CPU-time clock (ns)"
                        } else {
                            cpuSeconds = after.cpuSeconds - before.cpuSeconds
                            note += "; CPU in 10 ms ticks (its CPU-time clock could not be read)"
                        }
                        return [
                            Measurement(
                                "\(prefix)_rss_mb", after.rssMB, unit: "MB", target: Targets.idleRSS,
                                note: "VmRSS (\(after.breakdown)); peak \(Report.format(after.peakRSSMB)) MB"),
                            Measurement(
                                "\(prefix)_cpu_percent", cpuSeconds / elapsed * 100, unit: "%",
                                target: Targets.idleCPU, note: note),
                        ]
                    }
                }
            }
        }
    }
}
