import Support
import Wire

/// One SSAP message (LG webOS second screen), as the TV sends it: a JSON object with `type`,
/// `id`, `payload` and, on failure, `error`. Decoding trusts nothing: size and depth are
/// bounded, and a message that is not an object with a string `type` is refused.
struct LGMessage: Equatable, Sendable, CustomStringConvertible {
    /// The largest message read from a TV: a channel list of a few thousand channels fits.
    static let maxBytes = 4 << 20
    static let limits = JSONLimits(maxDepth: 16, maxBytes: maxBytes)

    /// `response`, `registered`, `error`, `hello`… (other types are logged and ignored).
    let type: String
    let id: String?
    let payload: JSONValue
    /// The error text of a `type: error` message ("403 User denied access").
    let error: String?

    init(type: String, id: String?, payload: JSONValue = .object([:]), error: String? = nil) {
        self.type = type
        self.id = id
        self.payload = payload
        self.error = error
    }

    static func decode(_ bytes: some Collection<UInt8>) throws(DriverError) -> LGMessage {
        guard bytes.count <= maxBytes else {
            throw DriverError(.badResponse, "an SSAP message of \(bytes.count) bytes (at most \(maxBytes))")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw DriverError(.badResponse, "an SSAP message that is not JSON: \(error)")
        }
        guard case .object = value, let type = value["type"]?.stringValue else {
            throw DriverError(.badResponse, "an SSAP message without a type")
        }
        let id = value["id"]?.stringValue ?? value["id"]?.intValue.map(String.init)
        var payload = JSONValue.object([:])
        if let given = value["payload"], given.objectValue != nil { payload = given }
        return LGMessage(type: type, id: id, payload: payload, error: value["error"]?.stringValue)
    }

    /// A request to the TV: `type` is `request`, `subscribe` or `register`.
    static func encode(type: String, id: String, uri: String? = nil, payload: JSONValue? = nil) -> String {
        var members: [String: JSONValue] = ["type": .string(type), "id": .string(id)]
        if let uri { members["uri"] = .string(uri) }
        if let payload { members["payload"] = payload }
        return JSONValue.object(members).serialized()
    }

    /// `payload.returnValue == false` with the TV's reason: a refused request in a response.
    var refusal: String? {
        guard payload["returnValue"]?.boolValue == false else { return nil }
        return payload["errorText"]?.stringValue ?? payload["errorCode"].map { "error \($0.serialized())" }
            ?? "refused"
    }

    /// For logs: never the payload (a `registered` carries the client key).
    var description: String { "\(type) \(id ?? "-")" + (error.map { " (\(printable($0)))" } ?? "") }
}
