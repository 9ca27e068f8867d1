import Net
import Synchronization
import TVSimulators
import Wire

/// The ways a command reaches a TV. Every latency scenario has one row per transport.
enum Transport: String, CaseIterable, Sendable {
    case rokuHTTP = "roku_http"
    case rokuECP2 = "roku_ecp2"
    case samsung = "samsung"
    case lg = "lg"

    var label: String {
        switch self {
        case .rokuHTTP: "Roku HTTP ECP"
        case .rokuECP2: "Roku ECP-2"
        case .samsung: "Samsung"
        case .lg: "LG"
        }
    }

    /// A simulated TV in this process, on `host` (loopback): a Roku on a free port, a Samsung
    /// on its standard ports (8001, 8002, 9197), an LG on its own (3000, 3001, 1754), which
    /// their own address keeps free. An LG pairs on the warm-up's first key (it approves at once).
    func start(host: String) async throws -> any BenchTV {
        switch self {
        case .rokuHTTP: return try await RokuBenchTV.start(host: host, ecp2: false)
        case .rokuECP2: return try await RokuBenchTV.start(host: host, ecp2: true)
        case .samsung: return try await SamsungBenchTV.start(host: host)
        case .lg: return try await LGBenchTV.start(host: host)
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
    /// Waits until commands from the bridge take this transport (an ECP-2 session is up);
    /// false when they did not within `timeout`.
    func waitUntilReady(timeout: Duration) async -> Bool
    /// Wall-clock seconds when the TV received its first command at or after `since`; nil
    /// when none came within `timeout`.
    func receivedCommand(after since: Double, timeout: Duration) async -> Double?
    /// Changes the state (step 0, 1, 2… alternate) and returns the state-document field and
    /// value the bridge should publish for it.
    func changeState(step: Int) throws -> (field: String, value: JSONValue)
    func stop() async
}

/// A `RokuSimulator` speaking HTTP ECP (and ECP-2 when `ecp2`), with an in-memory command log
/// whose `at` stamps (wall clock, µs) are the receive times: simulator and benchmark share
/// one clock.
final class RokuBenchTV: BenchTV {
    let simulator: RokuSimulator
    let log: CommandLog
    /// Only keypresses that came over an ECP-2 session count (HTTP ones, sent while the
    /// session was down, would measure the other transport).
    let ecp2: Bool

    private init(simulator: RokuSimulator, log: CommandLog, ecp2: Bool) {
        self.simulator = simulator
        self.log = log
        self.ecp2 = ecp2
    }

    static func start(host: String, ecp2: Bool) async throws -> RokuBenchTV {
        let log = CommandLog.memory()
        let options = RokuSimulatorOptions(host: host, port: 0, kind: .tv, ecp2: ecp2)
        let simulator = try await RokuSimulator.start(options, log: log)
        return RokuBenchTV(simulator: simulator, log: log, ecp2: ecp2)
    }

    /// The bridge opens its ECP-2 session at its first poll; commands use it once it is
    /// authenticated (logged as `ecp2-auth`), a moment later.
    func waitUntilReady(timeout: Duration) async -> Bool {
        guard ecp2 else { return true }
        guard await log.waitFor(timeout: timeout, { $0["kind"]?.stringValue == "ecp2-auth" }) != nil else {
            return false
        }
        try? await EventLoop.sleep(for: .milliseconds(500))
        return true
    }

    var host: String { simulator.host }
    var port: UInt16 { simulator.port }
    var bridgeFlag: String { "roku:\(simulator.host):\(simulator.port)" }
    /// Up and Down are accepted and change nothing on the simulated screen.
    var neutralKeys: [String] { ["up", "down"] }

    func receivedCommand(after since: Double, timeout: Duration) async -> Double? {
        // `at` is rounded to the microsecond; allow that much below `since`.
        let floor = since - 0.000_001
        let via = ecp2 ? "ecp-2" : nil
        let entry = await log.waitFor(timeout: timeout) {
            $0["kind"]?.stringValue == "keypress" && $0["via"]?.stringValue == via
                && ($0["at"]?.doubleValue ?? 0) >= floor
        }
        return entry?["at"]?.doubleValue
    }

    func changeState(step: Int) throws -> (field: String, value: JSONValue) {
        // Netflix and YouTube in turn: the bridge sees the change at its next active-app poll.
        let app = step % 2 == 0 ? "12" : "837"
        try simulator.apply(.object(["app": .string(app)]))
        return ("app_id", .string(app))
    }

    func stop() async { await simulator.stop() }
}

/// Loopback addresses of the benchmark, away from the 127.0.x.y the tests and the quick start
/// use, so a benchmark run next to them does not collide.
enum BenchAddresses {
    static let commandTV = "127.77.0.1"
    static let stateTV = "127.77.0.2"
    static let driverTV = "127.77.0.3"
    static let driverSamsung = "127.77.0.4"
    static let driverLG = "127.77.0.5"
    static let driverAndroidTV = "127.77.0.6"
    /// `idle`'s ten TVs: 127.77.1.1…
    static func idleTV(_ index: Int) -> String { "127.77.1.\(index + 1)" }
    /// `fleet`'s first TV; the rest follow (127.78.0.1 … 127.78.3.232 for 1,000).
    static let fleetFirst = "127.78.0.1"
}
