import MQTTInterface
import Support
import TVModel
import Wire

/// What every part of a running bridge shares.
struct BridgeContext: Sendable {
    let configuration: BridgeConfiguration
    let topics: Topics
    let publisher: BridgePublisher
    let logger: Logger
    /// "Now" for the bridge's timed decisions (`TimeSource.system` but in tests).
    let time: TimeSource
    /// Signalled when a TV's availability changes, so `bridge/tvs` is republished (coalesced).
    let tvListChanged = Wakeup()

    /// Publishes an event on `<base>/bridge/event` and logs it.
    func emit(_ event: BridgeEvent, level: LogLevel = .warning) async {
        var metadata: [(String, String)] = [("event", event.kind.rawValue)]
        if let tv = event.tv { metadata.append(("tv", tv)) }
        logger.log(level, event.message, metadata)
        await publisher.publish(topics.bridgeEvent, event.json.serializedBytes())
    }

    /// Publishes `{"status":"ok"|"error",…}` on a response topic.
    func respond(_ topic: String, ok: Bool, data: JSONValue = [:], error: String? = nil, transaction: JSONValue?)
        async
    {
        var members: [String: JSONValue] = ["status": ok ? "ok" : "error", "data": data]
        if let error { members["error"] = .string(error) }
        if let transaction { members["transaction"] = transaction }
        await publisher.publish(topic, JSONValue.object(members).serializedBytes())
    }
}

/// A command message for one TV, queued for its command worker.
struct CommandJob: Sendable {
    let commands: [TVCommand]
    let transaction: JSONValue?
    /// The topic it came on, for log lines and events.
    let topic: String
    /// When it arrived: a job older than `TVController.commandExpiry` is not run.
    var received = ContinuousClock.now
}
