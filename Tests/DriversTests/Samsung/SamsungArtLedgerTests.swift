import Testing

@testable import Drivers

/// What one art-channel connection makes of the TV's words (`SamsungArtLedger`): replies by
/// request id only, broadcasts newer than a reply win, two contradictions in a row mean a
/// wedged channel, a set is confirmed by its own reply only.
@Suite("Samsung art ledger", .cpuBound)
struct SamsungArtLedgerTests {
    let now = ContinuousClock.now

    static func reply(_ event: String, _ id: String?, _ value: String? = nil) -> SamsungArtPayload {
        SamsungArtPayload(event: event, requestID: id, value: value)
    }

    static let broadcastOn = SamsungArtPayload(event: "art_mode_changed", value: "on")
    static let broadcastOff = SamsungArtPayload(event: "art_mode_changed", value: "off")

    @Test("a status reply is matched by id whatever its name (2019 artmode_status, 2023 get_artmode_status)")
    func matchedByID() {
        var ledger = SamsungArtLedger()
        ledger.sent(.getArtMode(id: "a"), now: now)
        #expect(ledger.receive(Self.reply("get_artmode_status", "b", "on")) == [.unmatched("get_artmode_status")])
        #expect(ledger.receive(Self.reply("artmode_status", nil, "on")) == [.unmatched("artmode_status")])
        #expect(ledger.artMode == nil)
        #expect(ledger.receive(Self.reply("get_artmode_status", "a", "on")) == [.changed(true)])
        ledger.sent(.getArtMode(id: "c"), now: now)
        #expect(ledger.receive(Self.reply("artmode_status", "c", "off")) == [.changed(false)])
        // Answered once: the same id again is no answer.
        #expect(ledger.receive(Self.reply("artmode_status", "c", "on")) == [.unmatched("artmode_status")])
    }

    @Test("a broadcast newer than the status request outranks its (older) reply")
    func broadcastOutranksOlderReply() {
        var ledger = SamsungArtLedger()
        ledger.sent(.getArtMode(id: "a"), now: now)
        #expect(ledger.receive(Self.broadcastOn) == [.changed(true)])
        #expect(ledger.receive(Self.reply("get_artmode_status", "a", "off")).isEmpty)
        #expect(ledger.artMode == true)
    }

    @Test("replies contradicting the last broadcast twice in a row: wedged; an agreeing reply resets the count")
    func contradictions() {
        var ledger = SamsungArtLedger()
        _ = ledger.receive(Self.broadcastOn)
        ledger.sent(.getArtMode(id: "1"), now: now)
        #expect(ledger.receive(Self.reply("get_artmode_status", "1", "off")).isEmpty)
        ledger.sent(.getArtMode(id: "2"), now: now)
        #expect(ledger.receive(Self.reply("get_artmode_status", "2", "on")).isEmpty)
        ledger.sent(.getArtMode(id: "3"), now: now)
        #expect(ledger.receive(Self.reply("get_artmode_status", "3", "off")).isEmpty)
        ledger.sent(.getArtMode(id: "4"), now: now)
        #expect(ledger.receive(Self.reply("get_artmode_status", "4", "off")) == [.wedged])
        #expect(ledger.artMode == true)
    }

    @Test(
        "a set is confirmed by the reply with its id only; its value is not the state; art_mode_changed without it confirms nothing"
    )
    func setConfirmation() {
        var ledger = SamsungArtLedger(artMode: false)
        ledger.sent(.setArtMode(true, id: "s"), now: now)
        #expect(ledger.receive(Self.broadcastOn) == [.changed(true)])
        #expect(ledger.isPending("s"))
        #expect(ledger.receive(Self.reply("set_artmode_status", "x", "on")) == [.unmatched("set_artmode_status")])
        #expect(ledger.receive(Self.reply("set_artmode_status", "s", "off")) == [.confirmed(id: "s")])
        #expect(ledger.artMode == true)
        ledger.sent(.setArtMode(false, id: "t"), now: now)
        let refused = SamsungArtPayload(event: "error", requestID: "t", errorCode: "-3")
        #expect(ledger.receive(refused) == [.refused(.set(false), id: "t", code: "-3")])
    }

    @Test("the API version by id; go_to_standby is art off; unknown events and states are unmatched")
    func versionAndOthers() {
        var ledger = SamsungArtLedger(artMode: true)
        ledger.sent(.apiVersion(legacy: false, id: "v"), now: now)
        let version = SamsungArtPayload(event: "api_version", requestID: "v", version: "4.3.4.0")
        #expect(ledger.receive(version) == [.version("4.3.4.0")])
        #expect(ledger.receive(SamsungArtPayload(event: "go_to_standby")) == [.changed(false)])
        #expect(ledger.receive(SamsungArtPayload(event: "image_selected")) == [.unmatched("image_selected")])
        #expect(ledger.receive(Self.reply("art_mode_changed", nil, "nav")) == [.unmatched("art_mode_changed nav")])
    }

    @Test("a status request is overdue after the timeout; pending requests are bounded")
    func overdueAndBounded() {
        var ledger = SamsungArtLedger()
        ledger.sent(.getArtMode(id: "a"), now: now)
        #expect(ledger.statusPending)
        #expect(!ledger.statusOverdue(now: now + .seconds(4), timeout: .seconds(5)))
        #expect(ledger.statusOverdue(now: now + .seconds(5), timeout: .seconds(5)))
        for index in 0..<100 { ledger.sent(.setArtMode(true, id: "s\(index)"), now: now) }
        #expect(!ledger.statusPending)
        #expect(!ledger.isPending("s0"))
        #expect(ledger.isPending("s99"))
    }
}
