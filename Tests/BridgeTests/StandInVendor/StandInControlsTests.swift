import Drivers
import Harness
import TVModel
import Testing
import Wire

@testable import Bridge

/// Controls a driver declares, proven with the stand-in vendor: the bridge publishes their
/// entities, their state fields and takes their `set/<key>` without knowing what they are
/// (the Samsung Frame's `art_mode` goes the same way).
@Suite("A stand-in vendor's declared controls")
struct StandInControlsTests {
    @Test(
        "a declared select and switch: entities, state fields, set/<key> and JSON set reach the TV; bad values refused")
    func declaredControls() async throws {
        try await withStandInBridge(host: "127.0.0.74", serial: "SI0004") { fixture, tv, id in
            let picture = try await fixture.component("picture_mode", of: id)
            #expect(picture["platform"] == "select" && picture["options"] == ["standard", "movie"])
            #expect(picture["command_topic"] == .string("tv2mqtt/\(id)/set/picture_mode"))
            let eco = try await fixture.component("eco", of: id)
            #expect(eco["platform"] == "switch" && eco["command_topic"] == .string("tv2mqtt/\(id)/set/eco"))
            await fixture.expectState(id) { $0["picture_mode"] == "standard" && $0["eco"] == "OFF" }

            try await fixture.use("picture_mode", of: id, payload: "movie")
            try await fixture.publish("tv2mqtt/\(id)/set", #"{"eco":true}"#)
            let expected = ["PICTURE movie", "ECO ON"]
            let arrived = await waitUntil(timeout: .seconds(30)) { tv.commands == expected }
            #expect(arrived, "commands the TV received: \(tv.commands)")
            await fixture.expectState(id) { $0["picture_mode"] == "movie" && $0["eco"] == "ON" }

            // Refused by the parser from the declaration: nothing more reaches the TV.
            try await fixture.publish("tv2mqtt/\(id)/set/picture_mode", "vivid")
            await fixture.expectEvent("command_failed") {
                $0["message"]?.stringValue == "picture_mode: expected one of standard, movie, got 'vivid'"
            }
            #expect(tv.commands == expected)
        }
    }
}
