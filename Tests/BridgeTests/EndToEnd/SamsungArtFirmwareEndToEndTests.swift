import Drivers
import Harness
import Net
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// The Frame of each art firmware generation through the whole bridge: showing art when the
/// bridge starts, it is reported as art after pairing without waiting for a poll interval; art
/// switched with the TV's own remote reaches MQTT without a poll.
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
                // The bridge runs under a manual clock moved only to 0, the start's first poll:
                // no poll interval, timeout or backoff can pass, so what reaches MQTT after the
                // pairing was pushed (by the art channel the pairing opens), however slow the
                // machine. It replaces "within a quarter of the poll interval" in real time.
                let clock = ManualClock()
                try await clock.run {
                    try await SamsungEndToEndTests().startBridge(fixture, simulator, wolPort: simulator.wolPort ?? 0) {
                        $0.pollInterval = Self.pollInterval
                    }
                }
                // The start's first poll is the timer due at once.
                #expect(await clock.waitForTimer(at: .zero))
                await clock.advance(to: .zero)
                // Before pairing the art channel is closed: REST alone (2025 says standby while art shows).
                await fixture.expectState(Self.id) { $0["power"] == (firmware == .y2025 ? "OFF" : "ON") }

                try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"living_room"}"#)
                await fixture.expectState(Self.id, timeout: .seconds(30)) {
                    $0["art_mode"] == "ON" && $0["power"] == "OFF" && $0["power_mode"] == "art"
                }

                for (value, expected) in [("off", "OFF"), ("on", "ON")] {
                    let mark = await fixture.log.count
                    try simulator.apply(["art_mode": .string(value)])
                    let state = await fixture.expectState(Self.id, after: mark, timeout: .seconds(30)) {
                        $0["art_mode"] == .string(expected)
                    }
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
