import Synchronization

/// The raw figures of the run in progress that `--svg` draws: every latency sample of each
/// client and transport, and each fleet size's memory and CPU. Scenarios add to it as they
/// measure; the report keeps only medians.
final class PlotSamples: Sendable {
    static let shared = PlotSamples()

    /// One box of the latency plot: a client or transport, in a group of the same task.
    struct LatencySeries: Sendable {
        let group: String
        let label: String
        var samples: [Double]
    }

    /// One fleet measured: its size, the bridge's peak and final RSS, and its steady CPU.
    struct FleetPoint: Sendable {
        let tvs: Int
        let peakRSSMB: Double
        let endRSSMB: Double
        let cpuPercent: Double
    }

    private let state = Mutex<(latency: [LatencySeries], fleet: [FleetPoint])>(([], []))

    /// Adds `samples` (ms) to the series `label` of `group`; several runs add to one series.
    func addLatency(group: String, label: String, samples: [Double]) {
        guard !samples.isEmpty else { return }
        state.withLock { state in
            if let index = state.latency.firstIndex(where: { $0.group == group && $0.label == label }) {
                state.latency[index].samples += samples
            } else {
                state.latency.append(LatencySeries(group: group, label: label, samples: samples))
            }
        }
    }

    func addFleet(_ point: FleetPoint) {
        state.withLock { $0.fleet.append(point) }
    }

    var latency: [LatencySeries] { state.withLock { $0.latency } }
    var fleet: [FleetPoint] { state.withLock { $0.fleet } }
}

/// The groups of the latency plot, one name each.
enum LatencyGroup {
    static let mqtt = "tv2mqtt: MQTT publish → the TV has the command"
    static let rokuClient = "Roku keypress, the client alone → the TV's answer"
    static let samsungClient = "Samsung key, the client alone → the TV has it"
    static let lgClient = "LG key, the client alone → the TV has it"
    static let androidTVClient = "Android TV key, the client alone → the TV has it"
}
