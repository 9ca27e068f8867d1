import Drivers
import Harness
import Net
import TVModel
import Testing

@testable import Bridge

/// The `app_icon` topic is bounded per TV: a TV that cycles through more apps than the icon
/// cache holds publishes at most `AppIconState.iconsPerWindow` retained pictures a minute.
@Suite("App icon limits")
struct AppIconLimitTests {
    @Test(
        "a TV cycling through 30 apps gets exactly 10 icons published in a minute; the topic is cleared past it, still at 60 s - 1 ms"
    )
    func iconsPerMinute() async throws {
        try await withBridgeFixture { fixture in
            var tv = TVDescription.sample()
            tv.capabilities.appIcons = true
            // The bridge runs under a manual clock, moved to 0 for its first poll: the whole
            // cycle happens inside the window, however slow the machine (it slept 200 ms of real
            // time per app and could only say "at most 10").
            let clock = ManualClock()
            // Its first poll is a timer due at once: moved to 0 until the TV is online.
            let firstPoll = Task {
                while !Task.isCancelled {
                    await clock.advance(to: .zero)
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            let driver = try await clock.run { try await fixture.startRecordingTV(tv) }
            firstPoll.cancel()
            let topic = "tv2mqtt/\(tv.identity.id)/app_icon"
            func icons() async -> Int { await fixture.log.all(topic).filter { !$0.payload.isEmpty }.count }
            func heldBack() -> Int { fixture.logs.lines.filter { $0.contains("app icon held back") }.count }
            func show(_ index: Int) {
                let snapshot = TVSnapshot(
                    reachable: true, power: true, powerMode: "PowerOn", app: "App \(index)", appID: "app\(index)")
                driver.setSnapshot(snapshot)  // what the next poll finds too
                driver.push(.state(snapshot))
            }
            for index in 0..<30 {
                let (icon, held) = (await icons(), heldBack())
                show(index)
                // Each app's icon is published, or held back (logged): then the next app.
                let settled = await waitUntil(timeout: .seconds(30)) { await icons() > icon || heldBack() > held }
                #expect(settled, "app \(index): neither published nor held back within 30 s")
            }
            #expect(await icons() == AppIconState.iconsPerWindow)
            // The icons of the last apps are held back; the topic ends cleared, not on an old icon.
            let last = await fixture.log.all(topic).last
            #expect(last?.payload.isEmpty == true, "the topic was cleared past the limit")

            await clock.advance(to: AppIconState.iconWindow - .milliseconds(1))
            let held = heldBack()
            show(30)
            _ = await waitUntil(timeout: .seconds(30)) { heldBack() > held }
            #expect(await icons() == AppIconState.iconsPerWindow, "still held back 1 ms before the window ends")

        }
    }
}
