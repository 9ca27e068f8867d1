import Harness
import Support

/// What the command line asked for.
struct BenchOptions: Sendable {
    /// Small counts and short waits, for CI: the whole run stays under a minute.
    var quick = false
    var json = false
    /// Runs per scenario; the table shows each metric's median. Default 3 (1 with `--quick`).
    var runs: Int?
    /// `--fleet-size N`: TVs in `fleet` (default 1,000; 50 with `--quick`).
    var fleetSize: Int?
    /// `--fleet-sizes A,B,…`: every size `fleet` measures, ascending; the largest is reported.
    var fleetSizes: [Int]?
    /// `--svg DIR`: where to draw the run's plots.
    var svgDirectory: String?
    /// `--markdown FILE`: where to write the README's performance table of this run.
    var markdownFile: String?
    var scenarios: [String] = []

    var effectiveRuns: Int { runs ?? (quick ? 1 : 3) }
}

/// One benchmark scenario of the issue. A run sets everything up itself, measures, and stops
/// everything it started, also when it fails.
protocol Scenario: Sendable {
    static var name: String { get }
    /// The metrics a run reports, with units: printed as n/a when the run fails.
    var metrics: [(name: String, unit: String)] { get }
    func run(options: BenchOptions) async throws -> [Measurement]
}

extension Scenario {
    /// The scenario's metrics, unmeasured, with `why`.
    func failed(_ why: String) -> [Measurement] {
        metrics.map { Measurement($0.name, nil, unit: $0.unit, note: why) }
    }
}

/// Every scenario, in the order they run.
let allScenarios: [any Scenario] = [
    CommandLatency(), LatencyBudget(), DriverLatency(), StateLatency(), Fleet(), Idle(), IdlePage(), MQTTThroughput(),
    LoopStalls(),
]

/// Runs `body` with a fresh broker, and stops the broker afterwards, also when `body` throws.
func withBroker<T>(_ body: (BenchBroker) async throws -> T) async throws -> T {
    let broker = try await BenchBroker.start()
    do {
        let result = try await body(broker)
        await broker.stop()
        return result
    } catch {
        await broker.stop()
        throw error
    }
}

/// Runs `body` with the bridge started, and stops it afterwards, also when `body` throws.
func withBridge<T>(
    _ settings: BridgeSettings, broker: BenchBroker, _ body: (BridgeProcess) async throws -> T
) async throws -> T {
    let bridge = try await BridgeProcess.start(settings, broker: broker)
    do {
        let result = try await body(bridge)
        await bridge.stop()
        return result
    } catch {
        await bridge.stop()
        throw error
    }
}

/// Runs `body` with a probe connected, and disconnects it afterwards.
func withProbe<T>(
    _ broker: BenchBroker, filters: [String], _ body: (MQTTProbe) async throws -> T
) async throws -> T {
    let probe = try await MQTTProbe.connect(to: broker, clientID: "tvbench-probe", filters: filters)
    do {
        let result = try await body(probe)
        await probe.stop()
        return result
    } catch {
        await probe.stop()
        throw error
    }
}

/// Runs `body` with simulated TVs started, and stops them afterwards.
func withTVs<T>(
    _ transport: Transport, hosts: [String], _ body: ([any BenchTV]) async throws -> T
) async throws -> T {
    var tvs: [any BenchTV] = []
    do {
        for host in hosts { tvs.append(try await transport.start(host: host)) }
        let result = try await body(tvs)
        for tv in tvs { await tv.stop() }
        return result
    } catch {
        for tv in tvs { await tv.stop() }
        throw error
    }
}

/// Waits until the bridge has published a state for `count` TVs; returns their ids.
func waitForTVs(
    _ count: Int, probe: MQTTProbe, bridge: BridgeProcess, timeout: Duration
) async throws -> [String] {
    let ready = await waitUntil(timeout: timeout, interval: .milliseconds(20)) {
        !bridge.process.isRunning || probe.tvIDs(base: bridge.baseTopic).count >= count
    }
    try bridge.checkRunning()
    let ids = probe.tvIDs(base: bridge.baseTopic)
    guard ready, ids.count >= count else {
        throw BenchError("only \(ids.count) of \(count) TVs published within \(timeout): \(bridge.logTail(lines: 3))")
    }
    return ids
}
