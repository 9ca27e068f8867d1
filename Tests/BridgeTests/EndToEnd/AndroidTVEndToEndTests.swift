import Configuration
import Drivers
import Glibc
import Harness
import Net
import Persistence
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// A simulated Android TV through the whole bridge: found by mDNS on loopback, then paired with
/// the Pair button and the code typed into the Pairing code text (as Home Assistant sends
/// them), driven, and still paired after the bridge restarts with the same state directory.
@Suite("Android TV end to end", .serialized, .timeLimit(.minutes(3)))
struct AndroidTVEndToEndTests {
    /// Addresses no other test uses (the simulator binds Android TV's real ports there).
    static let found = "127.0.0.128"
    static let paired = "127.0.0.129"

    static func start(_ host: String, mdns: Bool = false) async throws -> (AndroidTVSimulator, CommandLog) {
        var options = AndroidTVSimulatorOptions()
        options.host = host
        options.simPort = 0
        options.mdnsPort = mdns ? 0 : nil
        options.name = "Den TV"
        let log = CommandLog.memory()
        return (try await AndroidTVSimulator.start(options, log: log), log)
    }

    static func id(_ tv: AndroidTVSimulator) -> String {
        "androidtv_" + tv.mac.lowercased().split(separator: ":").joined()
    }

    @Test("found by mDNS: its id is its MAC's, its name its certificate's, and nothing shows on its screen")
    func foundByMDNS() async throws {
        let (tv, _) = try await Self.start(Self.found, mdns: true)
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration { $0.browseMDNS(at: tv.mdnsPort!) }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                let topic = "homeassistant/device/\(Self.id(tv))/config"
                let seen = await fixture.discoverUntilConfigured(Self.id(tv))
                #expect(seen, "no discovery config for \(Self.id(tv))")
                let config = try JSONParser.parse(#require(await fixture.log.latest(topic)).payload)
                #expect(config["device"]?["name"] == "Den TV", "\(config)")
                #expect(config["components"]?["pair"] != nil && config["components"]?["pairing_code"] != nil)
                #expect(tv.pairingCode == nil && tv.pairedClients == 0)
            }
        } catch {
            await tv.stop()
            throw error
        }
        await tv.stop()
    }

    @Test("Pair, a mistyped code, the right code; keys and an app; paired still after a restart; no secret leaks")
    func pairAndDrive() async throws {
        let (tv, log) = try await Self.start(Self.paired)
        let id = Self.id(tv)
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    $0.tvs = [BridgeConfiguration.ConfiguredTV(host: Self.paired, kind: .androidtv)]
                    $0.stateSaveDelay = .zero
                }
                // A clock that never moves: no pairing or session deadline can fire on a slow machine.
                let clock = ManualClock()
                try await clock.run {
                    try await Self.run(fixture, configuration, tv, log, id, clock)
                }
            }
        } catch {
            await tv.stop()
            throw error
        }
        await tv.stop()
    }

    private static func run(
        _ fixture: BridgeFixture, _ configuration: BridgeConfiguration, _ tv: AndroidTVSimulator, _ log: CommandLog,
        _ id: String, _ clock: ManualClock
    ) async throws {
        let factory = { VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled) }
        try await fixture.startBridge(configuration, factory: factory())
        let topic = "tv2mqtt/bridge/response/tv/pair"
        _ = try await fixture.component("pairing_code", of: id)
        var mark = await fixture.log.count
        try await fixture.use("pair", of: id)
        let shown = try JSONParser.parse(#require(await fixture.expectMessage(topic, after: mark)).payload)
        #expect(shown["error"]?.stringValue?.contains("shows a pairing code") == true, "\(shown)")
        let code = try #require(tv.pairingCode)

        // What Home Assistant publishes for a text: the command template with the text typed.
        let entity = try await fixture.component("pairing_code", of: id)
        let template = try #require(entity["command_template"]?.stringValue)
        func typed(_ text: String) -> String {
            template.replacing("{{ value | tojson }}", with: JSONValue.string(text).serialized())
        }
        let mistyped = String(code.prefix(2) == "00" ? "11" : "00") + code.dropFirst(2)
        mark = await fixture.log.count
        try await fixture.use("pairing_code", of: id, payload: typed(mistyped))
        let refused = try JSONParser.parse(#require(await fixture.expectMessage(topic, after: mark)).payload)
        #expect(refused["error"]?.stringValue?.contains("check digits") == true, "\(refused)")
        #expect(tv.pairedClients == 0 && tv.pairingCode == code, "the TV still waits for its code")

        mark = await fixture.log.count
        try await fixture.use("pairing_code", of: id, payload: typed(code.lowercased()))
        let paired = try JSONParser.parse(#require(await fixture.expectMessage(topic, after: mark)).payload)
        #expect(paired["status"] == "ok", "\(paired)")
        #expect(tv.pairedClients == 1)
        await fixture.expectState(id) { $0["power"] == "ON" && $0["app"] == "Home" }

        try await fixture.publish("tv2mqtt/\(id)/set/key", "home", qos: .atMostOnce)
        await expectReceived(log) { $0["kind"] == "key" && $0["code"]?.intValue == 3 }
        try await fixture.publish("tv2mqtt/\(id)/set/app", "YouTube", qos: .atMostOnce)
        await expectReceived(log) { $0["kind"] == "app_link" && $0["link"] == "https://www.youtube.com" }

        let identityPath = fixture.stateDirectory.file(StateStore.identityFileName)
        var info = stat()
        #expect(stat(identityPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let identity = try #require(FileText.read(identityPath).flatMap(TLSIdentity.init(combinedPEM:)))
        let keyLine = try #require(identity.privateKeyPEM.split(separator: "\n").dropFirst().first)
        let secrets = [code, String(keyLine)]
        let leaked = fixture.logs.lines.filter { line in secrets.contains { line.contains($0) } }
        #expect(leaked.isEmpty, "the code or the key appears in the log: \(leaked)")

        // The same state directory: the same certificate, so the TV takes the session at once.
        await clock.advance(by: .zero)
        await fixture.stopBridge()
        let sessions = log.entries.filter { $0["kind"] == "remote" && $0["action"] == "connected" }.count
        mark = await fixture.log.count
        try await fixture.startBridge(configuration, factory: factory())
        await fixture.expectState(id, after: mark) { $0["power"] == "ON" }
        let again = log.entries.filter { $0["kind"] == "remote" && $0["action"] == "connected" }.count
        #expect(again > sessions && tv.pairedClients == 1 && tv.pairingCode == nil, "paired without a new code")
    }
}
