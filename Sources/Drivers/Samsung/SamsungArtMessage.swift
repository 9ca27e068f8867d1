import Wire

/// A request tv2mqtt sends on The Frame's art channel (`com.samsung.art-app`), in the shape
/// samsungtvws's `art.py` sends: `ms.channel.emit` with `event: "art_app_request"`,
/// `to: "host"`, and `data` a JSON *string* holding the request and its `id` (also sent as
/// `request_id`: newer firmware answers with that one).
public enum SamsungArtRequest: Equatable, Sendable {
    /// `get_artmode_status`: answered with `value` "on"/"off" (named `artmode_status` by 2019
    /// firmware, `get_artmode_status` by 2023+ firmware).
    case getArtMode(id: String)
    /// `set_artmode_status` with `value` "on"/"off": the TV switches and announces
    /// `art_mode_changed`.
    case setArtMode(Bool, id: String)
    /// The art API's version: `api_version` (2022+ firmware), else the older `get_api_version`.
    case apiVersion(legacy: Bool, id: String)

    public var id: String {
        switch self {
        case .getArtMode(let id), .setArtMode(_, let id), .apiVersion(_, let id): id
        }
    }

    /// The request's name, as the TV sees it.
    public var name: String {
        switch self {
        case .getArtMode: "get_artmode_status"
        case .setArtMode: "set_artmode_status"
        case .apiVersion(let legacy, _): legacy ? "get_api_version" : "api_version"
        }
    }

    public var json: JSONValue {
        var data: [String: JSONValue] = ["id": .string(id), "request_id": .string(id), "request": .string(name)]
        if case .setArtMode(let on, _) = self { data["value"] = .string(on ? "on" : "off") }
        return [
            "method": "ms.channel.emit",
            "params": ["event": "art_app_request", "to": "host", "data": .string(JSONValue.object(data).serialized())],
        ]
    }

    /// The WebSocket text frame's payload.
    public var text: String { json.serialized() }
}

/// The inner payload of a `d2d_service_message`: what the TV's art app said. Replies carry the
/// request's id (`request_id` on 2023+ firmware, `id` on 2019 firmware), whatever their name;
/// broadcasts (`art_mode_changed`) carry none of ours. Texts are cut short: they end up in the
/// debug log.
public struct SamsungArtPayload: Equatable, Sendable {
    /// The inner `event`: `artmode_status`, `get_artmode_status`, `art_mode_changed`, `error`…
    public var event: String
    public var requestID: String?
    /// `value`, else `status`, lowercased ("on", "off", or another state such as "nav").
    public var value: String?
    /// `version` (an answer to an API version request).
    public var version: String?
    /// `error_code` (an `error` event).
    public var errorCode: String?

    public init(
        event: String, requestID: String? = nil, value: String? = nil, version: String? = nil,
        errorCode: String? = nil
    ) {
        self.event = event
        self.requestID = requestID
        self.value = value
        self.version = version
        self.errorCode = errorCode
    }

    /// The art mode `value` says, when it says on or off.
    public var artMode: Bool? {
        switch value {
        case "on": true
        case "off": false
        default: nil
        }
    }
}

/// A message the TV sends on the art channel, decoded. The art payloads come as
/// `d2d_service_message` whose `data` is a JSON string (an object is accepted too) holding a
/// `SamsungArtPayload`, and a `from` naming who sent it: the TV (`host`, or the id
/// `ms.channel.connect` lists with `isHost`), or another client the channel relays.
public enum SamsungArtEvent: Equatable, Sendable, CustomStringConvertible {
    /// `ms.channel.connect`: the TV let us in; the ids of the clients it lists as the host.
    case connected(hostIDs: [String])
    /// `ms.channel.ready`: requests may go out.
    case ready
    /// A `d2d_service_message`, with its `from` (nil when absent).
    case message(SamsungArtPayload, from: String?)
    /// A message in the shape clients send (`method` with `params`): another client's message
    /// the channel passed on, never the TV's word.
    case relayed(String)
    /// `ms.channel.unauthorized` or `ms.channel.timeOut`: not paired for this channel.
    case unauthorized
    /// `ms.error`.
    case error(String)
    /// Any other channel event, by name.
    case other(String)

