/// An HTTP/1.1 response: what `HTTPResponseParser` decodes, and what a simulated TV sends.
public struct HTTPResponse: Equatable, Sendable {
    /// The three-digit status code (RFC 9110 §15).
    public var status: Int
    /// The reason phrase; informational only, never used for decisions (RFC 9112 §4).
    public var reason: String
    /// HTTP/1.1 unless the peer spoke 1.0.
    public var version: HTTPVersion
    /// Header fields in order, as received or to be sent.
    public var headers: HTTPHeaders
    /// The decoded body (chunked framing already removed).
    public var body: [UInt8]

    /// - Parameter reason: defaults to the usual phrase for `status` (`OK`, `Accepted`…).
    public init(
        status: Int, reason: String? = nil, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.status = status
        self.reason = reason ?? HTTPResponse.standardReason(for: status)
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// Any 2xx status (RFC 9110 §15.3). Roku answers keypresses with `202 Accepted` on some
    /// firmware and `200 OK` on others, so callers test this rather than `status == 200`.
    public var isSuccess: Bool { status >= 200 && status < 300 }

    /// Whether the connection may carry another request (RFC 9112 §9.3): HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
    ///
    /// A response whose body ran to the end of the connection arrives from
    /// `HTTPResponseParser.finish()`, when the connection is already gone.
    public var keepAlive: Bool { version.keepsAlive(headers) }

    /// Whether a response with this status never has a body (RFC 9112 §6.3: 1xx, 204, 304).
    static func statusHasNoBody(_ status: Int) -> Bool {
        (status >= 100 && status < 200) || status == 204 || status == 304
    }

    /// The response as bytes on the wire (server side, for the simulated TVs).
    ///
    /// The body is framed with `Content-Length`, added when missing, unless the headers ask
    /// for `Transfer-Encoding: chunked`, in which case it is sent as one chunk and the last
    /// chunk (RFC 9112 §7.1). 1xx, 204 and 304 responses carry no body and get no length.
    ///
    /// - Throws: `WireError` `.malformed` for a status outside 100…999, a reason phrase with
    ///   a control character, a header that fails `HTTPHeaders.validate()`, both
    ///   `Content-Length` and `Transfer-Encoding` (RFC 9112 §6.2), `Transfer-Encoding` in
    ///   HTTP/1.0 (RFC 9112 §6.1), a `Content-Length` that disagrees with the body, or a body
    ///   on a status that cannot have one;
    ///   `.unsupported` for a transfer coding other than `chunked`.
    public func encode() throws(WireError) -> [UInt8] {
        guard status >= 100 && status <= 999 else {
            throw .malformed("HTTP", "status \(status) is not three digits")
        }
        guard reason.utf8.allSatisfy(HTTPSyntax.isFieldValueByte) else {
            throw .malformed("HTTP", "reason phrase contains a control character")
        }
        try headers.validate()
        let lengths = headers.values(for: "Content-Length")
        let chunked = headers.contains("Transfer-Encoding")
        if chunked {
            guard lengths.isEmpty else {
                throw .malformed("HTTP", "both Content-Length and Transfer-Encoding")
            }
            let codings = headers.values(for: "Transfer-Encoding").flatMap(HTTPSyntax.listElements)
            guard codings.count == 1, HTTPSyntax.equalsIgnoringCase(codings[0].utf8, "chunked".utf8) else {
                throw .unsupported("HTTP", "only the chunked transfer coding is supported")
            }
            // An HTTP/1.0 peer cannot decode chunks (RFC 9112 §6.1); the parser refuses them too.
            guard version != .http1_0 else {
                throw .malformed("HTTP", "Transfer-Encoding in an HTTP/1.0 message")
            }
        }
        let noBody = HTTPResponse.statusHasNoBody(status)
        guard !noBody || body.isEmpty else {
            throw .malformed("HTTP", "status \(status) cannot have a body")
        }
        guard lengths.allSatisfy({ $0 == String(body.count) }) else {
            throw .malformed("HTTP", "Content-Length header disagrees with the body length \(body.count)")
        }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + reason.utf8.count + body.count + headers.count * 32)
        bytes.append(contentsOf: version.description.utf8)
        bytes.append(HTTPSyntax.space)
        HTTPSyntax.appendDecimal(status, to: &bytes)
        bytes.append(HTTPSyntax.space)
        bytes.append(contentsOf: reason.utf8)
        bytes.append(contentsOf: HTTPSyntax.crlf)
        headers.write(to: &bytes)
        if !chunked && !noBody && lengths.isEmpty {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            HTTPSyntax.appendDecimal(body.count, to: &bytes)
            bytes.append(contentsOf: HTTPSyntax.crlf)
        }
        bytes.append(contentsOf: HTTPSyntax.crlf)
        if chunked && !noBody {
            if !body.isEmpty {
                bytes.append(contentsOf: String(body.count, radix: 16, uppercase: true).utf8)
                bytes.append(contentsOf: HTTPSyntax.crlf)
                bytes.append(contentsOf: body)
                bytes.append(contentsOf: HTTPSyntax.crlf)
            }
            bytes.append(contentsOf: "0\r\n\r\n".utf8)
        } else {
            bytes.append(contentsOf: body)
        }
        return bytes
    }

    /// The customary reason phrase for a status (RFC 9110 §15), or an empty one.
    public static func standardReason(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        default: return ""
        }
    }
}
