import Drivers
import TVModel
import TestSupport
import Testing
import Wire

@Suite("Roku ECP-2 notifies into the snapshot", .cpuBound)
struct RokuECP2EventsTests {
    let apps = [
        RokuApp(id: "12", name: "Netflix"), RokuApp(id: "tvinput.hdmi1", name: "HDMI 1", type: "tvin"),
    ]
    let on = TVSnapshot(
        reachable: true, power: true, powerMode: "PowerOn", app: "Netflix", appID: "12", mediaState: .playing,
        position: 10, duration: 100, controlPath: .ecp2)

    @Test("power modes: power-on, display-off and ready become the HTTP values")
    func powerModes() throws {
        #expect(RokuECP2Events.powerMode("power-on") == "PowerOn")
        #expect(RokuECP2Events.powerMode("display-off") == "DisplayOff")
        #expect(RokuECP2Events.powerMode("ready") == "Ready")
        #expect(RokuECP2Events.powerMode("PowerOn") == "PowerOn")
        #expect(RokuECP2Events.powerMode("") == nil)
        #expect(RokuECP2Events.powerMode("power on; rm") == nil)
        // Found by the ecp2 fuzz target: "-" became the empty power mode, published as
        // "power_mode": "" (the notify as found, then other dash-only values).
        var found = on
        let dash = RokuECP2Events.apply(
            try ECP2Message.parse(
                #"{"notify":"power-mode-changed","param-power-mode":"-","timesamp":"608930.100"}"#),
            to: &found, apps: apps)
        #expect(!dash.changed && found == on)
        let dashOnly = ["-", "--", "---"].map(RokuECP2Events.powerMode)
        #expect(dashOnly == [nil, nil, nil])
        #expect(RokuECP2Events.powerMode("power-") == "Power")

        var snapshot = on
        let outcome = RokuECP2Events.apply(
            .notify("power-mode-changed", ["param-power-mode": "ready"]), to: &snapshot, apps: apps)
        #expect(outcome.changed && !outcome.refresh)
        #expect(snapshot.power == false && snapshot.powerMode == "Ready")
        #expect(snapshot.app == nil && snapshot.mediaState == nil && snapshot.position == nil)

        let back = RokuECP2Events.apply(
            .notify("power-mode-changed", ["param-power-mode": "power-on"]), to: &snapshot, apps: apps)
        #expect(back.changed && back.refresh && snapshot.power == true && snapshot.powerMode == "PowerOn")
    }

    @Test("volume-changed gives volume and mute (param-mute or param-muted)")
    func volume() {
        var snapshot = on
        let outcome = RokuECP2Events.apply(
            .notify("volume-changed", ["param-volume": "23", "param-mute": "false"]), to: &snapshot, apps: apps)
        #expect(outcome.reportsVolume && outcome.changed)
        #expect(snapshot.volume == 23 && snapshot.muted == false)
        _ = RokuECP2Events.apply(.notify("volume-changed", ["param-muted": "true"]), to: &snapshot, apps: apps)
        #expect(snapshot.muted == true && snapshot.volume == 23)
        let bad = RokuECP2Events.apply(
            .notify("volume-changed", ["param-volume": "250", "param-mute": "maybe"]), to: &snapshot, apps: apps)
        #expect(!bad.reportsVolume && !bad.changed && snapshot.volume == 23)
    }

    @Test("media-player-state-changed: state, position, duration and the app")
    func media() {
        var snapshot = on
        var outcome = RokuECP2Events.apply(
            .notify(
                "media-player-state-changed",
                [
                    "param-media-player-state": "pause", "param-media-player-position": "73313 ms",
                    "param-channel-id": "12",
                ]), to: &snapshot, apps: apps)
        #expect(outcome.changed && !outcome.refresh)
        #expect(snapshot.mediaState == .paused && snapshot.position == 73.313 && snapshot.duration == 100)
        outcome = RokuECP2Events.apply(
            .notify("media-player-state-changed", ["param-media-player-state": "close"]), to: &snapshot, apps: apps)
        #expect(snapshot.mediaState == .idle && snapshot.position == nil && snapshot.duration == nil)
    }

    @Test("app and input changes name the app and ask for a refresh; textedit changes nothing")
    func foreground() {
        var snapshot = on
        var outcome = RokuECP2Events.apply(
            .notify("tvinput-ui-run", ["param-channel-id": "tvinput.hdmi1"]), to: &snapshot, apps: apps)
        #expect(outcome.refresh && snapshot.input == "HDMI 1" && snapshot.appID == "tvinput.hdmi1")
        outcome = RokuECP2Events.apply(
            .notify("plugin-ui-run", ["param-channel-id": "../../keypress/PowerOff"]), to: &snapshot, apps: apps)
        #expect(outcome.refresh && snapshot.appID == "tvinput.hdmi1")  // not an app id: ignored
        outcome = RokuECP2Events.apply(.notify("screensaver-run"), to: &snapshot, apps: apps)
        #expect(outcome.refresh && !outcome.changed)
        outcome = RokuECP2Events.apply(
            .notify("textedit-changed", ["param-text": "abc"]), to: &snapshot, apps: apps)
        #expect(outcome == RokuECP2Events.Outcome())
        outcome = RokuECP2Events.apply(.response("x", id: "1", status: 200), to: &snapshot, apps: apps)
        #expect(outcome == RokuECP2Events.Outcome())
    }
}
