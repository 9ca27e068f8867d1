import Drivers
import MQTTInterface
import Support
import TVModel
import Testing
import Wire

@testable import Bridge

/// `TVStateTracker` is the one owner of a TV's availability and state topics: it compares
/// each snapshot once with what it last published and says what to send.
@Suite("TV state tracker")
struct TVStateTrackerTests {
    static let tv = TVDescription.sample()
    static let on = TVSnapshot(reachable: true, power: true, powerMode: "PowerOn", app: "Netflix", appID: "12")

    static func update(
        _ tracker: inout TVStateTracker, _ snapshot: TVSnapshot, now: Double = 1_000, tv: TVDescription = tv
    ) -> TVStateTracker.Changes {
        tracker.update(snapshot, description: tv, limitedModeMessage: "limited by a setting", now: now)
    }

    static func document(_ changes: TVStateTracker.Changes) throws -> [String: JSONValue] {
        let bytes = try #require(changes.state)
        guard case .object(let members) = try JSONParser.parse(bytes) else { throw TestFailure.notAnObject }
        return members
    }

    enum TestFailure: Error { case notAnObject }

    @Test("the first snapshot publishes availability and state; the same snapshot again publishes nothing")
    func repeatedSnapshotPublishesNothing() throws {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        let first = Self.update(&tracker, Self.on)
        #expect(first.availability == "online")
        let state = try Self.document(first)
        #expect(state["power"] == .string("ON") && state["app"] == .string("Netflix"))
        let again = Self.update(&tracker, Self.on, now: 2_000)
        #expect(again == TVStateTracker.Changes(), "a steady TV costs no message, however time passes")
    }

    @Test("a changed field publishes the state once, with last_seen refreshed, and availability not again")
    func changedFieldPublishesOnce() throws {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        _ = Self.update(&tracker, Self.on, now: 1_000)
        var louder = Self.on
        louder.volume = 30
        let changed = Self.update(&tracker, louder, now: 2_000)
        #expect(changed.availability == nil)
        let state = try Self.document(changed)
        #expect(state["volume"] == .integer(30))
        #expect(state["last_seen"] == .string(isoTimestamp(2_000, fractional: false)))
        let same = Self.update(&tracker, louder, now: 3_000)
        #expect(same == TVStateTracker.Changes())
    }

    @Test("a TV that stops answering: offline, one tv_lost with the driver's hint, state republished; then quiet")
    func lostOnce() throws {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        _ = Self.update(&tracker, Self.on, now: 1_000)
        var gone = TVSnapshot.unreachable
        gone.unreachableHint = "check the network"
        let lost = Self.update(&tracker, gone, now: 2_000)
        #expect(lost.availability == "offline")
        let event = try #require(lost.lost)
        #expect(event.kind == .tvLost && event.tv == Self.tv.identity.id.rawValue)
        #expect(event.message == "Living Room stopped answering: check the network")
        let state = try Self.document(lost)
        #expect(state["last_seen"] == .string(isoTimestamp(1_000, fractional: false)), "when it last answered")
        var otherHint = gone
        otherHint.unreachableHint = "another idea"
        let still = Self.update(&tracker, otherHint, now: 3_000)
        #expect(still == TVStateTracker.Changes(), "the hint is not part of the document")
        let back = Self.update(&tracker, Self.on, now: 4_000)
        #expect(back.availability == "online" && back.state != nil && back.lost == nil)
    }

    @Test("a TV unreachable from the start is offline without a tv_lost")
    func unreachableAtStart() {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        let first = Self.update(&tracker, .unreachable)
        #expect(first.availability == "offline" && first.lost == nil && first.state != nil)
    }

    @Test("limited_mode: one event when the TV turns limited or its reason changes, the same words once an hour")
    func limitedModeOnce() throws {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        var limited = Self.on
        limited.limitedMode = true
        let first = Self.update(&tracker, limited)
        #expect(first.limited?.message == "limited by a setting", "the driver's words when the TV gives none")
        #expect(first.limited?.kind == .limitedMode)
        #expect(Self.update(&tracker, limited).limited == nil)
        limited.limitedReason = "choose Permissive"
        #expect(Self.update(&tracker, limited).limited?.message == "choose Permissive")
        _ = Self.update(&tracker, Self.on)
        #expect(Self.update(&tracker, limited).limited == nil, "the same words again within the hour")
    }

    @Test("a new host or input reporting republishes the state document")
    func descriptionChangeRepublishes() throws {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        _ = Self.update(&tracker, Self.on)
        let moved = TVDescription.sample(host: "127.0.0.3")
        let state = try Self.document(Self.update(&tracker, Self.on, tv: moved))
        #expect(state["host"] == .string("127.0.0.3"))
        var reportsInput = moved
        reportsInput.capabilities.inputState = true
        let withInput = try Self.document(Self.update(&tracker, Self.on, tv: reportsInput))
        #expect(withInput["input"] == .null)
    }

    @Test("the published document is the state document, byte for byte")
    func documentIsTheStateDocument() throws {
        var tracker = TVStateTracker(id: Self.tv.identity.id)
        let changes = Self.update(&tracker, Self.on, now: 1_000)
        let expected = StateDocument.json(Self.on, host: "127.0.0.2", reportsInput: false, lastSeen: 1_000)
        #expect(changes.state == expected.serializedBytes())
        #expect(tracker.lastSeen == 1_000)
    }
}
