import Bridge
import MQTTInterface
import Net
import Support
import Synchronization
import Wire

/// What the page shows live: the bridge's published messages (`BridgeObserver`) and its log
/// lines (`sink(wrapping:)`), kept in bounded rings and passed on to every open event stream.
/// Made only when the page is on; a bridge without it keeps nothing of this.
public final class StatusFeed: BridgeObserver, Sendable {
    struct State {
        var log = Ring<JSONValue>(capacity: StatusPageLimits.ringCapacity)
        var events = Ring<JSONValue>(capacity: StatusPageLimits.ringCapacity)
        var brokerHistory = Ring<JSONValue>(capacity: StatusPageLimits.brokerHistory)
        /// The last error event of each known TV.
        var lastErrors: [String: JSONValue] = [:]
        /// TVs whose availability is published: bounds `lastErrors` to TVs that exist.
        var known: Set<String> = []
        var lastSearchAt: Double?
        var answers = Ring<JSONValue>(capacity: StatusPageLimits.discoveryEntries)
        var refusals = Ring<JSONValue>(capacity: StatusPageLimits.discoveryEntries)
        var streams: [Int: AsyncStream<String>.Continuation] = [:]
        /// The address each stream was opened from, when it counts against a share.
        var streamSources: [Int: String] = [:]
        var nextStream = 0
        var service: BridgeService?
    }

    let topics: Topics
    let limits: StatusPageLimits
    let state = Mutex(State())

    public init(baseTopic: String, limits: StatusPageLimits = StatusPageLimits()) {
        topics = Topics(base: baseTopic)
        self.limits = limits
    }

    /// The bridge whose TVs `tv` events describe (it is made after the feed it reports to).
    public func attach(_ service: BridgeService) { state.withLock { $0.service = service } }

    // MARK: what the bridge reports

    public func published(topic: String, payload: [UInt8]) {
        if topic == topics.bridgeEvent {
            eventPublished(payload)
            return
        }
        if topic == topics.bridgeTVs {
            // The list changes when a TV is found, renamed or its description changes.
            tvListPublished(payload)
            return
        }
        let prefix = topics.base + "/"
        guard topic.hasPrefix(prefix) else { return }
        let levels = topic.dropFirst(prefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2, levels[0] != Topics.bridgeLevel else { return }
        let tv = String(levels[0])
        switch levels[1] {
        case "state" where !payload.isEmpty:
            broadcast("state") {
                "{\"tv\":\(JSONValue.string(tv).serialized()),\"state\":\(String(decoding: payload, as: UTF8.self))}"
            }
        case "availability":
            availabilityPublished(tv, removed: payload.isEmpty)
        default:
            break
        }
    }

    public func brokerConnection(connected: Bool) {
        let entry: JSONValue = [
            "at": .string(isoTimestamp(LoopClock.current.wallSeconds)),
            "event": .string(connected ? "connected" : "disconnected"),
        ]
        state.withLock { $0.brokerHistory.append(entry) }
        broadcast("bridge") {
            JSONValue.object(["connected": .bool(connected), "change": entry]).serialized()
        }
    }

    public func discovery(_ note: DiscoveryNote) {
        let now = LoopClock.current.wallSeconds
        let at = JSONValue.string(isoTimestamp(now))
        state.withLock { state in
            switch note {
            case .searched:
                state.lastSearchAt = now
            case .answered(let address, let kind, let via):
                state.answers.append([
                    "at": at, "address": .string(address), "kind": .optional(kind), "via": .string(via),
                ])
            case .refused(let address, let reason):
                state.refusals.append(["at": at, "address": .string(address), "reason": .string(reason)])
            }
        }
    }

    private func eventPublished(_ payload: [UInt8]) {
        guard case .object(var members)? = try? JSONParser.parse(payload) else { return }
        let at = JSONValue.string(isoTimestamp(LoopClock.current.wallSeconds))
        members["at"] = at
        let event = JSONValue.object(members)
        state.withLock { state in
            state.events.append(event)
            if let tv = members["tv"]?.stringValue, state.known.contains(tv),
                let type = members["type"]?.stringValue, Self.errorTypes.contains(type)
            {
                state.lastErrors[tv] = [
                    "at": at, "type": .string(type), "message": members["message"] ?? .null,
                ]
            }
        }
        broadcast("event") { event.serialized() }
    }

    /// The events that say what went wrong with a TV (its `last_error`).
    static let errorTypes: Set<String> = [
        "command_failed", "pairing_required", "turn_on_failed", "certificate_changed",
    ]

    private func availabilityPublished(_ tv: String, removed: Bool) {
        let service = state.withLock { state -> BridgeService? in
            if removed {
                state.known.remove(tv)
                state.lastErrors[tv] = nil
            } else {
                state.known.insert(tv)
            }
            return state.service
        }
        if removed {
            broadcast("tv") { JSONValue.object(["id": .string(tv), "removed": true]).serialized() }
            return
        }
        guard let service, hasStreams else { return }
        Task {
            guard let object = await service.statusTV(tv) else { return }
            broadcast("tv") { self.withLastError(object).serialized() }
        }
    }

    private func tvListPublished(_ payload: [UInt8]) {
        guard let service = state.withLock({ $0.service }), hasStreams,
            let ids = (try? JSONParser.parse(payload))?.arrayValue?.compactMap({ $0["id"]?.stringValue })
        else { return }
        Task {
            for id in ids {
                guard let object = await service.statusTV(id) else { continue }
                broadcast("tv") { self.withLastError(object).serialized() }
            }
        }
    }

    /// A TV object with its `last_error` (nil when none).
    func withLastError(_ tv: JSONValue) -> JSONValue {
        guard case .object(var members) = tv, let id = members["id"]?.stringValue else { return tv }
        members["last_error"] = state.withLock { $0.lastErrors[id] } ?? .null
        return .object(members)
    }

    func logged(_ record: LogRecord) {
        var message = record.label.isEmpty ? record.message : "\(record.label): \(record.message)"
        for (key, value) in record.metadata { message += " \(key)=\(value)" }
        let line: JSONValue = [
            "at": .string(isoTimestamp(record.time)), "level": .string(record.level.name),
            "message": .string(message),
        ]
        state.withLock { $0.log.append(line) }
        broadcast("log") { line.serialized() }
    }

    /// Log records go to `inner` and to the page.
    public func sink(wrapping inner: any LogSink) -> any LogSink {
        FeedSink(inner: inner, feed: self)
    }

    // MARK: what the page reads

    var log: [JSONValue] { state.withLock { $0.log.elements } }
    var events: [JSONValue] { state.withLock { $0.events.elements } }
    var brokerHistory: [JSONValue] { state.withLock { $0.brokerHistory.elements } }
    var discovery: JSONValue {
        state.withLock { state in
            [
                "last_search_at": state.lastSearchAt.map { .string(isoTimestamp($0)) } ?? .null,
                "answers": .array(state.answers.elements), "refusals": .array(state.refusals.elements),
            ]
        }
    }

    // MARK: event streams

    /// A new event stream, or nil when `maxEventStreams` are open, or `maxEventStreamsPerSource`
    /// from `source` (nil: not counted per address).
    func openStream(from source: String? = nil) -> (id: Int, messages: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingNewest(limits.streamBacklog))
        return state.withLock { state -> (Int, AsyncStream<String>)? in
            guard state.streams.count < limits.maxEventStreams else { return nil }
            if let source {
                guard state.streamSources.values.count(where: { $0 == source }) < limits.maxEventStreamsPerSource
                else { return nil }
            }
            state.nextStream += 1
            state.streams[state.nextStream] = continuation
            state.streamSources[state.nextStream] = source
            return (state.nextStream, stream)
        }
    }

