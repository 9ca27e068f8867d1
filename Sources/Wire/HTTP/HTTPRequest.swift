/// An HTTP/1.1 request: what a client sends, and what `HTTPRequestParser` decodes.
///
/// Roku ECP commands are `POST /keypress/Home` with an empty body, UPnP SOAP calls are
/// `POST` with an XML body; `encode()` frames both.
public struct HTTPRequest: Equatable, Sendable {
    /// The method token, case-sensitive (RFC 9110 §9.1): `GET`, `POST`…
    public var method: String
    /// The request target as sent, e.g. `/launch/12?contentId=abc` (RFC 9112 §3.2).
    public var target: String
    /// HTTP/1.1 unless the peer spoke 1.0.
    public var version: HTTPVersion
    /// Header fields in order; `encode()` adds `Content-Length` itself.
    public var headers: HTTPHeaders
    /// The decoded body (chunked framing already removed).
    public var body: [UInt8]

    /// A request; a `Host` header is required before it can be encoded.
    public init(
        method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// Whether the connection may carry another request after this one (RFC 9112 §9.3).
    public var keepAlive: Bool { version.keepsAlive(headers) }

    /// The request as bytes on the wire.
    ///
    /// Adds `Content-Length` when there is a body, and `Content-Length: 0` for an empty
    /// `POST`, `PUT` or `PATCH` (RFC 9110 §8.6: a user agent should send it when the method
    /// defines a meaning for content; Roku expects it on its POST commands).
    ///
    /// - Throws: `WireError` `.malformed` when the method is not a token (RFC 9110 §9.1),
    ///   the target holds a space, a control or a non-ASCII byte (RFC 9112 §3.2), `Host` is
    ///   missing (RFC 9112 §3.2: required in HTTP/1.1), a header fails
    ///   `HTTPHeaders.validate()`, or a `Content-Length` given by the caller disagrees with
    ///   the body; `.unsupported` for `Transfer-Encoding`, since request bodies are always
    ///   sent with a length.
    public func encode() throws(WireError) -> [UInt8] {
        guard HTTPSyntax.isToken(method.utf8) else {
            throw .malformed("HTTP", "method \(String(reflecting: method)) is not a token")
        }
        guard !target.isEmpty, target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed("HTTP", "request target must be visible ASCII without spaces")
        }
        guard headers.contains("Host") else {
            throw .malformed("HTTP", "request has no Host header")
        }
        try headers.validate()
        guard !headers.contains("Transfer-Encoding") else {
            throw .unsupported("HTTP", "requests are sent with Content-Length, not Transfer-Encoding")
        }
        let lengths = headers.values(for: "Content-Length")
        guard lengths.allSatisfy({ $0 == String(body.count) }) else {
            throw .malformed("HTTP", "Content-Length header disagrees with the body length \(body.count)")
        }
        let needsLength = !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH"

        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + target.utf8.count + body.count + headers.count * 32)
        bytes.append(contentsOf: method.utf8)
        bytes.append(HTTPSyntax.space)
        bytes.append(contentsOf: target.utf8)
        bytes.append(HTTPSyntax.space)
        bytes.append(contentsOf: version.description.utf8)
        bytes.append(contentsOf: HTTPSyntax.crlf)
        headers.write(to: &bytes)
        if lengths.isEmpty && needsLength {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            HTTPSyntax.appendDecimal(body.count, to: &bytes)
            bytes.append(contentsOf: HTTPSyntax.crlf)
        }
        bytes.append(contentsOf: HTTPSyntax.crlf)
        bytes.append(contentsOf: body)
        return bytes
    }
}
