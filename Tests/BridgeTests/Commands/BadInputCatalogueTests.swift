import Configuration
import Drivers
import Harness
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// The command part of the bad-input catalogue (Tests/BAD-INPUT.md), through the real bridge:
/// a real mosquitto, a simulated Roku and a simulated Samsung behind the real drivers. Each bad
/// command is published to both TVs; each must produce its `command_failed` message, and
/// neither simulator's command log may hold anything (it records even what it refuses).
@Suite("Bad-input catalogue: commands")
struct BadInputCatalogueTests {
    static let roku = "den"
    static let samsung = "living_room"

    /// A bridge with a configured simulated Roku (`den`) and Samsung (`living_room`), both on.
    /// A retained command (`home` to the Roku) is left on the broker before the bridge starts.
    func withBothTVs(retained: Bool = false, _ body: (BridgeFixture, CommandLog, CommandLog) async throws -> Void)
        async throws
    {
        let samsungLog = CommandLog.memory()
        let samsung = try await SamsungSimulator.start(
            SamsungSimulatorOptions(
                host: "127.0.0.33", portWS: 0, portWSS: 0, portUPnP: 0, name: "Living Room", pairing: .accept,
                wolPort: 0),
            log: samsungLog)
        do {
            try await withRokus { fixture, rokus in
                let roku = try await rokus.start("127.0.0.32")
                let configuration = fixture.configuration {
                    var den = BridgeConfiguration.ConfiguredTV(
                        host: roku.host, kind: .roku, name: "Den", id: TVID(Self.roku), port: roku.port)
                    den.macs = ["02:aa:bb:cc:dd:01"]
                    var living = BridgeConfiguration.ConfiguredTV(
                        host: samsung.host, kind: .samsung, id: TVID(Self.samsung), port: samsung.portWS)
                    living.vendorOptions[SamsungTVOptions.self].secure = samsung.portWSS
                    living.vendorOptions[SamsungTVOptions.self].upnp = samsung.portUPnP
                    $0.tvs = [den, living]
                    $0.wol.targets = [HostPort(host: "127.255.255.255", port: rokus.wolPort)]
                }
                if retained { try await fixture.publish("tv2mqtt/\(Self.roku)/set/key", "home", retain: true) }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                try await body(fixture, rokus.log, samsungLog)
            }
        } catch {
            await samsung.stop()
            throw error
        }
        await samsung.stop()
    }

    /// Publishes `payload` and returns the message of the `command_failed` event it caused.
    func refusal(
        _ fixture: BridgeFixture, tv: String, property: String?, payload: [UInt8]
    ) async throws -> String? {
        let topic = "tv2mqtt/\(tv)/set" + (property.map { "/\($0)" } ?? "")
        let mark = await fixture.log.count
        try await fixture.observer.publish(topic, payload, qos: .atLeastOnce, retain: false)
        let event = await fixture.expectEvent("command_failed", "\(topic)", after: mark) {
            $0["topic"] == .string(topic)
        }
        return event?["message"]?.stringValue
    }

    @Test("every bad command is refused with its message by both TVs, and nothing reaches either TV")
    func catalogue() async throws {
        try await withBothTVs(retained: true) { fixture, rokuLog, samsungLog in
            // The retained command is not replayed when the bridge subscribes.
            let retained = await fixture.expectEvent("command_failed") { $0["tv"] == .string(Self.roku) }
            let retainedMessage = retained?["message"]?.stringValue ?? "(none)"
            #expect(retainedMessage.hasPrefix("ignored a retained command"), "\(retainedMessage)")
            try await fixture.publish("tv2mqtt/\(Self.roku)/set/key", "", retain: true)
            await fixture.expectState(Self.roku) { $0["power"] == "ON" && $0["app"] != nil }
            await fixture.expectState(Self.samsung) { $0["power"] == "ON" }
            for bad in badCommands {
                for (tv, expected) in [(Self.roku, bad.roku), (Self.samsung, bad.samsung)] {
                    let message =
                        try await refusal(fixture, tv: tv, property: bad.property, payload: bad.payload) ?? "(none)"
                    let matches = BadCommand.matches(message, expected)
                    #expect(matches, "\(bad.name) on \(tv): got \(message)")
                }
            }
            // A command for a TV that does not exist.
            let unknown = try await refusal(fixture, tv: "no_such_tv", property: "key", payload: Array("home".utf8))
            #expect(unknown == "unknown TV 'no_such_tv' (known: den, living_room)")

            try await Task.sleep(for: .milliseconds(300))
            let rokuReceived = rokuLog.entries
            // UPnP event subscriptions (kind `subscribe`) are the bridge's own, not commands.
            let samsungReceived = samsungLog.entries.filter { $0["kind"] != "subscribe" }
            #expect(rokuReceived.isEmpty, "the Roku received \(rokuReceived)")
            #expect(samsungReceived.isEmpty, "the Samsung received \(samsungReceived)")

            // Both TVs still take a good command: the logs were empty because nothing was sent.
            try await fixture.publish("tv2mqtt/\(Self.roku)/set/key", "home")
            await expectReceived(rokuLog) { $0["kind"] == "keypress" && $0["key"] == "Home" }
            try await fixture.publish("tv2mqtt/\(Self.samsung)/set/key", "home")
            await expectReceived(samsungLog) { $0["kind"] == "remote_key" && $0["key"] == "KEY_HOME" }
        }
    }

    @Test("control characters from a topic cannot forge a log line: they are escaped in text logs")
    func logLines() {
        let sink = CapturingSink()
        let logger = Logger(label: "bridge", sink: sink, threshold: LogThreshold(.debug))
        logger.warning("unknown TV 'a\nFAKE error'", [("tv", "a\r\nFAKE"), ("topic", "x\u{0}y")])
        let line = sink.lines.first ?? ""
        let controls = line.unicodeScalars.filter { $0.value < 0x20 }
        #expect(controls.isEmpty, "\(line)")
        #expect(line.hasSuffix(#"bridge: unknown TV 'a\nFAKE error' tv="a\r\nFAKE" topic="x\u0000y""#), "\(line)")
    }

    @Test("text that looks like a path or an escape (../, %2F) is typed literally, as nothing else")
    func literalText() async throws {
        try await withBothTVs { fixture, rokuLog, samsungLog in
            await fixture.expectState(Self.roku) { $0["power"] == "ON" }
            await fixture.expectState(Self.samsung) { $0["power"] == "ON" }
            let text = "../keypress/PowerOff%2F"
            try await fixture.publish("tv2mqtt/\(Self.roku)/set/text", text)
            try await fixture.publish("tv2mqtt/\(Self.samsung)/set/text", text)
            let typed = await waitUntil(timeout: .seconds(30)) {
                rokuLog.entries.compactMap { $0["text"]?.stringValue }.joined() == text
            }
            #expect(typed, "the Roku got \(rokuLog.entries)")
            await expectReceived(samsungLog) { $0["kind"] == "text" && $0["text"] == .string(text) }
            let rokuOther = rokuLog.entries.filter { $0["kind"] != "text" }
            #expect(rokuOther.isEmpty, "the Roku also received \(rokuOther)")
            let samsungOther = samsungLog.entries.filter {
                !["text", "text_end", "pairing", "subscribe"].contains($0["kind"])
            }
            #expect(samsungOther.isEmpty, "the Samsung also received \(samsungOther)")
        }
    }
}
