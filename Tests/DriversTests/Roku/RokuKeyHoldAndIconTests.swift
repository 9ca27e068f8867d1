import Drivers
import TVModel
import TVSimulators
import Testing
import Wire

/// Held keys that must come up whatever happens, and the icon request, against the simulator.
@Suite("Roku held keys and icons against the simulated Roku", .serialized)
struct RokuKeyHoldAndIconTests {
    @Test("a cancelled held key is still released (keyup after keydown), and the command fails")
    func cancelledHoldReleases() async throws {
        try await withRokuRig(driverECP2: .off) { rig in
            let plan = try rig.driver.plan(.holdKey(.vendor("Right"), milliseconds: 10_000))
            let driver = rig.driver
            let command = Task { () -> String? in
                do {
                    try await driver.execute(plan)
                    return nil
                } catch let error as DriverError {
                    return error.message
                } catch {
                    return "\(error)"
                }
            }
            let down = await rig.log.waitFor(timeout: .seconds(30)) { $0["kind"] == "keydown" }
            #expect(down != nil)
            command.cancel()
            let failure = await command.value
            #expect(failure?.contains("cut short") == true, "\(String(describing: failure))")
            let kinds = rig.log.entries.compactMap { $0["kind"]?.stringValue }.filter { $0.hasPrefix("key") }
            #expect(kinds == ["keydown", "keyup"])
        }
    }

    @Test("a press that fails (Limited mode) still tries the release and reports the press's failure")
    func failedPressStillReleases() async throws {
        try await withRokuRig(limited: true, driverECP2: .off) { rig in
            let plan = try rig.driver.plan(.holdKey(.shared(.up), milliseconds: 50))
            var failure: DriverError?
            do {
                try await rig.driver.execute(plan)
            } catch let error as DriverError {
                failure = error
            } catch {
                Issue.record("\(error)")
            }
            #expect(failure?.kind == .limitedMode)
            let kinds = rig.log.entries.compactMap { $0["kind"]?.stringValue }.filter { $0.hasPrefix("key") }
            #expect(kinds == ["keydown", "keyup"])
        }
    }

    @Test("icons: a channel's picture with its type, none for an input, the home screen or a bad id")
    func icons() async throws {
        try await withRokuRig(driverECP2: .off) { rig in
            let netflix = try await rig.driver.appIcon("12")
            #expect(
                netflix?.contentType == "image/jpeg"
                    && netflix?.bytes == RokuSimulator.icon(for: "12", kind: .tv)?.bytes)
            let youtube = try await rig.driver.appIcon("837")
            #expect(youtube?.contentType == "image/png")
            let input = try await rig.driver.appIcon("tvinput.hdmi1")
            #expect(input == nil)
            let home = try await rig.driver.appIcon("562859")
            #expect(home == nil)
            let bad = try await rig.driver.appIcon("../query/device-info")
            #expect(bad == nil)
            #expect(rig.simulator.iconRequestCount == 4, "the bad id is never sent")
        }
    }
}

/// What the driver sends for a search, against the documented request shape.
@Suite("Roku search request")
struct RokuSearchRequestTests {
    @Test("the search/browse request line matches the documented shape, every value percent-encoded")
    func requestLine() throws {
        let fixture = String(decoding: RokuFixtures.bytes("search-browse-request.http"), as: UTF8.self)
        let line = try #require(fixture.split(separator: "\r\n").first)
        let request = SearchRequest(keyword: "harry potter", type: "movie", launch: true)
        #expect(line == "POST \(RokuSearch.path(request)) HTTP/1.1")
        let odd = RokuSearch.path(SearchRequest(keyword: "a&b=c/d?é", provider: "Prime Video"))
        #expect(odd == "/search/browse?keyword=a%26b%3Dc%2Fd%3F%C3%A9&provider=Prime%20Video")
    }
}
