import Net
import Support
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Drivers

/// A simulated LG TV on loopback (`LGSimulator`, real sockets), and drivers for it, stopped
/// even when the test throws.
struct LGRig {
    let simulator: LGSimulator
    let log: CommandLog
    let description: TVDescription
    let settings: DriverSettings
    let logs: CapturingSink

    /// A driver for the simulator's ports, with the secrets a pairing gave.
    func driver(
        key: String? = nil, pin: String? = nil, approval: Duration = .seconds(5), securePort: UInt16? = nil,
        allowCleartext: Bool = false
    ) -> LGDriver {
        LGDriver(
            description: description, settings: settings,
            options: LGDriverOptions(
                securePort: securePort ?? simulator.portWSS ?? 1, plainPort: simulator.portWS, clientKey: key,
                certificatePin: pin, approvalTimeout: approval, allowCleartext: allowCleartext))
    }

    func entries(_ kind: String) -> [JSONValue] { log.entries.filter { $0["kind"]?.stringValue == kind } }

    var buttons: [String] { entries("button").compactMap { $0["name"]?.stringValue } }

    /// The certificate's SHA-256 as a pin (lowercase hex).
    var certificatePin: String { Digest.hex(simulator.certificateSHA256) }

    /// Pairs (the simulator approves) and returns the key and the pin the driver emitted.
    func pair() async throws -> (key: String, pin: String) {
        let driver = driver()
        let collector = EventCollector(driver)
        defer { Task { await driver.shutdown() } }
        try await driver.pair()
        await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
        return (try #require(collector.tokens.first), try #require(collector.pins.first))
    }
}

func lgTestSettings(wolPort: UInt16?) -> DriverSettings {
    DriverSettings(
        wolTargets: wolPort.map { [DriverSettings.WakeTarget(host: "127.0.0.7", port: $0)] } ?? [], wolRepeat: 1,
        connectTimeout: .seconds(3), requestTimeout: .seconds(6))
}

func withLGRig(
    _ configure: (inout LGSimulatorOptions) -> Void = { _ in }, _ body: (LGRig) async throws -> Void
) async throws {
    let log = CommandLog.memory()
    var options = LGSimulatorOptions(host: "127.0.0.7", portWS: 0, portWSS: 0, portUPnP: 0, wolPort: 0)
    configure(&options)
    let simulator = try await LGSimulator.start(options, log: log)
    let logs = CapturingSink()
    var settings = lgTestSettings(wolPort: simulator.wolPort)
    settings.logger = Logger(label: "test", sink: logs, threshold: LogThreshold(.debug))
    do {
        // The probe on a clock that never moves (the simulator keeps real time): however long
        // a busy machine holds its answers up, set-up cannot end in a timeout.
        let port = try simulator.portWSS ?? closedPort(host: simulator.host)
        let description = try await ManualClock().run {
            try await LGProbe.describe(
                host: simulator.host, port: port, settings: settings, plainPort: simulator.portWS,
                descriptionPort: simulator.portUPnP)
        }
        try await body(LGRig(simulator: simulator, log: log, description: description, settings: settings, logs: logs))
    } catch {
        await simulator.stop()
        throw error
    }
    await simulator.stop()
}

func withLGDriver(_ driver: LGDriver, _ body: (LGDriver, EventCollector) async throws -> Void) async throws {
    let collector = EventCollector(driver)
    do {
        try await body(driver, collector)
    } catch {
        await driver.shutdown()
        throw error
    }
    await driver.shutdown()
}

/// Polls `condition` every 100 ms for up to `seconds` (by default the 30 s hang bound).
func lgWait(seconds: Int = 30, _ condition: () async -> Bool) async throws {
    for _ in 0..<(seconds * 10) {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(100))
    }
}

/// A port on `host` that refuses connections: bound, read back and closed again.
func closedPort(host: String) throws -> UInt16 {
    let listener = try TCPListener.bind(host: host, port: 0)
    defer { listener.close() }
    return listener.address.port
}
