import Harness
import Support
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// Issue 13 item 6: a stranger cannot take over a TV's identity. A simulated Roku on one
/// loopback address, an impostor reporting the same serial on another.
@Suite("A stranger cannot take over a TV's identity", .serialized)
struct IdentityTakeoverTests {
    /// Waits up to `timeout` for a log line containing `text`.
    func logLine(_ fixture: BridgeFixture, containing text: String, timeout: Duration = .seconds(30)) async
        -> String?
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = fixture.logs.lines.first(where: { $0.contains(text) }) { return line }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test(
        "an impostor with a known serial: the TV stays where it answers, the conflict is logged, commands reach the real TV"
    )
    func impostorIsRefused() async throws {
        try await withRokus { fixture, rokus in
            let real = try await rokus.start("127.0.0.51")
            try await RokuEndToEndTests().startBridge(fixture, rokus)
            let id = SimulatedRokus.id(real)
            await fixture.expectState(id) { $0["host"] == "127.0.0.51" }
            var options = RokuSimulatorOptions()
            options.host = "127.0.0.52"
            options.serial = real.serial
            options.ssdpPort = rokus.ssdpPort
            let impostorLog = CommandLog.memory()
            let impostor = try await RokuSimulator.start(options, log: impostorLog)
            do {
                try await fixture.publish("tv2mqtt/bridge/request/discover", "{}")
                let conflict = await logLine(fixture, containing: "keeping it at 127.0.0.51")
                #expect(conflict?.contains("127.0.0.52") == true, "\(String(describing: conflict))")
                let moves = fixture.logs.lines.filter { $0.contains("TV moved to a new address") }
                #expect(moves.isEmpty, "\(moves)")
                try await fixture.use("home", of: id)
                for _ in 0..<100 where rokus.entries("keypress", of: real).isEmpty {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(rokus.entries("keypress", of: real).count == 1)
                let latest = await fixture.log.latest("tv2mqtt/\(id)/state")
                let state = try JSONParser.parse(#require(latest).payload)
                #expect(state["host"] == "127.0.0.51")
                #expect(impostorLog.entries.isEmpty, "nothing reached the impostor")
            } catch {
                await impostor.stop()
                throw error
            }
            await impostor.stop()
        }
    }

    @Test("a TV whose old address no longer answers as it moves to the new one")
    func realMoveIsFollowed() async throws {
        try await withRokus { fixture, rokus in
            let real = try await rokus.start("127.0.0.53")
            try await RokuEndToEndTests().startBridge(fixture, rokus)
            let id = SimulatedRokus.id(real)
            await fixture.expectState(id) { $0["host"] == "127.0.0.53" }
            await rokus.stop("127.0.0.53")
            var options = RokuSimulatorOptions()
            options.host = "127.0.0.54"
            options.serial = real.serial
            options.ssdpPort = rokus.ssdpPort
            let moved = try await RokuSimulator.start(options, log: CommandLog.memory())
            do {
                try await fixture.publish("tv2mqtt/bridge/request/discover", "{}")
                await fixture.expectState(id, timeout: .seconds(30)) { $0["host"] == "127.0.0.54" }
            } catch {
                await moved.stop()
                throw error
            }
            await moved.stop()
        }
    }
}
