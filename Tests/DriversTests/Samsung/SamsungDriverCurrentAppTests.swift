import Drivers
import Net
import TVModel
import TVSimulators
import Testing
import Wire

/// The current app of a Samsung TV (no foreground-app query exists): the launched app checked
/// at every poll, other apps scanned a few per poll, at most 2 REST app requests per poll.
@Suite("Samsung driver: the current app against the simulated TV", .serialized)
struct SamsungDriverCurrentAppTests {
    static let netflix = "3201907018807"
    static let youtube = "111299001912"
    static let configured = ["Netflix": netflix, "YouTube": youtube]

    /// One poll, with what it cost on the simulated TV.
    struct Polled {
        let snapshot: TVSnapshot
        let appRequests: Int
        let httpRequests: Int
    }

    static func poll(_ driver: SamsungDriver, _ rig: SamsungRig, full: Bool = false) async -> Polled {
        let apps = rig.simulator.applicationStatusRequestCount
        let http = rig.simulator.httpRequestCount
        let snapshot = await driver.poll(full: full)
        return Polled(
            snapshot: snapshot, appRequests: rig.simulator.applicationStatusRequestCount - apps,
            httpRequests: rig.simulator.httpRequestCount - http)
    }

    @Test("an app launched by the driver is the current app at the next poll, for one request")
    func launchedApp() async throws {
        try await withSamsungRig(configuredApps: Self.configured) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                let home = await Self.poll(driver, rig, full: true)
                #expect(home.snapshot.app == nil && home.snapshot.appID == nil)
                #expect(home.snapshot.input == nil, "Tizen has no source query")
                try await driver.perform(.app("Netflix"))
                try await waitFor { rig.simulator.state.appID == Self.netflix }
                let polled = await Self.poll(driver, rig)
                #expect(polled.snapshot.app == "Netflix")
                #expect(polled.snapshot.appID == Self.netflix)
                #expect(polled.appRequests == 1, "the candidate is in front: nothing else is asked")
                #expect(polled.httpRequests == 4, "REST, GetVolume, GetMute, one app status")
            }
        }
    }

    @Test("KEY_HOME closes the app: the next poll reports none")
    func homeClears() async throws {
        try await withSamsungRig(configuredApps: Self.configured) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                _ = await Self.poll(driver, rig, full: true)
                try await driver.perform(.app("YouTube"))
                try await waitFor { rig.simulator.state.appID == Self.youtube }
                let running = await Self.poll(driver, rig)
                #expect(running.snapshot.app == "YouTube")
                try await driver.perform(.key(.shared(.home), repeat: 1))
                try await waitFor { rig.simulator.state.appID == nil }
                let home = await Self.poll(driver, rig)
                #expect(home.snapshot.app == nil && home.snapshot.appID == nil)
                #expect(home.appRequests <= SamsungAppWatch.requestsPerPoll)
            }
        }
    }

    @Test("apps started with the TV's remote are found within ⌊N/2⌋+1 polls, ≤ 2 requests each")
    func startedWithRemote() async throws {
        try await withSamsungRig { rig in
            let token = try await pairedToken(rig)
            // A clock that never moves: no request deadline (the app list's) passes on a busy machine.
            try await ManualClock().run {
                try await withDriver(rig.driver(token: token.token, pin: token.pin)) { driver, _ in
                    let first = await Self.poll(driver, rig, full: true)
                    #expect(first.snapshot.app == nil)
                    let known = await driver.description.apps.map(\.id)
                    #expect(known.count == SamsungCatalog.apps.count)
                    let bound = known.count / 2 + 1  // 4 polls for 7 apps
                    // Every app in turn, each straight from the previous one (the "left" path).
                    for app in SamsungCatalog.apps.reversed() {
                        try rig.set(["app": .string(app.id)])
                        var found: Int?
                        for poll in 1...bound {
                            let polled = await Self.poll(driver, rig)
                            #expect(polled.appRequests <= SamsungAppWatch.requestsPerPoll)
                            #expect(polled.httpRequests <= 5)
                            if polled.snapshot.appID == app.id {
                                #expect(polled.snapshot.app == app.name)
                                found = poll
                                break
                            }
                            #expect(polled.snapshot.app == nil, "never a stale or wrong app")
                        }
                        #expect(found != nil, "\(app.name) not found within \(bound) polls")
                    }
                    // Back to a recently seen app: found at the first poll.
                    let previous = SamsungCatalog.apps[1]
                    try rig.set(["app": .string(previous.id)])
                    let back = await Self.poll(driver, rig)
                    #expect(back.snapshot.appID == previous.id)
                    // A source instead of an app: none, still bounded.
                    try rig.set(["source": "HDMI1"])
                    let source = await Self.poll(driver, rig)
                    #expect(source.snapshot.app == nil && source.snapshot.input == nil)
                    #expect(source.appRequests <= SamsungAppWatch.requestsPerPoll)
                }
            }
        }
    }

    @Test("standby and off clear the app, without app requests; back on, it is found at once")
    func standbyClears() async throws {
        try await withSamsungRig(configuredApps: Self.configured) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                _ = await Self.poll(driver, rig, full: true)
                try await driver.perform(.app("Netflix"))
                try await waitFor { rig.simulator.state.appID == Self.netflix }
                let on = await Self.poll(driver, rig)
                #expect(on.snapshot.app == "Netflix")
                try await driver.perform(.power(.off))
                try await waitFor { rig.simulator.state.power == .standby }
                #expect(rig.simulator.state.power == .standby)
                let standby = await Self.poll(driver, rig)
                #expect(standby.snapshot.power == false)
                #expect(standby.snapshot.app == nil && standby.snapshot.appID == nil)
                #expect(standby.appRequests == 0)
                #expect(standby.httpRequests == 1, "in standby a poll is one REST request")
                try rig.set(["power": "on"])
                // The standby reading ended the power-off grace window: on is reported at once.
                let resumed = await Self.poll(driver, rig)
                #expect(resumed.snapshot.app == "Netflix", "the TV resumed the app; it was asked first")
                try rig.set(["power": "off"])
                let off = await Self.poll(driver, rig)
                #expect(off.snapshot.reachable == false && off.snapshot.app == nil)
            }
        }
    }

    @Test("an app launched by id that the list lacks is reported with the TV's name and listed")
    func launchedByID() async throws {
        // apps: false, the TV leaves ed.installedApp.get unanswered: the configured list is used.
        try await withSamsungRig(apps: false, configuredApps: ["Netflix": Self.netflix]) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                _ = await Self.poll(driver, rig, full: true)
                let prime = "3201910019365"
                try await driver.perform(.launch(appID: prime, contentID: nil, mediaType: nil))
                try await waitFor { rig.simulator.state.appID == prime }
                let polled = await Self.poll(driver, rig)
                #expect(polled.snapshot.app == "Prime Video")
                #expect(polled.snapshot.appID == prime)
                let names = await driver.description.apps.map(\.name)
                #expect(names == ["Netflix", "Prime Video"])
                let full = await Self.poll(driver, rig, full: true)
                #expect(full.snapshot.appID == prime)
                let namesAfterFull = await driver.description.apps.map(\.name)
                #expect(namesAfterFull == ["Netflix", "Prime Video"], "a full poll keeps it listed")
            }
        }
    }
}
