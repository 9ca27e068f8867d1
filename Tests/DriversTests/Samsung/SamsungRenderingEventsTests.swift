import Clients
import Net
import TVModel
import Testing
import Wire

@testable import Drivers

/// How pushed volume and mute meet the polls that also read them.
@Suite("Samsung UPnP events: pushes and polls")
struct SamsungRenderingEventsTests {
    static func events() -> SamsungRenderingEvents {
        SamsungRenderingEvents(
            listener: GENANotifyListener(port: 0, bindHost: "127.0.0.1"), http: HTTPClient(host: "127.0.0.1", port: 9),
            host: "127.0.0.1", logger: .disabled, emit: { _ in })
    }

    static func notify(seq: UInt32, volume: Int) -> GENANotify {
        let lastChange =
            "<Event xmlns=\"urn:schemas-upnp-org:metadata-1-0/RCS/\"><InstanceID val=\"0\">"
            + "<Volume channel=\"Master\" val=\"\(volume)\"/></InstanceID></Event>"
        return GENANotify(
            sid: "uuid:sub-1", seq: seq, properties: [GENAProperty(name: "LastChange", value: lastChange)])
    }

    static func on(volume: Int) -> TVSnapshot {
        var snapshot = TVSnapshot(reachable: true, power: true)
        snapshot.volume = volume
        snapshot.muted = false
        return snapshot
    }

    @Test("a volume pushed while a poll's own read was under way wins over that older read")
    func pushDuringPollWins() {
        let events = Self.events()
        events.polled(Self.on(volume: 12))
        #expect(events.receive(Self.notify(seq: 0, volume: 12)) == nil)
        // A poll reads 12, then the TV pushes 40 before that poll ends.
        let readBegan = events.pushCount
        #expect(events.receive(Self.notify(seq: 1, volume: 40)) == nil)
        let published = events.polled(Self.on(volume: 12), readSince: readBegan)
        #expect(published.volume == 40)
        // A poll whose read began after the push says what the TV says now.
        let later = events.pushCount
        #expect(events.polled(Self.on(volume: 30), readSince: later).volume == 30)
    }
}
