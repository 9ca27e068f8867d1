import Drivers
import Net
import TVModel
import TVSimulators
import Testing
import Wire

/// A simulated Roku on loopback and a driver for it, stopped even when the test throws.
struct RokuRig {
    let simulator: RokuSimulator
    let log: CommandLog
    let driver: RokuDriver
    let description: TVDescription
    let settings: DriverSettings

    /// Log entries of one kind (`keypress`, `text`, `launch`, `wol`…).
    func entries(_ kind: String) -> [JSONValue] {
        log.entries.filter { $0["kind"]?.stringValue == kind }
    }

    /// The keys of every keypress and text entry, in order.
    var keys: [String] {
        log.entries.filter { ["keypress", "text"].contains($0["kind"]?.stringValue ?? "") }
            .compactMap { $0["key"]?.stringValue }
    }

    func set(_ fields: [String: JSONValue]) throws {
        try simulator.apply(.object(fields))
    }
}

/// Settings for tests: Wake-on-LAN only to loopback, the default deadlines; a test about a
/// timeout sets its own.
func testSettings(wolPort: UInt16? = nil) -> DriverSettings {
    DriverSettings(
        wolTargets: wolPort.map { [DriverSettings.WakeTarget(host: "127.0.0.1", port: $0)] } ?? [],
        wolRepeat: 2, connectTimeout: .seconds(3), requestTimeout: .seconds(6), wakeWait: .seconds(3))
}

func withRokuRig(
    kind: RokuDeviceKind = .tv, limited: Bool = false, wol: Bool = false, ecp2: Bool = false,
    ecp2Key: String? = nil, driverECP2: RokuSettings.ECP2 = .auto, ecpSetting: RokuECPSetting? = nil,
    adjust: (inout DriverSettings) -> Void = { _ in },
    _ body: (RokuRig) async throws -> Void
) async throws {
    let log = CommandLog.memory()
    let simulator = try await RokuSimulator.start(
        RokuSimulatorOptions(
            host: "127.0.0.2", port: 0, kind: kind, limited: limited, wolPort: wol ? 0 : nil, ecp2: ecp2,
            ecp2Key: ecp2Key, ecpSetting: ecpSetting),
        log: log)
    let wolPort = simulator.wolPort
    var settings = testSettings(wolPort: wolPort)
    adjust(&settings)
    var roku = RokuSettings()
    roku.ecp2 = driverECP2
    let driver: RokuDriver
    let description: TVDescription
    do {
        // The probe on a clock that never moves (the simulator keeps real time): however long
        // a busy machine holds its answers up, set-up cannot end in a timeout.
        description = try await ManualClock().run {
            try await RokuProbe.describe(host: simulator.host, port: simulator.port, settings: settings)
        }
        driver = RokuDriver(description: description, settings: settings, roku: roku)
    } catch {
        await simulator.stop()
        throw error
    }
    let rig = RokuRig(simulator: simulator, log: log, driver: driver, description: description, settings: settings)
    do {
        try await body(rig)
    } catch {
        await driver.shutdown()
        await simulator.stop()
        throw error
    }
    await driver.shutdown()
    await simulator.stop()
}
