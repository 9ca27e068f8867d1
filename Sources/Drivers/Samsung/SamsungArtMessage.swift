import Wire

/// A request tv2mqtt sends on The Frame's art channel (`com.samsung.art-app`), in the shape
/// samsungtvws's `art.py` sends: `ms.channel.emit` with `event: "art_app_request"`,
/// `to: "host"`, and `data` a JSON *string* holding the request and its `id` (also sent as
/// `request_id`: newer firmware answers with that one).
public enum SamsungArtRequest: Equatable, Sendable {
    /// `get_artmode_status`: answered with `artmode_status` and `value` "on"/"off".
    case getArtMode(id: String)
    /// `set_artmode_status` with `value` "on"/"off": the TV switches and announces
    /// `art_mode_changed`.
    case setArtMode(Bool, id: String)

    public var id: String {
        switch self {
        case .getArtMode(let id), .setArtMode(_, let id): id
        }
    }

    public var json: JSONValue {
        var data: [String: JSONValue] = ["id": .string(id), "request_id": .string(id)]
        switch self {
        case .getArtMode: data["request"] = "get_artmode_status"
        case .setArtMode(let on, _):
            data["request"] = "set_artmode_status"
            data["value"] = .string(on ? "on" : "off")
        }
        return [
            "method": "ms.channel.emit",
            "params": ["event": "art_app_request", "to": "host", "data": .string(JSONValue.object(data).serialized())],
        ]
    }

    /// The WebSocket text frame's payload.
    public var text: String { json.serialized() }
}

/// A message the TV sends on the art channel, decoded. The art payloads come as
/// `d2d_service_message` whose `data` is a JSON string (an object is accepted too) with an
/// inner `event`: `artmode_status` (an answer), `art_mode_changed` (the TV's own remote, or
/// our request), `set_artmode_status`; the state is in `value` or, on other firmware,
/// `status`, as "on"/"off".
public enum SamsungArtEvent: Equatable, Sendable, CustomStringConvertible {
    /// `ms.channel.connect`: the TV let us in.
    case connected
    /// `ms.channel.ready`: requests may go out.
    case ready
    /// Art mode is on or off; `requestID` when this answers one of our requests.
    case artMode(Bool, requestID: String?)
    /// `ms.channel.unauthorized` or `ms.channel.timeOut`: not paired for this channel.
    case unauthorized
    /// `ms.error`, or an inner `error` event (with its `error_code`).
    case error(String)
    /// Anything else (other art events such as `image_selected`, `go_to_standby`, status
    /// values other than on/off such as "nav"), by name.
    case other(String)

    /// The most a message may hold, and how deep: art payloads are a few hundred bytes;
    /// `get_content_list` answers (which we never ask for) stay well under this.
    static let limits = JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)
    /// Names and messages are cut to this many characters: they end up in the debug log.
    static let maxTextLength = 120

    /// Decodes one text frame. Malformed input throws; it never traps.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DriverError) -> SamsungArtEvent {
        let message: JSONValue
        do {
            message = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw DriverError(.badResponse, "Samsung art-channel message is not usable JSON (\(error))")
        }
        // Some captures show the event wrapped in `params`, as the TV relays a message between
        // clients (`ms.channel.emit`); the content is the same.
        let body = message["event"] == nil ? message["params"] : message
        guard let event = body?["event"]?.stringValue else {
            throw DriverError(.badResponse, "Samsung art-channel message has no \"event\"")
        }
        switch event {
        case "ms.channel.connect": return .connected
        case "ms.channel.ready": return .ready
        case "ms.channel.unauthorized", "ms.channel.timeOut": return .unauthorized
        case "ms.error":
            let data = body?["data"]
            let text = SamsungJSON.string(data?["message"]) ?? SamsungJSON.string(data) ?? "no message"
            return .error(String(text.prefix(maxTextLength)))
        case "d2d_service_message":
            return try payload(body?["data"])
        default:
            return .other(String(event.prefix(maxTextLength)))
        }
    }

    /// The inner payload of a `d2d_service_message`.
    private static func payload(_ data: JSONValue?) throws(DriverError) -> SamsungArtEvent {
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
        let name = inner["event"]?.stringValue ?? "?"
        let requestID = SamsungJSON.string(inner["request_id"]) ?? SamsungJSON.string(inner["id"])
        switch name {
        case "artmode_status", "art_mode_changed", "set_artmode_status":
            let state = (SamsungJSON.string(inner["value"]) ?? SamsungJSON.string(inner["status"]))?.lowercased()
            switch state {
            case "on": return .artMode(true, requestID: requestID)
            case "off": return .artMode(false, requestID: requestID)
            default: return .other("\(name) \(String((state ?? "?").prefix(32)))")
            }
        case "error":
            let code = SamsungJSON.string(inner["error_code"]) ?? "unknown"
            return .error("art request failed with error \(code.prefix(32))")
        default:
            return .other(String(name.prefix(maxTextLength)))
        }
    }

    public var description: String {
        switch self {
        case .connected: "ms.channel.connect"
        case .ready: "ms.channel.ready"
        case .artMode(let on, _): "art mode \(on ? "on" : "off")"
        case .unauthorized: "unauthorized"
        case .error(let message): "error: \(message)"
        case .other(let name): "other: \(name)"
        }
    }
}
