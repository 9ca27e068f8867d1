import Harness
import Net
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Drivers

/// The Android TV driver against the simulated TV over real sockets: pairing by the code on
/// screen, the state it pushes, and each command as the TV receives it.
@Suite("Android TV driver against the simulated TV", .takesTurns, .timeLimit(.minutes(3)))
struct AndroidTVDriverTests {
    static let bridge = TestIdentities.bridge
    static let stranger = TestIdentities.stranger

    static func simulator(_ change: (inout AndroidTVSimulatorOptions) -> Void = { _ in }) async throws
        -> (AndroidTVSimulator, CommandLog)
    {
        var options = AndroidTVSimulatorOptions()
        options.host = "127.0.0.9"
        (options.remotePort, options.pairingPort, options.simPort) = (0, 0, 0)
        change(&options)
        let log = CommandLog.memory()
        return (try await AndroidTVSimulator.start(options, log: log), log)
    }

    static func driver(
        _ tv: AndroidTVSimulator, identity: TLSIdentity = bridge, pin: String? = nil, ime: Bool = true,
        settings: DriverSettings = DriverSettings(logger: .disabled)
    ) -> AndroidTVDriver {
        let description = TVDescription(
            identity: TVIdentity(
                id: TVID("androidtv_test")!, kind: TVKind(rawValue: "androidtv"), name: tv.name,
                manufacturer: "Android TV", host: tv.host, port: tv.remotePort, macs: [tv.mac.lowercased()]),
            capabilities: TVCapabilities(power: true, volumeKeys: true, keyboard: true))
        return AndroidTVDriver(
            kind: TVKind(rawValue: "androidtv"), description: description, settings: settings,
            options: AndroidTVDriverOptions(
                remotePort: tv.remotePort, pairingPort: tv.pairingPort, identity: .fixed(identity), certificatePin: pin,
                ime: ime))
    }

    /// Pairs `driver` with `tv` as a user would: Pair, then the code the TV shows.
    static func pair(_ driver: AndroidTVDriver, _ tv: AndroidTVSimulator) async throws {
        let asked = await driverError { () async throws(DriverError) in try await driver.pair() }
        #expect(asked?.kind == .pinRequired, "pair() did not ask for the code: \(String(describing: asked))")
        try await driver.pair(pin: try #require(tv.pairingCode))
    }

    /// Pairs the bridge's certificate with `tv` by the polo exchange alone, as the bridge will;
    /// the pin (the TV's certificate). No driver is involved, so the TV's log holds no session
    /// but the ones the test's own driver opens (tests count theirs).
    static func pairedPin(_ tv: AndroidTVSimulator) async throws -> String {
        let step = try await AndroidTVSimulatorExchangeTests.pair(tv, as: bridge)
        #expect(step == .paired, "the TV did not take the code: \(step)")
        return try await fingerprint(tv)
    }

    /// The simulated TV's certificate's SHA-256, hex, as a client sees it on its pairing port.
    static func fingerprint(_ tv: AndroidTVSimulator) async throws -> String {
        let tls = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: try SocketAddress(ip: tv.host, port: tv.pairingPort)),
            context: try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: stranger)),
            serverName: nil, deadline: .now + .seconds(30))
        defer { tls.close() }
        return Digest.hex(try #require(tls.peerCertificateSHA256))
    }

    /// On a clock that moves only for the held key: the driver's deadlines (connect, the ready
    /// timeout, the 3 s wait for what a toggle did) never fire, so a busy machine cannot turn
    /// the second `mute` or `power` into a toggle; each outcome is what the TV pushed.
    @Test("pair by the code, then the pushed state, keys, an app by name, volume, mute, power and text")
    func pairAndDrive() async throws {
        let clock = ManualClock()
        try await clock.run { try await pairAndDrive(clock) }
    }

    private func pairAndDrive(_ clock: ManualClock) async throws {
        let (tv, log) = try await Self.simulator()
        let driver = Self.driver(tv)
        do {
            #expect(await driver.poll(full: true).pairingRequired == true)
            try await Self.pair(driver, tv)
            #expect(tv.pairedClients == 1)
            // RemoteStart opens the session; the app and the volume may come just after it.
            var on = await driver.poll(full: true)
            _ = await waitUntil(timeout: .seconds(30)) {
                on = await driver.poll(full: false)
                return on.app != nil && on.volume != nil
            }
            #expect(on.reachable && on.power == true && on.app == "Home" && on.volume == 12 && on.muted == false)
            #expect(on.controlPath == .remoteV2)

            try await driver.perform(.key(.shared(.home), repeat: 1))
            try await driver.perform(.app("netflix"))
            try await driver.perform(.volume(15))
            try await driver.perform(.mute(true))
            try await driver.perform(.mute(true))
            try await driver.perform(.text("hi"))
            let held = Task { try await driver.perform(.holdKey(.shared(.right), milliseconds: 50)) }
            #expect(await clock.waitForTimer(at: .milliseconds(50)))
            await clock.advance(to: .milliseconds(50))
            try await held.value
            try await driver.perform(.power(.off))
            try await driver.perform(.power(.off))
            let quiet = await log.waitFor { $0["kind"] == "text" }
            #expect(quiet != nil)
            let standby = await waitUntil(timeout: .seconds(30)) { !tv.state.on }
            #expect(standby)
            let keys = log.entries.filter { $0["kind"] == "key" }.map {
                "\($0["code"]?.intValue ?? -1) \($0["direction"]?.stringValue ?? "")"
            }
            #expect(
                keys == [
                    "3 SHORT", "24 SHORT", "24 SHORT", "24 SHORT", "164 SHORT", "22 START_LONG", "22 END_LONG",
                    "26 SHORT",
                ],
                "HOME, three VOLUME_UP from 12 to 15, one VOLUME_MUTE, the held RIGHT, one POWER")
            let links = log.entries.filter { $0["kind"] == "app_link" }.compactMap { $0["link"]?.stringValue }
            #expect(links == ["https://www.netflix.com/title"])
            #expect(tv.state.volume == 15 && tv.state.muted && tv.state.app == "com.netflix.ninja")
        } catch {
            await driver.shutdown()
            await tv.stop()
            throw error
        }
        await driver.shutdown()
        await tv.stop()
    }

    @Test(
        "a mistyped code is refused and the TV still waits; a certificate the TV does not know is pairing_required",
        .frozenClock)
    func refusals() async throws {
        let (tv, _) = try await Self.simulator()
        let driver = Self.driver(tv)
        let stranger = Self.driver(tv, identity: Self.stranger, pin: try await Self.fingerprint(tv))
        do {
            let asked = await driverError { () async throws(DriverError) in try await driver.pair() }
            #expect(asked?.kind == .pinRequired)
            let shown = try #require(tv.pairingCode)
            let wrong = Digest.hex([UInt8(shown.prefix(2), radix: 16)! ^ 0x01]).uppercased() + shown.dropFirst(2)
            let mistyped = await driverError { () async throws(DriverError) in try await driver.pair(pin: wrong) }
            #expect(mistyped?.kind == .unauthorized && mistyped?.message.contains("check digits") == true)
            try await driver.pair(pin: shown)
            #expect(tv.pairedClients == 1)

            let refused = await stranger.poll(full: true)
            #expect(refused.pairingRequired == true, "\(refused)")
            #expect(refused.unreachableHint?.contains("does not know tv2mqtt's certificate") == true)
        } catch {
            await driver.shutdown()
            await stranger.shutdown()
            await tv.stop()
            throw error
        }
        await driver.shutdown()
        await stranger.shutdown()
        await tv.stop()
    }
}
