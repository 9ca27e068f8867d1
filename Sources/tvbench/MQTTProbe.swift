import Clients
import Support
import Synchronization
import Wire

/// An MQTT client of ours that publishes commands and watches what the bridge publishes,
/// stamping each message with the wall clock when it arrives.
///
/// The latest message of every topic is kept (the bridge's topics are retained, one value per
/// topic), so "every TV has a state" is a count over a dictionary.
final class MQTTProbe: Sendable {
    struct Seen: Sendable {
        var payload: [UInt8]
        /// Wall-clock seconds when this payload arrived.
        var at: Double
        /// Wall-clock seconds when the topic's first message arrived.
        var first: Double
        /// How many messages this topic has had.
        var count: Int
    }

    let client: MQTTClient
    private let latest = Mutex<[String: Seen]>([:])
    private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])

    private init(client: MQTTClient) { self.client = client }

    /// Connects (at most 10 s) and subscribes to `filters` at QoS 1.
    static func connect(to broker: BenchBroker, clientID: String, filters: [String]) async throws -> MQTTProbe {
        let configuration = MQTTClientConfiguration(
            host: broker.host, port: broker.port, session: MQTTSessionConfiguration(clientID: clientID))
        let client = try MQTTClient(configuration: configuration, logger: .disabled)
        let probe = MQTTProbe(client: client)
        let running = Task { await client.run() }
        let consuming = Task { [probe] in
            for await message in client.messages {
                let now = wallClockSeconds()
                probe.latest.withLock { table in
                    let previous = table[message.topic]
                    table[message.topic] = Seen(
                        payload: message.payload, at: now, first: previous?.first ?? now,
                        count: (previous?.count ?? 0) + 1)
                }
            }
        }
        probe.tasks.withLock { $0 = [running, consuming] }
        guard await client.waitUntilConnected(timeout: .seconds(10)) else {
            await probe.stop()
            throw BenchError("cannot connect to mosquitto at \(broker.url)")
        }
        for filter in filters { try await client.subscribe(filter, qos: .atLeastOnce) }
        return probe
    }

    /// Disconnects and waits for the client's tasks.
    func stop() async {
        await client.stop()
        let running = tasks.withLock { $0 }
        for task in running {
            task.cancel()
            await task.value
        }
    }

    /// The latest message on `topic`.
    func seen(_ topic: String) -> Seen? { latest.withLock { $0[topic] } }

    /// When `topic` first had a message.
    func firstSeen(_ topic: String) -> Double? { latest.withLock { $0[topic]?.first } }

    /// Topics (of those seen) that `include` accepts.
    func topics(where include: (String) -> Bool) -> [String] {
        latest.withLock { $0.keys.filter(include) }
    }

    /// How many topics seen so far `include` accepts.
    func count(where include: (String) -> Bool) -> Int {
        latest.withLock { $0.keys.count(where: include) }
    }

    /// The ids of TVs with a state document: `<base>/<tv>/state`.
    func tvIDs(base: String) -> [String] {
        topics { $0.hasPrefix(base + "/") && $0.hasSuffix("/state") }
            .map { String($0.dropFirst(base.count + 1).dropLast("/state".count)) }
            .filter { $0 != "bridge" }
            .sorted()
    }

    /// The latest state document of `tv`, parsed.
    func state(base: String, tv: String) -> JSONValue? {
        guard let seen = seen("\(base)/\(tv)/state") else { return nil }
        return try? JSONParser.parse(seen.payload)
    }
}
