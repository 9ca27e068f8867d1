import Drivers
import Harness
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// The Frame of each art firmware generation through the whole bridge: showing art when the
/// bridge starts, it is reported as art within one poll after pairing; art switched with the
/// TV's own remote reaches MQTT without a poll.
@Suite("Samsung The Frame generations end to end")
struct SamsungArtFirmwareEndToEndTests {
    static let id = SamsungEndToEndTests.id
    /// Long enough that what arrives between polls was pushed.
    static let pollInterval = 20.0

    @Test(
        "art at start: reported as art within one poll after pairing; remote changes pushed",
        arguments: SamsungArtFirmware.allCases)
    func generation(_ firmware: SamsungArtFirmware) async throws {
        var options = SamsungSimulatorOptions(
            host: "127.0.0.3", portWS: 0, portWSS: 0, portUPnP: 0, name: "Living Room", frame: true, wolPort: 0)
        options.artFirmware = firmware
        let simulator = try await SamsungSimulator.start(options, log: CommandLog.memory())
        do {
            try simulator.apply(["art_mode": "on"])
            try await withBridgeFixture { fixture in
                try await SamsungEndToEndTests().startBridge(fixture, simulator, wolPort: simulator.wolPort ?? 0) {
                    $0.pollInterval = Self.pollInterval
                }
                // Before pairing the art channel is closed: REST alone (2025 says standby while art shows).
                await fixture.expectState(Self.id) { $0["power"] == (firmware == .y2025 ? "OFF" : "ON") }

                let paired = ContinuousClock.now
                try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"living_room"}"#)
                await fixture.expectState(Self.id, timeout: .seconds(Self.pollInterval)) {
                    $0["art_mode"] == "ON" && $0["power"] == "OFF" && $0["power_mode"] == "art"
                }
                let reported = ContinuousClock.now - paired
                print("art firmware \(firmware.rawValue): art reported \(reported) after tv/pair")
                #expect(reported < .seconds(Self.pollInterval))

                for (value, expected) in [("off", "OFF"), ("on", "ON")] {
                    let mark = await fixture.log.count
                    let start = ContinuousClock.now
                    try simulator.apply(["art_mode": .string(value)])
                    let state = await fixture.expectState(Self.id, after: mark, timeout: .seconds(10)) {
                        $0["art_mode"] == .string(expected)
                    }
                    let elapsed = ContinuousClock.now - start
                    print(
                        "art firmware \(firmware.rawValue): art_mode \(expected) on MQTT \(elapsed) after the TV's remote"
                    )
                    // Pushed: a quarter of the poll interval, with seconds to spare on a busy machine.
                    #expect(elapsed < .seconds(5))
                    #expect(state?["power"] == (expected == "ON" ? "OFF" : "ON"))
                }
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
