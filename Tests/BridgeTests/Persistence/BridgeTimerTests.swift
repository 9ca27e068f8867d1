import Harness
import Net
import Testing

@testable import Bridge

/// The bridge's two deadlines that are loop timers on the running clock, not sleeping tasks:
/// the debounced state-file save and the republish after Home Assistant's `online`. The bridge
/// runs under a `ManualClock`, so each happens at its exact virtual instant and not before.
@Suite("Bridge timers on a ManualClock")
struct BridgeTimerTests {
    @Test("a change is saved exactly state_save_delay later, not before")
    func debouncedSave() async throws {
        try await withBridgeFixture { fixture in
            let clock = ManualClock()
            let file = fixture.stateDirectory.file("state.json")
            let delay = Duration.milliseconds(3700)
            try await clock.run {
                // A fresh state directory: the bridge makes its installation id and schedules a save.
                try await fixture.startBridge(
                    fixture.configuration { $0.stateSaveDelay = delay }, factory: RecordingFactory([]))
                #expect(await clock.waitForTimer(at: delay), "no save armed: \(clock.pendingDeadlines)")
                await clock.advance(to: delay - .milliseconds(1))
                #expect(FileText.read(file) == nil, "saved before the delay")
                await clock.advance(to: delay)
                let saved = await waitUntil(timeout: .seconds(30)) { FileText.read(file) != nil }
                #expect(saved, "not saved at the delay")
            }
        }
    }

    @Test("Home Assistant's online: discovery is republished at the random 1–5 s instant armed, exactly")
    func homeAssistantOnline() async throws {
        try await withBridgeFixture { fixture in
            let clock = ManualClock()
            try await clock.run {
                try await fixture.startBridge(fixture.configuration(), factory: RecordingFactory([]))
                // The first connection's stale-config sweep listens for 2 s, then discovery goes out.
                await clock.advance(to: .seconds(2))
                let discovered = await waitUntil(timeout: .seconds(30)) { await configs(fixture) > 0 }
                #expect(discovered, "no discovery published")
                let published = await configs(fixture)
                let armed = clock.pendingDeadlines
                try await fixture.publish("homeassistant/status", "online", qos: .atMostOnce)
                let heard = await waitUntil(timeout: .seconds(30)) {
                    fixture.logs.lines.contains { $0.contains("Home Assistant is online") }
                }
                #expect(heard)
                let republish = try #require(
                    await Self.newTimer(clock, besides: armed, within: .seconds(3)...(.seconds(7))),
                    "no republish armed 1–5 s after the message: \(clock.pendingDeadlines)")
                await clock.advance(to: republish - .milliseconds(1))
                #expect(await configs(fixture) == published, "republished before its instant")
                await clock.advance(to: republish)
                let again = await waitUntil(timeout: .seconds(30)) { await configs(fixture) > published }
                #expect(again, "not republished at \(republish)")
            }
        }
    }

    /// The discovery configs the observer has seen.
    private func configs(_ fixture: BridgeFixture) async -> Int {
        await fixture.log.all(prefix: "homeassistant/device/").count
    }

    /// The one timer armed since `armed` (a snapshot of `pendingDeadlines`) in `window`, once
    /// it is there.
    private static func newTimer(_ clock: ManualClock, besides armed: [Duration], within window: ClosedRange<Duration>)
        async -> Duration?
    {
        let new = { @Sendable (pending: [Duration]) -> [Duration] in
            var earlier = armed
            return pending.filter { deadline in
                if let index = earlier.firstIndex(of: deadline) {
                    earlier.remove(at: index)
                    return false
                }
                return window.contains(deadline)
            }
        }
        guard await clock.waitForTimers({ new($0).count == 1 }) else { return nil }
        return new(clock.pendingDeadlines).first
    }
}