    /// The most a message may hold, and how deep: art payloads are a few hundred bytes;
    /// `get_content_list` answers (which we never ask for) stay well under this.
    static let limits = JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)
    /// Names and messages are cut to this many characters: they end up in the debug log.
    static let maxTextLength = 120
    /// Ids, states, versions and codes are cut to this many.
    static let maxFieldLength = 64

    /// Decodes one text frame. Malformed input throws; it never traps.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DriverError) -> SamsungArtEvent {
        let message: JSONValue
        do {
            message = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw DriverError(.badResponse, "Samsung art-channel message is not usable JSON (\(error))")
        }
        if message["event"] == nil, let params = message["params"] {
            guard let event = params["event"]?.stringValue else {
                throw DriverError(.badResponse, "Samsung art-channel message has no \"event\"")
            }
            return .relayed(String(event.prefix(maxTextLength)))
        }
        guard let event = message["event"]?.stringValue else {
            throw DriverError(.badResponse, "Samsung art-channel message has no \"event\"")
        }
        switch event {
        case "ms.channel.connect": return .connected(hostIDs: hostIDs(message["data"]))
        case "ms.channel.ready": return .ready
        case "ms.channel.unauthorized", "ms.channel.timeOut": return .unauthorized
        case "ms.error":
            let data = message["data"]
            let text = SamsungJSON.string(data?["message"]) ?? SamsungJSON.string(data) ?? "no message"
            return .error(String(text.prefix(maxTextLength)))
        case "d2d_service_message":
            return .message(try payload(message["data"]), from: field(message["from"]))
        default:
            return .other(String(event.prefix(maxTextLength)))
        }
    }

    /// The ids of the clients marked `isHost` in `ms.channel.connect`'s `clients`.
    private static func hostIDs(_ data: JSONValue?) -> [String] {
        guard case .array(let clients)? = data?["clients"] else { return [] }
        return clients.prefix(64).compactMap { client in
            SamsungJSON.bool(client["isHost"]) == true ? field(client["id"]) : nil
        }
    }

    private static func field(_ value: JSONValue?) -> String? {
        SamsungJSON.string(value).map { String($0.prefix(maxFieldLength)) }
    }

    /// The inner payload of a `d2d_service_message`.
    private static func payload(_ data: JSONValue?) throws(DriverError) -> SamsungArtPayload {
        var inner = data
        if case .string(let text)? = data {
            do {
                inner = try JSONParser.parse(Array(text.utf8), limits: limits)
            } catch {
                throw DriverError(.badResponse, "Samsung art payload is not usable JSON (\(error))")
            }
        }
        guard let inner, inner.objectValue != nil else {
            throw DriverError(.badResponse, "Samsung art payload is not an object")
        }
        let name = inner["event"]?.stringValue.map { String($0.prefix(maxTextLength)) } ?? "?"
        return SamsungArtPayload(
            event: name, requestID: field(inner["request_id"]) ?? field(inner["id"]),
            value: (field(inner["value"]) ?? field(inner["status"]))?.lowercased(), version: field(inner["version"]),
            errorCode: field(inner["error_code"]))
    }

    public var description: String {
        switch self {
        case .connected: "ms.channel.connect"
        case .ready: "ms.channel.ready"
        case .message(let payload, _): "\(payload.event) \(payload.value.map { String($0.prefix(32)) } ?? "")"
        case .relayed(let name): "relayed: \(name)"
        case .unauthorized: "unauthorized"
        case .error(let message): "error: \(message)"
        case .other(let name): "other: \(name)"
        }
    }
}
