import TVSimulators
import Wire

/// An `LGSimulator` on its standard ports (3000, 3001 TLS, 1754 UPnP) at its own loopback
/// address, so a client finds it with a bare host, as a user configures one.
///
/// `tlsOnly`, as newer firmware: port 3000 refuses the SSAP WebSocket, so every client
/// (aiowebostv tries 3000 first, then 3001) is measured over TLS on 3001, as our driver is.
/// Pairing: the simulator approves at once, so a client's warm-up pairs; keys go over the
/// pointer input socket and are logged as kind `button`.
final class LGBenchTV: KeyLoggingBenchTV {
    static let keyKind = "button"

    let simulator: LGSimulator
    let log: CommandLog

    private init(simulator: LGSimulator, log: CommandLog) {
        self.simulator = simulator
        self.log = log
    }

    static func start(host: String) async throws -> LGBenchTV {
        let log = CommandLog.memory()
        var options = LGSimulatorOptions(host: host)
        options.tlsOnly = true
        let simulator = try await LGSimulator.start(options, log: log)
        return LGBenchTV(simulator: simulator, log: log)
    }

    var host: String { simulator.host }
    var port: UInt16 { simulator.portWSS ?? simulator.portWS }
    var bridgeFlag: String { "lg:\(simulator.host)" }

    /// Netflix and YouTube in turn, pushed to the bridge's foreground-app subscription.
    func changeState(step: Int) throws -> (field: String, value: JSONValue) {
        let app = step % 2 == 0 ? "netflix" : "youtube.leanback.v4"
        try simulator.apply(.object(["app": .string(app)]))
        return ("app_id", .string(app))
    }

    func stop() async { await simulator.stop() }
}
