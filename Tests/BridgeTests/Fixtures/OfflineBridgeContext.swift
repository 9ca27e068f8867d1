import Clients
import Configuration
import MQTTInterface
import Support
import Synchronization
import Wire

@testable import Bridge

/// Everything a bridge context publishes, seen by its observer: a context with no broker
/// still tells its observer each message, retained value and clear (`BridgeObserver`).
final class PublishedLog: BridgeObserver {
    private let messages = Mutex<[(topic: String, payload: [UInt8])]>([])

    func published(topic: String, payload: [UInt8]) { messages.withLock { $0.append((topic, payload)) } }

    func brokerConnection(connected: Bool) {}

    /// The payloads published on `topic`, oldest first (an empty one is a clear).
    func payloads(_ topic: String) -> [[UInt8]] {
        messages.withLock { $0.filter { $0.topic == topic }.map(\.payload) }
    }

    /// The `command_failed` events' messages, oldest first.
    func commandFailures() -> [String] {
        payloads("tv2mqtt/bridge/event").compactMap { try? JSONParser.parse($0) }
            .filter { $0["type"] == "command_failed" }.compactMap { $0["message"]?.stringValue }
    }
}

extension BridgeContext {
    /// A context for one part of a TV's agent, tested alone: base topic `tv2mqtt`, a client that
    /// never connects (nothing leaves the process), `log` seeing what it publishes and `logs`
    /// what it logs (debug lines too).
    static func offline(_ log: PublishedLog, logs: CapturingSink = CapturingSink()) throws -> BridgeContext {
        let client = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: "127.0.0.1", port: 1, session: MQTTSessionConfiguration(clientID: "offline")),
            logger: .disabled)
        return BridgeContext(
            configuration: BridgeConfiguration(), vendors: .shipped, topics: Topics(base: "tv2mqtt"),
            publisher: BridgePublisher(client: client, logger: .disabled, observer: log),
            logger: Logger(label: "test", sink: logs, threshold: LogThreshold(.debug)), observer: log)
    }
}
