import Drivers
import TVModel
import TVSimulators
import Testing
import Wire

/// The Frame's art mode against the simulator: every cell of the table in
/// Sources/Drivers/Samsung/README.md (start state × command → end state), the state a poll
/// reports, and art-mode changes pushed by the TV.
@Suite("Samsung The Frame: art mode")
struct SamsungArtModeTests {
    enum Screen: String, CaseIterable, Sendable {
        /// Network standby (the REST API answers `PowerState` standby).
        case off
        case art
        case tv
    }

    struct Cell: Sendable, CustomTestStringConvertible {
        var start: Screen
        var command: TVCommand
        var end: Screen
        var testDescription: String { "\(start) + \(command) → \(end)" }
    }

    /// The README's table, row by row.
    static let table: [Cell] = [
        Cell(start: .off, command: .power(.on), end: .tv),
        Cell(start: .off, command: .power(.off), end: .off),
        Cell(start: .off, command: .power(.toggle), end: .tv),
        Cell(start: .off, command: .artMode(true), end: .art),
        Cell(start: .off, command: .artMode(false), end: .off),
        Cell(start: .art, command: .power(.on), end: .tv),
        Cell(start: .art, command: .power(.off), end: .off),
        Cell(start: .art, command: .power(.toggle), end: .tv),
        Cell(start: .art, command: .artMode(true), end: .art),
        Cell(start: .art, command: .artMode(false), end: .tv),
        Cell(start: .tv, command: .power(.on), end: .tv),
        Cell(start: .tv, command: .power(.off), end: .off),
        Cell(start: .tv, command: .power(.toggle), end: .off),
        Cell(start: .tv, command: .artMode(true), end: .art),
        Cell(start: .tv, command: .artMode(false), end: .tv),
    ]

    static func screen(_ state: SamsungSimState) -> Screen {
        state.power != .on ? .off : state.artMode ? .art : .tv
    }

    static func fields(_ screen: Screen) -> [String: JSONValue] {
        switch screen {
        case .off: ["power": "standby"]
        case .art: ["power": "on", "art_mode": "on"]
        case .tv: ["power": "on", "art_mode": "off"]
        }
    }

    @Test("each start state × command ends where the README's table says", arguments: table)
    func cell(_ cell: Cell) async throws {
        try await withSamsungRig(frame: true, wol: true) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.pair()
                try rig.set(Self.fields(cell.start))
                _ = await driver.poll(full: false)
                try await driver.perform(cell.command)
                try await waitFor { Self.screen(rig.simulator.state) == cell.end }
                #expect(Self.screen(rig.simulator.state) == cell.end)
                // Never on when asked off: an OFF command never passes through a lit screen.
                if cell.command == .power(.off) || (cell.command == .artMode(false) && cell.start == .off) {
                    #expect(rig.entries("wol").isEmpty)
                }
            }
        }
    }

    @Test("a poll reports art mode: power OFF, power_mode art, art_mode ON; TV: power ON, art_mode OFF")
    func pollState() async throws {
        try await withSamsungRig(frame: true) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.pair()
                try rig.set(["art_mode": "on"])
                _ = await driver.poll(full: false)
                let art = try await eventuallySnapshot(driver) { $0.artMode == true }
                #expect(art.power == false)
                #expect(art.powerMode == "art")
                try rig.set(["art_mode": "off"])
                let tv = try await eventuallySnapshot(driver) { $0.artMode == false }
                #expect(tv.power == true)
                #expect(tv.powerMode == "on")
                try rig.set(["power": "standby"])
                let standby = await driver.poll(full: false)
                #expect(standby.power == false)
                #expect(standby.artMode == false)
            }
        }
    }

    @Test("art mode switched with the TV's own remote is pushed as a state event, without a poll")
    func pushed() async throws {
        try await withSamsungRig(frame: true) { rig in
            try await withDriver(rig.driver()) { driver, events in
                try await driver.pair()
                _ = await driver.poll(full: false)
                // Let the channel open and learn the current mode.
                try await Task.sleep(for: .milliseconds(500))
                try rig.set(["art_mode": "on"])
                await events.settle { list in
                    list.contains { if case .state(let snapshot) = $0 { snapshot.artMode == true } else { false } }
                }
                let pushed = events.events.compactMap { if case .state(let snapshot) = $0 { snapshot } else { nil } }
                #expect(pushed.last?.artMode == true)
                #expect(pushed.last?.power == false)
                #expect(pushed.last?.powerMode == "art")
            }
        }
    }

    @Test("art_mode is refused on a TV that is not a Frame, before anything is sent")
    func notFrame() async throws {
        try await withSamsungRig(frame: false) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                let error = await driverError { () async throws(DriverError) in try await driver.perform(.artMode(true))
                }
                #expect(error?.kind == .rejected)
                #expect(error?.message.contains("FrameTVSupport") == true)
                #expect(rig.remoteKeys.isEmpty)
            }
        }
    }

    @Test("a TV never paired gets no art channel: art_mode stays out of the state, power as REST says")
    func unpairedNoArtChannel() async throws {
        try await withSamsungRig(frame: true) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try rig.set(["art_mode": "on"])
                let snapshot = await driver.poll(full: false)
                #expect(snapshot.artMode == nil)
                #expect(snapshot.power == true)
                #expect(rig.entries("art_channel").isEmpty)
            }
        }
    }

    @Test("art_mode ON on a Frame never paired pairs on the remote channel first (its prompt), then shows art")
    func pairsFirst() async throws {
        try await withSamsungRig(frame: true) { rig in
            try await withDriver(rig.driver()) { driver, events in
                try await driver.perform(.artMode(true))
                #expect(rig.simulator.state.artMode)
                #expect(rig.entries("pairing").count == 1)
                #expect(events.pins.count == 1)
            }
        }
    }

    /// Polls until `condition` holds (up to ~10 s: the art channel opens in the background).
    private func eventuallySnapshot(_ driver: SamsungDriver, _ condition: (TVSnapshot) -> Bool) async throws
        -> TVSnapshot
    {
        var snapshot = await driver.poll(full: false)
        for _ in 0..<100 where !condition(snapshot) {
            try await Task.sleep(for: .milliseconds(100))
            snapshot = await driver.poll(full: false)
        }
        return snapshot
    }
}
