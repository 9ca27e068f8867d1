import Glibc
import Harness
import Net
import Support

/// `fleet`: `tvsim fleet` with many TVs on their own loopback addresses, found by SSDP (a
/// search to the loopback broadcast address, which every simulated TV answers), polled every
/// 10 s: the four vendors in quarters, Rokus (ECP on one free port), Samsungs (on their standard
/// ports 8001, 8002 and 9197), LGs (3000, 3001, 1754) and Android TVs (6466, 6467; found by
/// mDNS), each at its own address, 1,000 by default (`--fleet-size`). Samsungs, LGs and Android
/// TVs are not paired: a bridge polls a TV it holds no token (client key, pin) for without
/// opening its remote channel (it would show the TV's prompt or code): a Samsung over REST, an
/// LG and an Android TV by a TCP connect to their remote port.
///
/// Ready: from starting the bridge until every TV has its Home Assistant discovery config and
/// its state published. Then a steady state (60 s, 10 s with `--quick`) in which the bridge's
/// CPU time, the highest resident memory (VmHWM) and descriptors are read from /proc at both ends.
///
/// What a TV costs: a tenth of the fleet is run first the same way (its own tvsim, broker and
/// bridge), and `fleet_rss_per_tv_kb` is the growth of the RSS at the end of the steady state
/// between the two sizes, divided by the TVs added: what the bridge itself needs is the same
/// in both runs and drops out. `--fleet-sizes` names every size instead (smallest and largest
/// give the figure per TV; `--svg` draws them all).
struct Fleet: Scenario {
    static let name = "fleet"

    var metrics: [(name: String, unit: String)] {
        [
            ("fleet_ready_s", "s"), ("fleet_cpu_percent", "%"), ("fleet_rss_mb", "MB"), ("fleet_rss_per_tv_kb", "KB"),
            ("fleet_fds", "fds"), ("fleet_fds_growth", "fds"),
        ]
    }

    /// One fleet's figures.
    private struct Run {
        let readySeconds: Double
        let cpuPercent: Double
        let steadySeconds: Double
        let before: ProcessStats
        let after: ProcessStats
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let largest = options.fleetSize ?? (options.quick ? 50 : 1000)
        let sizes = options.fleetSizes ?? [max(10, largest / 10), largest]
        let steady: Duration = options.quick ? .seconds(10) : .seconds(60)
        var measured: [(size: Int, run: Run)] = []
        for size in sizes {
            let run = try await fleet(size: size, steady: steady)
            measured.append((size, run))
            PlotSamples.shared.addFleet(
                .init(
                    tvs: size, peakRSSMB: run.after.peakRSSMB, endRSSMB: run.after.rssMB, cpuPercent: run.cpuPercent))
        }
        let (small, reference) = measured[0]
        let (size, result) = measured[measured.count - 1]
        let targets = FleetTargets(size: size)
        let (rokus, samsungs, lgs, androidTVs) = Self.mix(size)
        let what =
            "\(rokus) Rokus + \(samsungs) Samsungs + \(lgs) LGs + \(androidTVs) Android TVs, SSDP and mDNS, poll 10 s"
        let perTV = size > small ? (result.after.rssMB - reference.after.rssMB) * 1024 / Double(size - small) : nil
        return [
            Measurement(
                "fleet_ready_s", result.readySeconds, unit: "s", target: .atMost(FleetTargets.readySeconds, "s"),
                note: what),
            Measurement(
                "fleet_cpu_percent", result.cpuPercent, unit: "%", target: .atMost(targets.cpuPercent, "%"),
                note: "\(Report.format(result.steadySeconds)) s steady state, of one core"),
            Measurement(
                "fleet_rss_mb", result.after.peakRSSMB, unit: "MB", target: .atMost(targets.rssMB, "MB"),
                note:
                    "VmHWM; VmRSS \(Report.format(result.after.rssMB)) MB at the end (\(result.after.breakdown))"),
            Measurement(
                "fleet_rss_per_tv_kb", perTV, unit: "KB",
                target: .info("slope of the target: \(Report.format(FleetTargets.rssKBPerTV)) KB"),
                note:
                    "VmRSS at the end: \(Report.format(reference.after.rssMB)) MB with \(small) TVs, \(Report.format(result.after.rssMB)) MB with \(size)"
            ),
            Measurement("fleet_fds", Double(result.after.openFDs), unit: "fds", target: .info("stable")),
            Measurement(
                "fleet_fds_growth", Double(result.after.openFDs - result.before.openFDs), unit: "fds",
                target: Targets.fleetFDGrowth, note: "over the steady state"),
        ]
    }

