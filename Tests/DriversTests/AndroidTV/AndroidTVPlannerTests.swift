import TVModel
import Testing

@testable import Drivers

/// What each command becomes on an Android TV, and what is refused before anything is sent.
@Suite("Android TV planner: commands to actions, refusals with the reason")
struct AndroidTVPlannerTests {
    let planner = AndroidTVPlanner(apps: AndroidTVApps.defaults, ime: true)

    func refusal(_ command: TVCommand, _ planner: AndroidTVPlanner? = nil) -> String? {
        do {
            _ = try (planner ?? self.planner).plan(command)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("keys repeat, hold, and power goes to the power logic")
    func keys() throws {
        #expect(try planner.plan(.key(.shared(.up), repeat: 3)) == [.keys([19, 19, 19])])
        #expect(try planner.plan(.key(TVKey("PROG_RED"), repeat: 1)) == [.keys([183])])
        #expect(try planner.plan(.holdKey(.shared(.right), milliseconds: 800)) == [.hold(22, milliseconds: 800)])
        #expect(try planner.plan(.key(.shared(.powerOff), repeat: 1)) == [.power(.off)])
        #expect(try planner.plan(.power(.toggle)) == [.power(.toggle)])
        #expect(refusal(.holdKey(.shared(.powerOn), milliseconds: 500))?.contains("cannot be held") == true)
    }

    @Test("an app by name in any case, by link, or by package; an unknown name lists the names")
    func apps() throws {
        #expect(try planner.plan(.app("youtube")) == [.appLink("https://www.youtube.com")])
        #expect(
            try planner.plan(.app("https://www.netflix.com/title/80057281")) == [
                .appLink("https://www.netflix.com/title/80057281")
            ])
        #expect(try planner.plan(.app("com.plexapp.android")) == [.appLink("market://launch?id=com.plexapp.android")])
        let unknown = refusal(.app("Plex"))
        #expect(unknown?.contains("unknown app 'Plex'") == true && unknown?.contains("Netflix") == true)
        #expect(refusal(.app("a..b")) != nil, "not a package name")
        #expect(
            refusal(.launch(appID: "Netflix", contentID: "80057281", mediaType: nil))?.contains("app link") == true)
        #expect(
            try planner.plan(.launch(appID: "Netflix", contentID: nil, mediaType: nil)) == [
                .appLink("https://www.netflix.com/title")
            ])
    }

    @Test("inputs by key; volume, mute and text; what the protocol cannot do is refused with the reason")
    func others() throws {
        #expect(try planner.plan(.input("hdmi2")) == [.keys([244])])
        #expect(refusal(.input("HDMI9"))?.contains("HDMI1, HDMI2") == true)
        #expect(try planner.plan(.volume(30)) == [.volume(30)])
        #expect(try planner.plan(.mute(false)) == [.mute(false)])
        #expect(try planner.plan(.text("hello")) == [.text("hello")])
        #expect(refusal(.text("hello"), AndroidTVPlanner(apps: [], ime: false))?.contains("androidtv.ime") == true)
        #expect(refusal(.channel("7.1"))?.contains("channel_up") == true)
        #expect(refusal(.screen(false)) == "screen is not supported by this TV")
        #expect(refusal(.toast("hi")) == "toast is not supported by this TV")
    }
}
