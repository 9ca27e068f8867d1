import Drivers
import Harness
import Net
import Support
import TVModel
import Testing

@testable import Bridge

/// A TV's app icon publisher alone, with a recording driver and no broker: the one record of
/// what `<base>/<tv>/app_icon` holds, so each change is sent once and nothing else is.
@Suite("App icon publisher")
struct AppIconPublisherTests {
    static let tv = TVDescription.sample()
    static let topic = "tv2mqtt/roku_sample1/app_icon"
    static let off = TVSnapshot(reachable: true, power: false, powerMode: "DisplayOff")

    static func showing(_ appID: String) -> TVSnapshot {
        TVSnapshot(reachable: true, power: true, powerMode: "PowerOn", app: "App \(appID)", appID: appID)
    }

    let log = PublishedLog()
    let logs = CapturingSink()
    let driver = RecordingDriver(description: tv, snapshot: off)
    let clock = ManualClock()

    func publisher() throws -> (AppIconPublisher, BridgeContext) {
        let context = try BridgeContext.offline(log, logs: logs)
        return (AppIconPublisher(id: Self.tv.identity.id, driver: driver, context: context), context)
    }

    /// Shows what `snapshot` calls for and waits until the topic was sent `sent` payloads in all.
    func show(_ snapshot: TVSnapshot, on icons: AppIconPublisher, until sent: Int) async -> Bool {
        await clock.run { await icons.show(for: snapshot) }
        return await waitUntil { log.payloads(Self.topic).count >= sent }
    }

    @Test("the first snapshot without an icon clears what a previous run may have left, once")
    func firstNoneClears() async throws {
        let (icons, _) = try publisher()
        #expect(await icons.shown == .unknown)
        #expect(await show(Self.off, on: icons, until: 1))
        await icons.show(for: Self.off)
        #expect(log.payloads(Self.topic) == [[]])
        #expect(await icons.shown == .cleared)
    }

    @Test("an app's icon is fetched once and sent once; the bridge's publisher holds what the topic holds")
    func oneCopy() async throws {
        let (icons, context) = try publisher()
        // Cleared until the icon is fetched, then the icon.
        #expect(await show(Self.showing("12"), on: icons, until: 2))
        let netflix = RecordingDriver.icon("12").bytes
        await icons.show(for: Self.showing("12"))
        await icons.show(for: Self.showing("12"))
        #expect(log.payloads(Self.topic) == [[], netflix])
        #expect(await icons.shown == .icon(appID: "12"))
        #expect(await context.publisher.retainedPayload(Self.topic) == netflix)

        #expect(await show(Self.off, on: icons, until: 3))
        #expect(await icons.shown == .cleared)
        #expect(await context.publisher.retainedPayload(Self.topic) == nil)
        // Back on the same app: from the cache, at once.
        await icons.show(for: Self.showing("12"))
        #expect(log.payloads(Self.topic) == [[], netflix, [], netflix])
        #expect(driver.iconsAsked == ["12"])
    }

    @Test("10 icons a minute at most: the 11th app's is held back (the topic cleared) until 60 s after the first")
    func iconsPerWindow() async throws {
        let (icons, _) = try publisher()
        for index in 0..<AppIconPublisher.iconsPerWindow {
            // Each app: cleared while its icon is fetched, then the icon (the first clear is the start's).
            let sent = 2 * (index + 1)
            #expect(await show(Self.showing("app\(index)"), on: icons, until: sent), "app \(index)")
        }
        let eleventh = Self.showing("app10")
        await clock.run { await icons.show(for: eleventh) }
        // The topic is cleared at once; the icon, once fetched, is held back.
        let heldBack = await waitUntil { logs.lines.contains { $0.contains("app icon held back") } }
        #expect(heldBack)
        #expect(await icons.shown == .cleared)
        #expect(log.payloads(Self.topic).count == 2 * AppIconPublisher.iconsPerWindow + 1)

        await clock.advance(to: AppIconPublisher.iconWindow - .milliseconds(1))
        await clock.run { await icons.show(for: eleventh) }
        #expect(await icons.shown == .cleared, "still held back 1 ms before the window ends")
        await clock.advance(to: AppIconPublisher.iconWindow)
        await clock.run { await icons.show(for: eleventh) }
        #expect(await icons.shown == .icon(appID: "app10"))
        #expect(log.payloads(Self.topic).last == RecordingDriver.icon("app10").bytes)
        #expect(driver.iconsAsked.count == 11, "the held-back icon came from the cache")
    }
}
