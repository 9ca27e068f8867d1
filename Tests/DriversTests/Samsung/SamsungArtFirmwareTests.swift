import Clients
import Drivers
import Net
import Support
import TVModel
import TVSimulators
import Testing
import Wire

/// The Frame's art mode as each firmware generation speaks it (`SamsungArtFirmware`: 2019
/// `artmode_status`; 2023 replies named after the request with `request_id`; 2025 also REST
/// `standby` while art shows), against the simulator on real sockets.
@Suite("Samsung The Frame: art firmware generations")
struct SamsungArtFirmwareTests {
    @Test("a Frame showing art when paired is reported as art within one poll", arguments: SamsungArtFirmware.allCases)
    func artAtStart(_ firmware: SamsungArtFirmware) async throws {
        try await withSamsungRig(frame: true, artFirmware: firmware) { rig in
            try rig.set(["art_mode": "on"])
            // The driver runs under a clock that never moves: none of the art channel's
            // timeouts or backoffs can pass, so what is reported comes from the one poll after
            // pairing and what the channel it opened pushes, however slow the machine.
            let clock = ManualClock()
            try await withDriver(rig.driver()) { driver, events in
                try await clock.run { try await artAtStart(driver, events) }
            }
        }
    }

    private func artAtStart(_ driver: SamsungDriver, _ events: EventCollector) async throws {
        let before = await driver.poll(full: false)
        #expect(before.artMode != true)
        let beforePairing = events.events.count
        try await driver.pair()
        _ = await driver.poll(full: false)
        let art = try await Self.pushedState(events, after: beforePairing, hangBound: .seconds(30)) {
            $0.artMode == true
        }
        #expect(art.power == false)
        #expect(art.powerMode == "art")
        let polled = await driver.poll(full: false)
        #expect(polled.artMode == true)
        #expect(polled.power == false)
        #expect(polled.powerMode == "art")
    }

    @Test(
        "art switched with the TV's own remote is pushed, with no poll and no timer",
        arguments: SamsungArtFirmware.allCases)
    func remoteChange(_ firmware: SamsungArtFirmware) async throws {
        try await withSamsungRig(frame: true, artFirmware: firmware) { rig in
            // Under a clock that never moves, and with no poll after the first ones: a change
            // that arrives was pushed by the TV. How fast is tvbench's to measure.
            let clock = ManualClock()
            try await withDriver(rig.driver()) { driver, events in
                try await clock.run {
                    try await driver.pair()
                    _ = try await Self.polledState(driver) { $0.artMode == false }
                }
                // As before the conversion: switched at once after the channel said "off", the
                // later switch back was not pushed (seen here, all three firmware; not explained yet).
                try await Task.sleep(for: .milliseconds(300))
                let beforeArt = events.events.count
                try rig.set(["art_mode": "on"])
                let art = try await Self.pushedState(events, after: beforeArt, hangBound: .seconds(30)) {
                    $0.artMode == true
                }
                #expect(art.power == false)
                #expect(art.powerMode == "art")
                try await Task.sleep(for: .milliseconds(300))
                let beforeTV = events.events.count
                try rig.set(["art_mode": "off"])
                let tv = try await Self.pushedState(events, after: beforeTV, hangBound: .seconds(30)) {
                    $0.artMode == false
                }
                #expect(tv.power == true)
            }
        }
    }

