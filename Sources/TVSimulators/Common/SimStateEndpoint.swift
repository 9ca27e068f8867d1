import Wire

/// `/sim/state`, the back door a test (or a person with curl) changes a simulated TV by: `GET`
/// answers the state as JSON; `POST` parses a JSON change, has the vendor validate and apply
/// it, and answers the new state, or 400 with the reason, changing nothing; other methods 405.
struct SimStateEndpoint {
    /// The state as `GET` shows it.
    var current: () -> JSONValue
    /// Validates and applies a change as a whole; returns what must happen once the answer is
    /// on the wire (a TV turned off closes the listener the answer leaves by), if anything.
    var apply: (JSONValue) throws(SimulatorError) -> (@Sendable () -> Void)?
    /// The vendor's JSON answer (its Content-Type).
    var json: (JSONValue) -> HTTPResponse = { SimResponse.json($0) }

    func answer(_ request: HTTPRequest) -> SimHTTPReply {
        switch request.method {
        case "GET":
            return SimHTTPReply(json(current()))
        case "POST":
            let change: JSONValue
            do {
                change = try JSONParser.parse(request.body)
            } catch {
                return SimHTTPReply(SimResponse.plain(400, "invalid JSON: \(error)"))
            }
            do {
                let afterwards = try apply(change)
                return SimHTTPReply(json(current()), afterwards: afterwards)
            } catch {
                return SimHTTPReply(SimResponse.plain(400, error.message))
            }
        default:
            return SimHTTPReply(SimResponse.methodNotAllowed)
        }
    }
}
