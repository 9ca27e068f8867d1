import Support
import TVModel
import Testing

@testable import Drivers

/// A Frame in art mode whose volume is pushed by UPnP events between polls: both pushes build on
/// one snapshot, so neither undoes the other (the volume push keeps `power` OFF and `power_mode`
/// art; a later art push keeps the pushed volume).
@Suite("Samsung art mode and UPnP volume pushes")
struct SamsungArtAmendTests {
    static let timeouts = SamsungChannel.Timeouts(
        connect: .seconds(1), handshake: .seconds(1), keepAlive: .seconds(30), keepAliveTimeout: .seconds(5))

    @Test("a volume pushed while art shows keeps power OFF and power_mode art")
    func volumePushKeepsArt() {
        let logger = Logger(label: "art", sink: DiscardingSink(), threshold: LogThreshold(.error))
        let art = SamsungArt(timeouts: Self.timeouts, logger: logger, emit: { _ in })
        var polled = TVSnapshot(reachable: true, power: true, powerMode: "on", controlPath: .websocket)
        polled.volume = 10
        art.remember(polled, frameTV: true, artMode: true)
        var pushed = polled
        pushed.volume = 20
        let merged = art.amend(pushed)
        #expect(merged.volume == 20)
        #expect(merged.power == false)
        #expect(merged.powerMode == "art")
        #expect(merged.artMode == true)
    }

    @Test("before any poll a pushed state passes unchanged; on a TV that is not a Frame nothing is merged")
    func noPollNoFrame() {
        let logger = Logger(label: "art", sink: DiscardingSink(), threshold: LogThreshold(.error))
        let art = SamsungArt(timeouts: Self.timeouts, logger: logger, emit: { _ in })
        var pushed = TVSnapshot(reachable: true, power: true, powerMode: "on", controlPath: .websocket)
        pushed.volume = 5
        #expect(art.amend(pushed) == pushed)
        art.remember(pushed, frameTV: false, artMode: nil)
        #expect(art.amend(pushed) == pushed)
    }
}
