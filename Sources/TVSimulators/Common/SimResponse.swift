import Wire

/// The plain-text, XML and JSON answers every simulated TV's HTTP endpoints give.
enum SimResponse {
    static func plain(_ status: Int, _ body: String) -> HTTPResponse {
        var response = HTTPResponse(status: status, body: Array(body.utf8))
        if !body.isEmpty {
            response.headers.set(name: "Content-Type", value: "text/plain; charset=\"utf-8\"")
        }
        return response
    }

    static var notFound: HTTPResponse { plain(404, "Not Found") }
    static var methodNotAllowed: HTTPResponse { plain(405, "Method Not Allowed") }

    static func xml(_ document: String) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: Array(document.utf8))
        response.headers.set(name: "Content-Type", value: "text/xml; charset=\"utf-8\"")
        return response
    }

    /// `contentType`: each vendor's own spelling (a Roku says `application/json`, a Samsung
    /// adds the charset), kept because clients may compare it.
    static func json(_ value: JSONValue, status: Int = 200, contentType: String = "application/json")
        -> HTTPResponse
    {
        var response = HTTPResponse(status: status, body: value.serializedBytes())
        response.headers.set(name: "Content-Type", value: contentType)
        return response
    }
}
