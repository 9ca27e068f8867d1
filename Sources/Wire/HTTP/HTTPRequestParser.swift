/// Decodes the requests arriving on a server connection (the simulated TVs).
///
/// Same rigour as `HTTPResponseParser`: feed bytes with `append(_:)`, call `next()` until it
/// returns `nil`. A request has a body only with `Content-Length` or chunked
/// `Transfer-Encoding` (RFC 9112 §6.3 items 4–6). After an `Upgrade` request the server
/// takes the bytes that follow with `takeRemainingBytes()`.
public struct HTTPRequestParser: Sendable {
    private enum State: Sendable {
        case head
        case body(HTTPRequest, HTTPBodyFraming)
        case failed(WireError)
    }

    private var framer: HTTPFramer
    private var state = State.head
    /// The current request's head is decoded (its framing may still be refused).
    private var headDecoded = false

    /// Whether the request being read is past its head: a size error is then the body's.
    public var readingBody: Bool { headDecoded }

    /// Whether bytes of an unfinished request are buffered (a slow client, not an idle one).
    public var holdsPartialRequest: Bool { headDecoded || !framer.holdsOnlyBlankLines }

    /// - Parameters:
    ///   - maxHeaderBytes: the largest request line plus header section accepted.
    ///   - maxBodyBytes: the largest body accepted, checked before the body is buffered.
    public init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1 << 20) {
        framer = HTTPFramer(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
    }

    /// Adds bytes received from the connection.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        framer.append(bytes)
    }

    /// The next complete request, or `nil` when more bytes are needed.
    ///
    /// - Throws: `WireError` `.malformed` for a broken request line (RFC 9112 §3), a missing
    ///   or repeated `Host` in HTTP/1.1 (RFC 9112 §3.2), bad fields or body framing;
    ///   `.unsupported` for other HTTP versions or transfer codings; `.tooLarge` past the
    ///   limits. After an error the parser keeps throwing it.
    public mutating func next() throws(WireError) -> HTTPRequest? {
        do {
            return try decode(atEOF: false)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// The client closed the connection: returns any complete request still buffered
    /// (call again until `nil`), then `nil`.
    ///
    /// - Throws: `.malformed` when the close cuts a request short (RFC 9112 §8).
    public mutating func finish() throws(WireError) -> HTTPRequest? {
        do throws(WireError) {
            if let request = try decode(atEOF: true) { return request }
            guard framer.holdsOnlyBlankLines else {
                throw .malformed("HTTP", "connection closed inside a request")
            }
            return nil
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Removes and returns the bytes buffered after the last decoded request, for a
    /// connection that switches protocol (RFC 9110 §7.8).
    public mutating func takeRemainingBytes() -> [UInt8] {
        framer.takeAll()
    }

    private mutating func decode(atEOF: Bool) throws(WireError) -> HTTPRequest? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .head:
                guard let range = try framer.findHead() else { return nil }
                let request = try Self.parseHead(framer.slice(range))
                framer.consume(range.upperBound)
                headDecoded = true
                let framing = try HTTPHead.framing(
                    version: request.version, headers: request.headers, isRequest: true,
                    maxBodyBytes: framer.maxBodyBytes)
                state = .body(request, framing)
            case .body(var request, let framing):
                guard let body = try framer.readBody(framing, atEOF: atEOF) else { return nil }
                state = .head
                headDecoded = false
                request.body = body
                return request
            }
        }
    }

    /// Parses `method SP request-target SP HTTP-version` (RFC 9112 §3) and the fields.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(WireError) -> HTTPRequest {
        let (line, headers) = try HTTPHead.split(bytes)
        guard let firstSpace = line.firstIndex(of: HTTPSyntax.space),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: HTTPSyntax.space)
        else {
            throw .malformed("HTTP", "invalid request line")
        }
        let method = line[line.startIndex..<firstSpace]
        guard HTTPSyntax.isToken(method) else {
            throw .malformed("HTTP", "method is not a token")
        }
        let target = line[(firstSpace + 1)..<secondSpace]
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed("HTTP", "invalid request target")
        }
        let version = try HTTPVersion.parse(line[(secondSpace + 1)...])
        if version == .http1_1 {
            guard headers.values(for: "Host").count == 1 else {
                throw .malformed("HTTP", "an HTTP/1.1 request needs exactly one Host header")
            }
        }
        return HTTPRequest(
            method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
            version: version, headers: headers)
    }
}
