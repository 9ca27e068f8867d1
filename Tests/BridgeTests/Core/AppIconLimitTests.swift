import Drivers
import TVModel
import Testing

@testable import Bridge

/// The `app_icon` topic is bounded per TV: a TV that cycles through more apps than the icon
/// cache holds publishes at most `AppIconState.iconsPerWindow` retained pictures a minute.
@Suite("App icon limits")
struct AppIconLimitTests {
    @Test("a TV cycling through 30 apps gets at most 10 icons published in a minute; the topic is cleared past it")
    func iconsPerMinute() async throws {
        try await withBridgeFixture { fixture in
            var tv = TVDescription.sample()
            tv.capabilities.appIcons = true
            let driver = try await fixture.startRecordingTV(tv)
            let topic = "tv2mqtt/\(tv.identity.id)/app_icon"
            for index in 0..<30 {
                let snapshot = TVSnapshot(
                    reachable: true, power: true, powerMode: "PowerOn", app: "App \(index)", appID: "app\(index)")
                driver.setSnapshot(snapshot)  // what the next poll finds too
                driver.push(.state(snapshot))
                try await Task.sleep(for: .milliseconds(200))  // each app long enough for its icon
            }
            try await Task.sleep(for: .seconds(1))
            // The icons of the last apps are held back; the topic ends cleared, not on an old icon.
            let messages = await fixture.log.all(topic)
            let icons = messages.filter { !$0.payload.isEmpty }
            #expect(icons.count <= AppIconState.iconsPerWindow, "\(icons.count) icons published")
            #expect(icons.count >= AppIconState.iconsPerWindow / 2, "\(icons.count) icons published")
            #expect(messages.last?.payload.isEmpty == true, "the topic was cleared past the limit")
        }
    }
}
