import TVSimulators
import Wire

/// An `AndroidTVSimulator` on its standard ports (6466, 6467, /sim/state on 6468) at its own
/// loopback address. Every client pairs in its warm-up, reading the code the simulated screen
/// shows from /sim/state (as a user reads it off the screen); keys arrive over the remote
/// session and are logged as kind `key`.
final class AndroidTVBenchTV: KeyLoggingBenchTV {
    static let keyKind = "key"

    let simulator: AndroidTVSimulator
    let log: CommandLog

    private init(simulator: AndroidTVSimulator, log: CommandLog) {
        self.simulator = simulator
        self.log = log
    }

    static func start(host: String) async throws -> AndroidTVBenchTV {
        let log = CommandLog.memory()
        var options = AndroidTVSimulatorOptions()
        options.host = host
        let simulator = try await AndroidTVSimulator.start(options, log: log)
        return AndroidTVBenchTV(simulator: simulator, log: log)
    }

    var host: String { simulator.host }
    var port: UInt16 { simulator.remotePort }
    var simPort: UInt16 { simulator.simPort }
    var bridgeFlag: String { "androidtv:\(simulator.host)" }

    /// Netflix and YouTube in turn, pushed to the bridge's session.
    func changeState(step: Int) throws -> (field: String, value: JSONValue) {
        let app = step % 2 == 0 ? "com.netflix.ninja" : "com.google.android.youtube.tv"
        try simulator.apply(.object(["app": .string(app)]))
        return ("app_id", .string(app))
    }

    func stop() async { await simulator.stop() }
}
