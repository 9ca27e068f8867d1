import Drivers
import Harness
import Net
import TVModel
import Testing
import Wire

@testable import Bridge

/// The generic commands `screen`, `sound_output` and `toast`, proven with the stand-in vendor: a
/// driver that declares screen control, sound outputs and toasts gets the `screen` switch, the
/// `sound_output` select and the `toast` notify entity from the one table, and `screen`,
/// `sound_output` and `toast` reach it validated, through `set/<property>` and the JSON `set`.
@Suite("A stand-in vendor's screen, sound output and toast")
struct StandInScreenSoundToastTests {
    @Test("entities by capability; screen, sound_output and toast reach the TV; its state comes back; bad ones refused")
    func screenSoundToast() async throws {
        // A clock that never moves: no command can expire behind another on a busy machine.
        let clock = ManualClock()
        try await withStandInBridge(host: "127.0.0.73", serial: "SI0003", clock: clock.clock) { fixture, tv, id in
            let screen = try await fixture.component("screen", of: id)
            #expect(screen["platform"] == "switch" && screen["command_topic"] == .string("tv2mqtt/\(id)/set/screen"))
            let output = try await fixture.component("sound_output", of: id)
            #expect(output["platform"] == "select" && output["options"] == ["tv_speaker", "hdmi_arc"])
            let toast = try await fixture.component("toast", of: id)
            #expect(toast["platform"] == "notify" && toast["command_topic"] == .string("tv2mqtt/\(id)/set/toast"))
            #expect(toast["state_topic"] == nil)
            await fixture.expectState(id) { $0["screen"] == "ON" && $0["sound_output"] == "tv_speaker" }

            try await fixture.use("screen", of: id, payload: "OFF")
            try await fixture.use("sound_output", of: id, payload: "hdmi_arc")
            try await fixture.use("toast", of: id, payload: "Dinner is ready")
            try await fixture.publish("tv2mqtt/\(id)/set", #"{"toast":"Two\nlines","screen":"ON"}"#)
            let expected = ["SCREEN OFF", "SOUND hdmi_arc", "TOAST Dinner is ready", "SCREEN ON", "TOAST Two\\nlines"]
            let arrived = await waitUntil(timeout: .seconds(30)) { tv.commands == expected }
            #expect(arrived, "commands the TV received: \(tv.commands)")
            #expect(tv.toasts == ["Dinner is ready", "Two\nlines"])
            // The next poll reads it back: time moves until one has.
            let stateTopic = "tv2mqtt/\(id)/state"
            _ = await clock.step(by: .seconds(1), atMost: 60, settle: .milliseconds(300)) {
                let latest = await fixture.log.latest(stateTopic).flatMap { try? JSONParser.parse($0.payload) }
                return latest?["sound_output"] == "hdmi_arc"
            }
            await fixture.expectState(id) { $0["screen"] == "ON" && $0["sound_output"] == "hdmi_arc" }

            // Refused before the TV: a toast over the limit (the parser), an output the TV did
            // not list (its planner); nothing more reaches it.
            let tooLong = String(repeating: "x", count: TVCommand.maxToastLength + 1)
            try await fixture.publish("tv2mqtt/\(id)/set/toast", tooLong)
            await fixture.expectEvent("command_failed") {
                $0["message"]?.stringValue?.contains("toast: 256 characters exceeds the limit of 255") == true
            }
            try await fixture.publish("tv2mqtt/\(id)/set/sound_output", "optical")
            await fixture.expectEvent("command_failed") { $0["message"]?.stringValue?.contains("optical") == true }
            #expect(tv.commands == expected)
        }
    }
}
