import Configuration
import Drivers
import MQTTInterface
import Net
import Support
import TVModel
import Wire

/// What every part of a running bridge shares.
struct BridgeContext: Sendable {
    let configuration: BridgeConfiguration
    /// The vendors the bridge drives (its driver factory's).
    let vendors: [Vendor]
    let topics: Topics
    let publisher: BridgePublisher
    let logger: Logger
    /// Signalled when a TV's availability changes, so `bridge/tvs` is republished (coalesced).
    let tvListChanged = Wakeup()
    /// Bounds the TVs' first polls at start (`TVPoller`).
    let firstPolls = ProbePool(concurrency: TVPoller.firstPollConcurrency)
    /// The status page's feed; nil while the page is off.
    var observer: (any BridgeObserver)? = nil

    /// Publishes an event on `<base>/bridge/event` and logs it.
    func emit(_ event: BridgeEvent, level: LogLevel = .warning) async {
        var metadata: [(String, String)] = [("event", event.kind.rawValue)]
        if let tv = event.tv { metadata.append(("tv", tv)) }
        logger.log(level, event.message, metadata)
        await publisher.publish(topics.bridgeEvent, event.json.serializedBytes())
        await publishTVEvent(event)
    }

    /// Publishes `{"status":"ok"|"error",…}` on a response topic.
    func respond(
        _ topic: String, ok: Bool, data: JSONValue = [:], error: String? = nil, transaction: JSONValue?
    )
        async
    {
        var members: [String: JSONValue] = ["status": ok ? "ok" : "error", "data": data]
        if let error { members["error"] = .string(error) }
        if let transaction { members["transaction"] = transaction }
        await publisher.publish(topic, JSONValue.object(members).serializedBytes())
    }

    /// The one `command_failed` report (README › Events): the event on `<base>/bridge/event`, and a
    /// response on the TV's response topic when the message gave a transaction. `tv` is the
    /// topic's segment as sent (it may name no TV).
    func commandFailed(
        _ message: String, tv: String, origin: CommandOrigin, command: TVCommand? = nil
    ) async {
        var data: [String: JSONValue] = ["topic": .string(origin.topic)]
        if let property = origin.property { data["property"] = .string(property) }
        if let command { data["command"] = .string(command.name) }
        await emit(BridgeEvent(.commandFailed, tv: tv, message: message, data: data))
        if let transaction = origin.transaction, let id = TVID(tv) {
            await respond(topics.response(id), ok: false, error: message, transaction: transaction)
        }
    }
}