    @Test("a status reply named after its request (2023) is understood; the API version is logged with the model")
    func namedReplyAndVersion() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2023) { rig in
            try rig.set(["art_mode": "on"])
            try await withDriver(rig.driver()) { driver, events in
                try await driver.pair()
                _ = try await Self.polledState(driver) { $0.artMode == true }
                try await waitFor { rig.logs.all.contains { $0.message.hasPrefix("art API version") } }
                let version = rig.logs.all.filter { $0.message.hasPrefix("art API version") }
                #expect(version.count == 1)
                #expect(version.first?.level == .info)
                #expect(version.first?.message == "art API version 4.3.4.0 (model QE55LS03TAUXXU (20_MUSEL_UHD_FRAME))")
                let artWarnings = rig.logs.all.filter { $0.level >= .warning && $0.label == "art" }
                #expect(artWarnings.isEmpty)
            }
        }
    }

    @Test("2019: get_api_version answers after api_version is refused; the version is logged once")
    func legacyVersion() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2019) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.pair()
                try await waitFor { rig.logs.all.contains { $0.message.hasPrefix("art API version") } }
                let version = rig.logs.all.filter { $0.message.hasPrefix("art API version") }
                #expect(version.map(\.message) == ["art API version 0.97 (model QE55LS03TAUXXU (20_MUSEL_UHD_FRAME))"])
            }
        }
    }

    @Test("2025: REST standby and an art channel that does not answer is off; true standby is off")
    func standbyWithoutArt() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2025) { rig in
            var secrets: (token: String?, pin: String?) = (nil, nil)
            try await withDriver(rig.driver()) { driver, events in
                try await driver.pair()
                _ = try await Self.polledState(driver) { $0.artMode == false }
                try rig.set(["power": "standby"])
                let standby = try await Self.polledState(driver) { $0.power == false }
                #expect(standby.artMode == false)
                #expect(standby.powerMode == "standby")
                secrets = (events.tokens.last, events.pins.last)
            }
            // Showing art, but the art channel is silent: nothing says art, so it is off.
            rig.simulator.setArtFault(.unanswered)
            try rig.set(["power": "on", "art_mode": "on"])
            try await withDriver(rig.driver(token: secrets.token, pin: secrets.pin)) { driver, _ in
                _ = await driver.poll(full: false)
                try await Task.sleep(for: .milliseconds(800))
                let silent = await driver.poll(full: false)
                #expect(silent.power == false)
                #expect(silent.artMode == false)
                #expect(silent.powerMode == "standby")
            }
        }
    }

    @Test("2025: art shown while REST says standby: art_mode OFF shows TV, power OFF holds KEY_POWER")
    func commandsInStandbyArt() async throws {
        try await withSamsungRig(frame: true, artFirmware: .y2025) { rig in
            try rig.set(["art_mode": "on"])
            try await withDriver(rig.driver()) { driver, events in
                try await driver.pair()
                _ = try await Self.polledState(driver) { $0.artMode == true }
                try await driver.perform(.artMode(false))
                #expect(rig.simulator.state.power == .on && !rig.simulator.state.artMode)
                let beforeArt = events.events.count
                try rig.set(["art_mode": "on"])
                _ = try await Self.pushedState(events, after: beforeArt) { $0.artMode == true }
                try await driver.perform(.power(.off))
                try await waitFor { rig.simulator.state.power == .standby }
                #expect(rig.simulator.state.power == .standby)
                #expect(rig.remoteKeys.contains("KEY_POWER Release"))
            }
        }
    }

    /// The latest state event since the `after` first events, once it matches `condition`
    /// (waiting up to `hangBound`, in real time: a test whose driver runs under a manual clock
    /// gives it a generous one, since no product deadline is raced any more).
    static func pushedState(
        _ events: EventCollector, after mark: Int, hangBound: Duration = .seconds(5),
        _ condition: @escaping @Sendable (TVSnapshot) -> Bool
    ) async throws -> TVSnapshot {
        let deadline = ContinuousClock.now + hangBound
        while ContinuousClock.now < deadline {
            if let latest = states(events, after: mark).last, condition(latest) { return latest }
            try await Task.sleep(for: .milliseconds(20))
        }
        let latest = try #require(states(events, after: mark).last, "no state event within \(hangBound)")
        #expect(condition(latest), "the latest state event did not match within \(hangBound)")
        return latest
    }

    static func states(_ events: EventCollector, after mark: Int = 0) -> [TVSnapshot] {
        events.events.dropFirst(mark).compactMap { if case .state(let snapshot) = $0 { snapshot } else { nil } }
    }

    /// Polls until `condition` holds (up to 5 s).
    static func polledState(_ driver: SamsungDriver, _ condition: (TVSnapshot) -> Bool) async throws -> TVSnapshot {
        var snapshot = await driver.poll(full: false)
        for _ in 0..<50 where !condition(snapshot) {
            try await Task.sleep(for: .milliseconds(100))
            snapshot = await driver.poll(full: false)
        }
        return snapshot
    }
}
