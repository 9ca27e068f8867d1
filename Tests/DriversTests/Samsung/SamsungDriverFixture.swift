import Drivers
import Net
import Support
import Synchronization
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

/// A simulated Samsung TV on loopback, and drivers for it, stopped even when the test throws.
struct SamsungRig {
    let simulator: SamsungSimulator
    let log: CommandLog
    let description: TVDescription
    let settings: DriverSettings
    /// The `samsung` section its drivers get (`samsungTestSection`).
    let samsung: SamsungSettings
    /// What the rig's drivers log (debug and up).
    let logs: CapturingSink

    /// A driver with the simulator's ports, a short approval timeout, and what was persisted.
    /// `appList`: how long a poll waits for the installed list (short, so a TV that never
    /// answers costs little; a test that needs the answer on a busy machine gives it longer).
    func driver(
        token: String? = nil, pin: String? = nil, approval: Duration = .seconds(3),
        settings: DriverSettings? = nil, appList: Duration = .seconds(2)
    ) -> SamsungDriver {
        SamsungDriver(
            description: description, settings: settings ?? self.settings, samsung: samsung,
            options: SamsungDriverOptions(
                securePort: simulator.portWSS, upnpPort: simulator.portUPnP, token: token, certificatePin: pin,
                approvalTimeout: approval, appListTimeout: appList, wakeSettle: .seconds(1)))
    }

    /// Log entries of one kind (`remote_key`, `text`, `app_launch`, `volume`, `mute`, `wol`, `pairing`).
    func entries(_ kind: String) -> [JSONValue] {
        log.entries.filter { $0["kind"]?.stringValue == kind }
    }

    /// `key cmd` of every remote_key entry, in order ("KEY_HOME Click").
    var remoteKeys: [String] {
        entries("remote_key").map { "\($0["key"]?.stringValue ?? "?") \($0["cmd"]?.stringValue ?? "?")" }
    }

    /// `remoteKeys` once at least `count` arrived (the TV logs a key when it reads it, a
    /// moment after the driver handed it to the connection), or after the 30 s hang bound.
    func keys(atLeast count: Int) async throws -> [String] {
        try await waitFor { remoteKeys.count >= count }
        return remoteKeys
    }

    func set(_ fields: [String: JSONValue]) throws {
        try simulator.apply(.object(fields))
    }
}

/// Collects a driver's events in the background (one consumer, as the bridge has).
final class EventCollector: Sendable {
    private final class Box: Sendable {
        let events = Mutex<[DriverEvent]>([])
    }
    private let box = Box()

    init(_ driver: some TVDriver) {
        let events = driver.events
        let box = box
        Task {
            for await event in events { box.events.withLock { $0.append(event) } }
        }
    }

    var events: [DriverEvent] { box.events.withLock { $0 } }

    var tokens: [String] {
        events.compactMap { if case .token(let token) = $0 { token } else { nil } }
    }

    var pins: [String] {
        events.compactMap { if case .certificatePinned(let pin) = $0 { pin } else { nil } }
    }

    var pairingMessages: [String] {
        events.compactMap { if case .pairingRequired(let message) = $0 { message } else { nil } }
    }

    var certificateChanges: Int {
        events.filter { if case .certificateChanged = $0 { true } else { false } }.count
    }

    /// Waits (up to 2 s) for the events to catch up with `condition`.
    func settle(until condition: @Sendable ([DriverEvent]) -> Bool) async {
        for _ in 0..<40 {
            if condition(events) { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// Settings for Samsung tests: Wake-on-LAN to `wolPort` on loopback only; deadlines as in
/// `testSettings` (no shorter than the defaults).
func samsungTestSettings(wolHost: String = "127.0.0.3", wolPort: UInt16? = nil) -> DriverSettings {
    DriverSettings(
        wolTargets: wolPort.map { [DriverSettings.WakeTarget(host: wolHost, port: $0)] } ?? [], wolRepeat: 1,
        connectTimeout: .seconds(3), requestTimeout: .seconds(6))
}

/// The `samsung` section for Samsung tests: a client name of their own, and only `apps` configured.
func samsungTestSection(apps: [String: String] = [:]) -> SamsungSettings {
    var samsung = SamsungSettings()
    samsung.clientName = "tv2mqtt-test"
    samsung.apps = apps
    return samsung
}

func withSamsungRig(
    pairing: SamsungPairingMode = .accept, frame: Bool = false, artFirmware: SamsungArtFirmware = .y2019,
    apps: Bool = true, wol: Bool = false, configuredApps: [String: String] = [:],
    _ body: (SamsungRig) async throws -> Void
) async throws {
    let log = CommandLog.memory()
    var options = SamsungSimulatorOptions(
        host: "127.0.0.3", portWS: 0, portWSS: 0, portUPnP: 0, pairing: pairing, frame: frame, apps: apps,
        wolPort: wol ? 0 : nil)
    options.artFirmware = artFirmware
    // The driver holds 3.5 s (SamsungPowerTests); 2 s leaves a busy machine 1.5 s to read the Press late.
    options.framePowerHold = .seconds(2)
    let simulator = try await SamsungSimulator.start(options, log: log)
    let wolPort = simulator.wolPort
    let logs = CapturingSink()
    var settings = samsungTestSettings(wolPort: wolPort)
    let samsung = samsungTestSection(apps: configuredApps)
    settings.logger = Logger(label: "test", sink: logs, threshold: LogThreshold(.debug))
    let description: TVDescription
    do {
        // The probe on a clock that never moves (the simulator keeps real time): however long
        // a busy machine holds its answers up, set-up cannot end in a timeout.
        description = try await ManualClock().run {
            try await SamsungProbe.describe(
                host: simulator.host, port: simulator.portWS, settings: settings, inputs: samsung.inputs)
        }
    } catch {
        await simulator.stop()
        throw error
    }
    let rig = SamsungRig(
        simulator: simulator, log: log, description: description, settings: settings, samsung: samsung, logs: logs)
    do {
        try await body(rig)
    } catch {
        await simulator.stop()
        throw error
    }
    await simulator.stop()
}

/// Runs `body` with a driver and an event collector; shuts the driver down afterwards.
func withDriver(
    _ driver: SamsungDriver, _ body: (SamsungDriver, EventCollector) async throws -> Void
) async throws {
    let collector = EventCollector(driver)
    do {
        try await body(driver, collector)
    } catch {
        await driver.shutdown()
        throw error
    }
    await driver.shutdown()
}

/// The error `body` threw, or nil.
func driverError(_ body: () async throws(DriverError) -> Void) async -> DriverError? {
    await thrownError(body)
}
