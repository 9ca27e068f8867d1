import Glibc
import Harness
import Net
import Support
import TVSimulators
import Wire

/// `tvbench soak [--minutes N] [--tvs N]`: the bridge (a separate process) against simulated
/// Rokus for a long time, with their state changing and commands arriving all the while, and a
/// line every minute with the bridge's resident memory, descriptors and CPU. What it is for:
/// showing that nothing grows after warm-up, which a short benchmark cannot.
///
/// The churn, every second: one TV changes app, one toggles play/pause, one goes to standby or
/// back on (as if their own remotes were used), and one command is published (a key, an app
/// launch and a power command in turn). Every ten minutes one TV is stopped and started again.
enum Soak {
    struct Sample {
        var minute: Int
        var rssMB: Double
        var fds: Int
        var cpuPercent: Double
        var commands: Int
    }

    static func run(minutes: Int, tvCount: Int, json: Bool) async throws {
        let hosts = (0..<tvCount).map { "127.79.\($0 / 250).\($0 % 250 + 1)" }
        let log = CommandLog.memory()
        var simulators: [RokuSimulator] = []
        do {
            for host in hosts {
                simulators.append(try await RokuSimulator.start(RokuSimulatorOptions(host: host, port: 0), log: log))
            }
        } catch {
            for simulator in simulators { await simulator.stop() }
            throw error
        }
        let samples: [Sample]
        do {
            samples = try await soak(minutes: minutes, simulators: &simulators, log: log)
        } catch {
            for simulator in simulators { await simulator.stop() }
            throw error
        }
        for simulator in simulators { await simulator.stop() }
        report(samples, tvCount: tvCount, json: json)
    }

    private static func soak(minutes: Int, simulators: inout [RokuSimulator], log: CommandLog) async throws
        -> [Sample]
    {
        let tvCount = simulators.count
        return try await withBroker { broker in
            let settings = BridgeSettings(tvs: simulators.map { "roku:\($0.host):\($0.port)" }, pollInterval: 10)
            return try await withBridge(settings, broker: broker) { bridge in
                try await withProbe(broker, filters: ["\(bridge.baseTopic)/+/state"]) { probe in
                    _ = try await waitForTVs(tvCount, probe: probe, bridge: bridge, timeout: .seconds(60))
                    return try await churnAndSample(
                        minutes: minutes, simulators: &simulators, probe: probe, bridge: bridge, log: log)
                }
            }
        }
    }

    private static func churnAndSample(
        minutes: Int, simulators: inout [RokuSimulator], probe: MQTTProbe, bridge: BridgeProcess, log: CommandLog
    ) async throws -> [Sample] {
        var samples: [Sample] = []
        var previous = bridge.stats()
        var commands = 0
        let start = ContinuousClock.now
        for second in 1...(minutes * 60) {
            try churn(second: second, simulators: simulators)
            let target = simulators[second % simulators.count]
            let id = "roku_" + target.serial.lowercased()
            let topic = "\(bridge.baseTopic)/\(id)/set"
            let command = ["{\"key\":\"up\"}", "{\"app\":\"YouTube\"}", "{\"power\":\"ON\"}"][second % 3]
            try await probe.client.publish(topic, Array(command.utf8), qos: .atLeastOnce)
            commands += 1
            if second % 600 == 0 {  // a TV unplugged and back: its sockets must be let go
                let index = (second / 600) % simulators.count
                let host = simulators[index].host
                let port = simulators[index].port
                await simulators[index].stop()
                simulators[index] = try await RokuSimulator.start(
                    RokuSimulatorOptions(host: host, port: port), log: log)
            }
            try await EventLoop.sleep(until: start + .seconds(second))
            if second % 60 == 0 {
                try bridge.checkRunning()
                guard let now = bridge.stats(), let before = previous else { throw BenchError("cannot read /proc") }
                let sample = Sample(
                    minute: second / 60, rssMB: now.rssMB, fds: now.openFDs,
                    cpuPercent: (now.cpuSeconds - before.cpuSeconds) / 60 * 100, commands: commands)
                previous = now
                samples.append(sample)
                writeStandardError(
                    "tvbench soak: minute \(sample.minute): RSS \(Report.format(sample.rssMB)) MB, "
                        + "\(sample.fds) fds, CPU \(Report.format(sample.cpuPercent)) %, \(commands) commands, "
                        + "\(log.entries.count) received (log window)")
            }
        }
        return samples
    }

    /// The TVs' own remotes at work: app changes, play/pause, standby and back.
    private static func churn(second: Int, simulators: [RokuSimulator]) throws {
        let count = simulators.count
        let apps = ["12", "837", "13", "291097", "2285", "74519"]
        try simulators[(second * 7) % count].apply(["app": .string(apps[second % apps.count])])
        try simulators[(second * 11 + 3) % count].apply(
            ["media_state": .string(second % 2 == 0 ? "pause" : "play")])
        let sleeper = simulators[(second * 13 + 5) % count]
        try sleeper.apply(["power": .string(sleeper.state.power == .on ? "standby" : "on")])
    }

    /// The minute lines again, and the growth after the warm-up (the first quarter, at least
    /// five minutes): the last sample against the first one after warm-up.
    private static func report(_ samples: [Sample], tvCount: Int, json: Bool) {
        guard let last = samples.last else { return }
        let warm = samples.first { $0.minute >= max(5, samples.count / 4) } ?? samples[0]
        let rows = samples.map { sample -> JSONValue in
            [
                "minute": .integer(Int64(sample.minute)), "rss_mb": .number(Report.rounded(sample.rssMB)),
                "fds": .integer(Int64(sample.fds)), "cpu_percent": .number(Report.rounded(sample.cpuPercent)),
                "commands": .integer(Int64(sample.commands)),
            ]
        }
        let summary: JSONValue = [
            "tvs": .integer(Int64(tvCount)), "minutes": .integer(Int64(last.minute)),
            "warm_minute": .integer(Int64(warm.minute)),
            "rss_growth_after_warmup_mb": .number(Report.rounded(last.rssMB - warm.rssMB)),
            "fd_growth_after_warmup": .integer(Int64(last.fds - warm.fds)),
            "peak_rss_mb": .number(Report.rounded(samples.map(\.rssMB).max() ?? 0)), "samples": .array(rows),
        ]
        if json {
            print(summary.prettyPrinted())
        } else {
            print("minute  rss_mb  fds  cpu_%  commands")
            for sample in samples {
                print(
                    "\(sample.minute)\t\(Report.format(sample.rssMB))\t\(sample.fds)\t"
                        + "\(Report.format(sample.cpuPercent))\t\(sample.commands)")
            }
            print(
                "after warm-up (minute \(warm.minute) → \(last.minute)): RSS \(Report.format(last.rssMB - warm.rssMB)) MB, "
                    + "fds \(last.fds - warm.fds)")
        }
    }
}
