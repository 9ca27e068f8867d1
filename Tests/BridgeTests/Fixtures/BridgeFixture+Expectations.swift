import Clients
import Configuration
import Harness
import TVSimulators
import Testing
import Wire

/// Waiting for what the bridge publishes and what a simulated TV receives, shared by the end
/// to end suites. Each records an issue when nothing comes. Conditions are passed to these
/// functions, never written inside #expect (see Tests/lint/closures_in_expectations.py).
extension BridgeFixture {
    /// The device-style discovery config's component `key` of a TV.
    func component(_ key: String, of id: String) async throws -> JSONValue {
        let found = await log.waitFor("homeassistant/device/\(id)/config") { message in
            (try? JSONParser.parse(message.payload))?["components"]?[key]?["unique_id"] != nil
        }
        let config = try #require(found, "no discovery config for \(id) with \(key)")
        let component = try JSONParser.parse(config.payload)["components"]?[key]
        return try #require(component)
    }

    /// Publishes what Home Assistant publishes when a user uses entity `key`: to its command
    /// topic, with `payload` or the button's `payload_press`.
    func use(_ key: String, of id: String, payload: String? = nil) async throws {
        let entity = try await component(key, of: id)
        let topic = try #require(entity["command_topic"]?.stringValue)
        let text = try #require(payload ?? entity["payload_press"]?.stringValue)
        try await publish(topic, text, qos: .atMostOnce)
    }

    /// Waits for a state document of `id` satisfying `condition`, among the messages from
    /// `after` on (a `log.count` taken before the action; 0 = any since the start).
    @discardableResult
    func expectState(
        _ id: String, _ comment: Comment? = nil, after: Int = 0, timeout: Duration = .seconds(30),
        sourceLocation: SourceLocation = #_sourceLocation,
        where condition: @escaping @Sendable (JSONValue) -> Bool
    ) async -> JSONValue? {
        let message = await log.waitFor("\(base)/\(id)/state", after: after, timeout: timeout) { message in
            guard let document = try? JSONParser.parse(message.payload) else { return false }
            return condition(document)
        }
        let document = message.flatMap { try? JSONParser.parse($0.payload) }
        #expect(document != nil, "no matching state. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
        return document
    }

    /// Waits for a message on `topic` satisfying `condition`, among the messages from `after` on.
    @discardableResult
    func expectMessage(
        _ topic: String, _ comment: Comment? = nil, after: Int = 0, timeout: Duration = .seconds(30),
        sourceLocation: SourceLocation = #_sourceLocation,
        where condition: @escaping @Sendable (MQTTMessage) -> Bool = { _ in true }
    ) async -> MQTTMessage? {
        let message = await log.waitFor(topic, after: after, timeout: timeout, where: condition)
        #expect(message != nil, "no message on \(topic). \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
        return message
    }

    /// Asks the bridge to discover (`bridge/request/discover`) until `id`'s discovery config is
    /// published: a datagram may be lost, so one search is never relied on.
    func discoverUntilConfigured(_ id: String, timeout: Duration = .seconds(60)) async -> Bool {
        let topic = "homeassistant/device/\(id)/config"
        return await waitUntil(timeout: timeout) {
            if await log.latest(topic) != nil { return true }
            try? await publish("\(base)/bridge/request/discover", "{}")
            return await log.waitFor(topic, timeout: .seconds(5)) { _ in true } != nil
        }
    }

    /// Waits for an event of `type` on `<base>/bridge/event` satisfying `condition`, among the
    /// messages from `after` on.
    @discardableResult
    func expectEvent(
        _ type: String, _ comment: Comment? = nil, after: Int = 0, sourceLocation: SourceLocation = #_sourceLocation,
        where condition: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
    ) async -> JSONValue? {
        let message = await log.waitFor("\(base)/bridge/event", after: after) { message in
            guard let event = try? JSONParser.parse(message.payload) else { return false }
            return event["type"] == .string(type) && condition(event)
        }
        let event = message.flatMap { try? JSONParser.parse($0.payload) }
        #expect(event != nil, "no \(type) event. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
        return event
    }
}

/// Waits for a line in a simulated TV's command log satisfying `condition`.
@discardableResult
func expectReceived(
    _ log: CommandLog, _ comment: Comment? = nil, timeout: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation,
    where condition: @escaping @Sendable (JSONValue) -> Bool
) async -> JSONValue? {
    let entry = await log.waitFor(timeout: timeout, condition)
    #expect(entry != nil, "the TV did not receive it. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    return entry
}

extension BridgeConfiguration {
    /// mDNS on, its queries to 127.255.255.255:`port` (simulated TVs answer there), one browse.
    mutating func browseMDNS(at port: UInt16) {
        discovery.mdns = true
        discovery.mdnsAddress = HostPort(host: "127.255.255.255", port: port)
        discovery.searchInterval = 0
    }
}
