/// One Roku ECP-2 message: a flat JSON object whose values are all strings (tv-protocols §B.3).
///
/// ```json
/// {"request":"key-press","request-id":"7","param-key":"Home"}
/// {"response":"key-press","response-id":"7","status":"200","status-msg":"OK"}
/// {"notify":"power-mode-changed","param-power-mode":"power-on","timestamp":"608921.943"}
/// ```
///
/// Parsing is lenient about what a TV might add (numbers or booleans become their text, nested
/// values are dropped) and strict about what we rely on: a text that is not a JSON object, or
/// an object that is neither a request, a response nor a notify, is an error, never a trap.
public struct ECP2Message: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case request(String, id: String)
        case response(String, id: String)
        case notify(String)
    }

    public var fields: [String: String]

    public init(_ fields: [String: String]) {
        self.fields = fields
    }

    public subscript(_ key: String) -> String? { fields[key] }

    /// A request; `parameters` keys are written as given (`param-key`, `param-events`…).
    public static func request(_ name: String, id: String, _ parameters: [String: String] = [:])
        -> ECP2Message
    {
        var fields = parameters
        fields["request"] = name
        fields["request-id"] = id
        return ECP2Message(fields)
    }

    /// A response to request `id`; `content` (XML, JSON…) travels base64 in `content-data`.
    public static func response(
        _ name: String, id: String, status: Int, message: String? = nil, content: [UInt8]? = nil,
        contentType: String = "text/xml; charset=\"utf-8\""
    ) -> ECP2Message {
        var fields = [
            "response": name, "response-id": id, "status": String(status),
            "status-msg": message ?? (200..<300 ~= status ? "OK" : "Error"),
        ]
        if let content {
            fields["content-data"] = Base64.encode(content)
            fields["content-type"] = contentType
        }
        return ECP2Message(fields)
    }

    public static func notify(_ name: String, _ parameters: [String: String] = [:]) -> ECP2Message {
        var fields = parameters
        fields["notify"] = name
        return ECP2Message(fields)
    }

    /// What the message is; nil when it names none of request, response or notify.
    public var kind: Kind? {
        if let name = fields["response"] { return .response(name, id: fields["response-id"] ?? "") }
        if let name = fields["notify"] { return .notify(name) }
        if let name = fields["request"] { return .request(name, id: fields["request-id"] ?? "") }
        return nil
    }

    /// The numeric `status` of a response; nil when absent or not a number.
    public var status: Int? { fields["status"].flatMap { Int($0) } }

    /// 2xx: RockYou saw 202 for `request-events`, like HTTP ECP's keypress answers.
    public var isSuccess: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// The decoded `content-data` (the same XML HTTP ECP answers); nil when there is none.
    public func content() throws(WireError) -> [UInt8]? {
        guard let data = fields["content-data"] else { return nil }
        do {
            return try Base64.decode(data)
        } catch {
            throw WireError.malformed("ECP-2", "content-data is not base64: \(error.reason)")
        }
    }

    public static func parse(_ text: String) throws(WireError) -> ECP2Message {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw WireError.malformed("ECP-2", "not JSON: \(error.reason)")
        }
        guard let object = value.objectValue else {
            throw WireError.malformed("ECP-2", "expected a JSON object, got \(value.typeName)")
        }
        var fields: [String: String] = [:]
        for (key, member) in object {
            switch member {
            case .string(let text): fields[key] = text
            case .integer(let number): fields[key] = String(number)
            case .number(let number): fields[key] = String(number)
            case .bool(let flag): fields[key] = flag ? "true" : "false"
            default: continue
            }
        }
        let message = ECP2Message(fields)
        guard message.kind != nil else {
            throw WireError.malformed("ECP-2", "neither a request, a response nor a notify")
        }
        return message
    }

    /// The JSON text, every value a string.
    public func serialized() -> String {
        JSONValue.object(fields.mapValues(JSONValue.string)).serialized()
    }
}
