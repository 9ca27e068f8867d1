import Synchronization
import TVSimulators
import Wire

/// The ways a command reaches a TV. Every latency scenario has one row per transport; the ones
/// not built yet print n/a, so Samsung and ECP-2 plug in by filling in `start(host:)` here.
enum Transport: String, CaseIterable, Sendable {
    case rokuHTTP = "roku_http"
    case rokuECP2 = "roku_ecp2"
    case samsung = "samsung"

    var label: String {
        switch self {
        case .rokuHTTP: "Roku HTTP ECP"
        case .rokuECP2: "Roku ECP-2"
        case .samsung: "Samsung"
        }
    }

    /// Why this transport cannot be measured yet; nil when it can.
    var unavailableReason: String? {
        switch self {
        case .rokuHTTP: nil
        // ECP-2 (wt-ecp2) and the Samsung simulator and driver (wt-samsung-*) are not on main yet.
        case .rokuECP2, .samsung: "not built yet"
        }
    }

    /// A simulated TV in this process, on `host` (loopback), on a free port.
    func start(host: String) async throws -> any BenchTV {
        switch self {
        case .rokuHTTP: return try await RokuBenchTV.start(host: host)
        case .rokuECP2, .samsung: throw BenchError("\(label): \(unavailableReason ?? "")")
        }
    }
}

/// A simulated TV as the scenarios need it: an address for the bridge, the time it received
/// each command, and a way to change its state as its own remote would.
protocol BenchTV: Sendable {
    /// The bridge's `--tv` value.
    var bridgeFlag: String { get }
    var host: String { get }
    var port: UInt16 { get }
    /// A key the bridge accepts for this TV that changes no state (so no state is published).
    var neutralKeys: [String] { get }
    /// Wall-clock seconds when the TV received its first command at or after `since`; nil
    /// when none came within `timeout`.
    func receivedCommand(after since: Double, timeout: Duration) async -> Double?
    /// Changes the state (step 0, 1, 2… alternate) and returns the state-document field and
    /// value the bridge should publish for it.
    func changeState(step: Int) throws -> (field: String, value: String)
    func stop() async
}

/// A `RokuSimulator` speaking HTTP ECP, with an in-memory command log whose `at` stamps
/// (wall clock, µs) are the receive times: simulator and benchmark share one clock.
final class RokuBenchTV: BenchTV {
    let simulator: RokuSimulator
    let log: CommandLog

    private init(simulator: RokuSimulator, log: CommandLog) {
        self.simulator = simulator
        self.log = log
    }

    static func start(host: String) async throws -> RokuBenchTV {
        let log = CommandLog.memory()
        let simulator = try await RokuSimulator.start(RokuSimulatorOptions(host: host, port: 0, kind: .tv), log: log)
        return RokuBenchTV(simulator: simulator, log: log)
    }

    var host: String { simulator.host }
    var port: UInt16 { simulator.port }
    var bridgeFlag: String { "roku:\(simulator.host):\(simulator.port)" }
    /// Up and Down are accepted and change nothing on the simulated screen.
    var neutralKeys: [String] { ["up", "down"] }

    func receivedCommand(after since: Double, timeout: Duration) async -> Double? {
        // `at` is rounded to the microsecond; allow that much below `since`.
        let floor = since - 0.000_001
        let entry = await log.waitFor(timeout: timeout) { ($0["at"]?.doubleValue ?? 0) >= floor }
        return entry?["at"]?.doubleValue
    }

    func changeState(step: Int) throws -> (field: String, value: String) {
        // Netflix and YouTube in turn: the bridge sees the change at its next active-app poll.
        let app = step % 2 == 0 ? "12" : "837"
        try simulator.apply(.object(["app": .string(app)]))
        return ("app_id", app)
    }

    func stop() async { await simulator.stop() }
}

/// Loopback addresses of the benchmark, away from the 127.0.x.y the tests and the quick start
/// use, so a benchmark run next to them does not collide.
enum BenchAddresses {
    static let commandTV = "127.77.0.1"
    static let stateTV = "127.77.0.2"
    static let driverTV = "127.77.0.3"
    /// `idle`'s ten TVs: 127.77.1.1…
    static func idleTV(_ index: Int) -> String { "127.77.1.\(index + 1)" }
    /// `fleet`'s first TV; the rest follow (127.78.0.1 … 127.78.3.232 for 1,000).
    static let fleetFirst = "127.78.0.1"
}