    /// Streams open from `source`.
    func streamCount(from source: String) -> Int {
        state.withLock { $0.streamSources.values.count(where: { $0 == source }) }
    }

    func closeStream(_ id: Int) {
        state.withLock { state in
            state.streamSources.removeValue(forKey: id)
            return state.streams.removeValue(forKey: id)
        }?.finish()
    }

    /// Ends every stream (the server is stopping).
    func closeAllStreams() {
        let open = state.withLock { state in
            defer { (state.streams, state.streamSources) = ([:], [:]) }
            return Array(state.streams.values)
        }
        for continuation in open { continuation.finish() }
    }

    /// A comment line on one stream, so proxies and the browser see it alive.
    func ping(_ id: Int) {
        _ = state.withLock { $0.streams[id] }?.yield(": ping\n\n")
    }

    var streamCount: Int { state.withLock { $0.streams.count } }
    private var hasStreams: Bool { state.withLock { !$0.streams.isEmpty } }

    /// Sends one server-sent event to every stream; `data` is made only when one is open.
    func broadcast(_ event: String, _ data: () -> String) {
        let open = state.withLock { Array($0.streams.values) }
        guard !open.isEmpty else { return }
        let text = Self.serverSentEvent(event, data())
        for continuation in open { continuation.yield(text) }
    }

    /// `event: NAME` and one `data:` line per line of `data` (SSE, WHATWG HTML §9.2.6).
    static func serverSentEvent(_ event: String, _ data: String) -> String {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map {
            "data: \($0)\n"
        }
        return "event: \(event)\n" + lines.joined() + "\n"
    }
}

/// Passes every record on, and keeps it for the page.
struct FeedSink: LogSink {
    let inner: any LogSink
    let feed: StatusFeed

    func write(_ record: LogRecord) {
        inner.write(record)
        feed.logged(record)
    }
}
