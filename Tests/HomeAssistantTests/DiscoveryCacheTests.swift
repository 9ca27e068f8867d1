import HomeAssistant
import TVModel
import TestSupport
import Testing
import Wire

@Suite("Discovery cache", .cpuBound)
struct DiscoveryCacheTests {
    static func tvMessages(_ style: DiscoverySettings.Style, volume: Bool = true, name: String = "Den")
        -> [DiscoveryMessage]
    {
        let identity = TVIdentity(
            id: TVID("samsung_1")!, kind: .samsung, name: name, manufacturer: "Samsung", host: "192.0.2.2", port: 8001)
        let capabilities = TVCapabilities(power: true, volumeKeys: true, volumeLevel: volume, muteState: volume)
        return DiscoveryBuilder.messages(for: identity, capabilities: capabilities, settings: Samples.settings(style))
    }

    @Test("A config is sent once and not again while it is unchanged")
    func unchangedNotResent() {
        var cache = DiscoveryCache()
        let messages = Self.tvMessages(.entity)
        #expect(cache.plan(messages) == messages)
        #expect(cache.plan(messages).isEmpty)
        #expect(cache.count == messages.count)
        #expect(cache.isCurrent(topic: messages[0].topic, payload: messages[0].payload))
    }

    @Test("A changed config is sent, and only that one")
    func changedIsSent() {
        var cache = DiscoveryCache()
        _ = cache.plan(Self.tvMessages(.device))
        let renamed = Self.tvMessages(.device, name: "Bedroom")
        #expect(cache.plan(renamed) == renamed)

        var entityCache = DiscoveryCache()
        _ = entityCache.plan(Self.tvMessages(.entity))
        // In entity style every config carries the device block, so a rename changes them all.
        #expect(entityCache.plan(Self.tvMessages(.entity, name: "Bedroom")).count == Self.tvMessages(.entity).count)
    }

    @Test("Payloads that differ only in Unicode normalisation are different payloads")
    func exactBytes() {
        var cache = DiscoveryCache()
        let composed = DiscoveryMessage(topic: "t", payload: "{\"name\":\"caf\u{E9}\"}")
        let decomposed = DiscoveryMessage(topic: "t", payload: "{\"name\":\"cafe\u{301}\"}")
        #expect(composed.payload == decomposed.payload)  // Swift compares canonically…
        #expect(cache.plan([composed]) == [composed])
        #expect(cache.plan([decomposed]) == [decomposed])  // …the broker and Home Assistant do not.
    }

    @Test("A removed TV's configs are cleared, once, in both styles", arguments: DiscoverySettings.Style.allCases)
    func removedTVCleared(style: DiscoverySettings.Style) {
        var cache = DiscoveryCache()
        let messages = Self.tvMessages(style)
        _ = cache.plan(messages, owner: "samsung_1")
        let clears = DiscoveryBuilder.clearMessages(for: TVID("samsung_1")!, settings: Samples.settings(style))
        let allClears = clears.allSatisfy { $0.isClear }
        #expect(allClears)
        #expect(Set(messages.map(\.topic)).isSubset(of: Set(clears.map(\.topic))))
        #expect(cache.plan(clears, owner: "samsung_1") == clears)
        #expect(cache.plan(clears, owner: "samsung_1").isEmpty)
        // Coming back is a change again.
        #expect(cache.plan(messages, owner: "samsung_1") == messages)
    }

    @Test("clearAll(owner:) clears exactly what the owner was given")
    func clearAllOwner() {
        var cache = DiscoveryCache()
        let tv = Self.tvMessages(.entity)
        let bridge = DiscoveryBuilder.bridgeMessages(settings: Samples.settings(.entity))
        _ = cache.plan(tv, owner: "samsung_1")
        _ = cache.plan(bridge, owner: "bridge")
        let clears = cache.clearAll(owner: "samsung_1")
        #expect(clears.map(\.topic) == tv.map(\.topic).sorted())
        let allClears = clears.allSatisfy { $0.isClear }
        #expect(allClears)
        #expect(cache.clearAll(owner: "samsung_1").isEmpty)
        #expect(cache.plan(bridge, owner: "bridge").isEmpty)
    }

    @Test("In entity style a lost capability clears that entity's config")
    func lostCapabilityCleared() {
        var cache = DiscoveryCache()
        _ = cache.plan(Self.tvMessages(.entity, volume: true), owner: "samsung_1")
        let planned = cache.plan(Self.tvMessages(.entity, volume: false), owner: "samsung_1")
        #expect(
            planned == [
                .clear("homeassistant/number/samsung_1/volume/config"),
                .clear("homeassistant/switch/samsung_1/mute/config"),
            ])
    }

    @Test("In device style a lost capability turns its component into a removal stub")
    func lostCapabilityStub() throws {
        var cache = DiscoveryCache()
        _ = cache.plan(Self.tvMessages(.device, volume: true), owner: "samsung_1")
        let planned = cache.plan(Self.tvMessages(.device, volume: false), owner: "samsung_1")
        #expect(planned.count == 1)
        let components = try JSONParser.parse(planned[0].payload)["components"]
        #expect(components?["volume"] == ["platform": "number"])
        #expect(components?["mute"] == ["platform": "switch"])
    }

    @Test("forgetAll makes the next plan send everything again")
    func forgetAll() {
        var cache = DiscoveryCache()
        let messages = Self.tvMessages(.entity)
        _ = cache.plan(messages, owner: "samsung_1")
        cache.forgetAll()
        #expect(cache.count == 0)
        #expect(cache.plan(messages, owner: "samsung_1") == messages)
        // Ownership survives: what was published is still retained on the broker.
        cache.forgetAll()
        #expect(cache.clearAll(owner: "samsung_1").count == messages.count)
    }

    @Test("forget(topic:) resends just that topic")
    func forgetTopic() {
        var cache = DiscoveryCache()
        let messages = Self.tvMessages(.entity)
        _ = cache.plan(messages)
        cache.forget(topic: messages[2].topic)
        #expect(cache.plan(messages) == [messages[2]])
    }
}