    /// The four vendors in quarters (the Rokus take the remainder).
    static func mix(_ size: Int) -> (rokus: Int, samsungs: Int, lgs: Int, androidTVs: Int) {
        (size - 3 * (size / 4), size / 4, size / 4, size / 4)
    }

    /// Starts `tvsim fleet` with `size` TVs and measures a bridge finding and polling them.
    private func fleet(size: Int, steady: Duration) async throws -> Run {
        let (rokus, samsungs, lgs, androidTVs) = Self.mix(size)
        let directory = try TemporaryDirectory(prefix: "tvbench-fleet")
        let simulators = try await FleetSimulators.start(
            rokus: rokus, samsungs: samsungs, lgs: lgs, androidTVs: androidTVs, in: directory)
        do {
            let result = try await measure(
                size: size, steady: steady, ssdpPort: simulators.ssdpPort, mdnsPort: simulators.mdnsPort)
            await simulators.stop()
            directory.remove()
            return result
        } catch {
            await simulators.stop()
            throw error
        }
    }

    private func measure(size: Int, steady: Duration, ssdpPort: UInt16, mdnsPort: UInt16?) async throws -> Run {
        try await withBroker { broker in
            // Subscribed before the bridge starts, so every first publication is stamped.
            try await withProbe(broker, filters: ["bench/+/state", "homeassistant/device/+/config"]) { probe in
                var settings = BridgeSettings(ssdpAddress: "127.255.255.255:\(ssdpPort)", pollInterval: 10)
                settings.mdnsAddress = mdnsPort.map { "127.255.255.255:\($0)" }
                let startedAt = wallClockSeconds()
                return try await withBridge(settings, broker: broker) { bridge in
                    func published() -> (states: Int, configs: Int) {
                        (
                            probe.count {
                                $0.hasPrefix("bench/") && $0.hasSuffix("/state") && $0 != "bench/bridge/state"
                            },
                            probe.count { $0.hasPrefix("homeassistant/device/") }
                        )
                    }
                    let ready = await waitUntil(timeout: .seconds(120), interval: .milliseconds(50)) {
                        let counts = published()
                        return !bridge.process.isRunning || (counts.states >= size && counts.configs >= size)
                    }
                    try bridge.checkRunning()
                    let counts = published()
                    guard ready else {
                        throw BenchError(
                            "after 120 s: \(counts.states) states and \(counts.configs) discovery configs of \(size)")
                    }
                    let readyAt = latestFirstPublication(probe)
                    guard let before = bridge.stats() else { throw BenchError("cannot read /proc for the bridge") }
                    let clock = ContinuousClock()
                    let steadyStart = clock.now
                    try await EventLoop.sleep(for: steady)
                    try bridge.checkRunning()
                    guard let after = bridge.stats() else { throw BenchError("cannot read /proc for the bridge") }
                    let elapsed = (clock.now - steadyStart).seconds
                    return Run(
                        readySeconds: readyAt - startedAt,
                        cpuPercent: (after.cpuSeconds - before.cpuSeconds) / elapsed * 100, steadySeconds: elapsed,
                        before: before, after: after)
                }
            }
        }
    }

    /// When the last of the states and configs first appeared: the moment the fleet was ready.
    private func latestFirstPublication(_ probe: MQTTProbe) -> Double {
        let topics = probe.topics {
            ($0.hasSuffix("/state") && $0 != "bench/bridge/state") || $0.hasPrefix("homeassistant/device/")
        }
        return topics.compactMap { probe.firstSeen($0) }.max() ?? wallClockSeconds()
    }
}
