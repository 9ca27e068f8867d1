/// Decodes the responses arriving on a client connection, one after another.
///
/// Feed it what the socket delivers with `append(_:)` and call `next(requestMethod:)` until
/// it returns `nil` ("need more bytes"). When the peer closes, call `finish()` for a
/// response whose body ran to the close. After a `101 Switching Protocols` response the
/// parser stops: the bytes after it belong to the new protocol (`takeRemainingBytes()`).
///
/// Framing follows RFC 9112 §6.3: no body for HEAD, 1xx, 204 and 304; otherwise chunked,
/// then `Content-Length`, then read-until-close. Interim 1xx responses other than 101 are
/// skipped (RFC 9110 §15.2: a client must accept them even unasked). Once it has thrown,
/// the parser throws the same error again: the stream cannot be resynchronised.
public struct HTTPResponseParser: Sendable {
    private enum State: Sendable {
        case head
        case body(HTTPResponse, HTTPBodyFraming)
        case upgraded
        case failed(WireError)
    }

    private var framer: HTTPFramer
    private var state = State.head
    private var closed = false

    /// - Parameters:
    ///   - maxHeaderBytes: the largest status line plus header section accepted.
    ///   - maxBodyBytes: the largest body accepted; a larger `Content-Length` or chunk size
    ///     fails as soon as it is read, before the body is buffered.
    public init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1 << 20) {
        framer = HTTPFramer(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
    }

    /// Adds bytes received from the connection.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        framer.append(bytes)
    }

    /// Whether a `101 Switching Protocols` response has been returned; the parser then
    /// decodes nothing more.
    public var isUpgraded: Bool {
        if case .upgraded = state { return true }
        return false
    }

    /// The next complete response, or `nil` when more bytes are needed.
    ///
    /// - Parameter requestMethod: the method of the request this response answers;
    ///   a response to `HEAD` has no body whatever its headers say (RFC 9110 §9.3.2).
    /// - Throws: `WireError` `.malformed` for a broken status line, header or body framing,
    ///   `.unsupported` for an HTTP version other than 1.0/1.1 or a transfer coding other
    ///   than chunked, `.tooLarge` past `maxHeaderBytes` or `maxBodyBytes`.
    public mutating func next(requestMethod: String = "GET") throws(WireError) -> HTTPResponse? {
        do {
            return try decode(requestMethod: requestMethod)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// The peer closed the connection: returns a response that the close completes (a body
    /// delimited by the close, RFC 9112 §6.3 item 8), or any complete response still
    /// buffered; `nil` when nothing is left.
    ///
    /// - Throws: `.malformed` when the close cuts a header section, a `Content-Length` body
    ///   or a chunked body short (RFC 9112 §8).
    public mutating func finish(requestMethod: String = "GET") throws(WireError) -> HTTPResponse? {
        closed = true
        return try next(requestMethod: requestMethod)
    }

    /// Removes and returns the bytes buffered after the last decoded response: after a 101,
    /// the first bytes of the upgraded protocol (e.g. a WebSocket frame sent at once).
    public mutating func takeRemainingBytes() -> [UInt8] {
        framer.takeAll()
    }

    private mutating func decode(requestMethod: String) throws(WireError) -> HTTPResponse? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .upgraded:
                return nil
            case .head:
                guard let range = try framer.findHead() else {
                    if closed && !framer.holdsOnlyBlankLines {
                        throw .malformed("HTTP", "connection closed inside a response header section")
                    }
                    return nil
                }
                let response = try Self.parseHead(framer.slice(range))
                framer.consume(range.upperBound)
                if response.status == 101 {
                    state = .upgraded
                    return response
                }
                if response.status < 200 { continue }
                let framing: HTTPBodyFraming =
                    requestMethod == "HEAD" || HTTPResponse.statusHasNoBody(response.status)
                    ? .none
                    : try HTTPHead.framing(
                        version: response.version, headers: response.headers, isRequest: false,
                        maxBodyBytes: framer.maxBodyBytes)
                state = .body(response, framing)
            case .body(var response, let framing):
                guard let body = try framer.readBody(framing, atEOF: closed) else { return nil }
                state = .head
                response.body = body
                return response
            }
        }
    }

    /// Parses `HTTP-version SP status-code SP [reason-phrase]` (RFC 9112 §4) and the fields.
    ///
    /// A missing space and reason after the code is tolerated, as RFC 9112 §4 asks clients to.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(WireError) -> HTTPResponse {
        let (line, headers) = try HTTPHead.split(bytes)
        let start = line.startIndex
        guard line.count >= 12, line[start + 8] == HTTPSyntax.space else {
            throw .malformed("HTTP", "invalid status line")
        }
        let version = try HTTPVersion.parse(line[start..<(start + 8)])
        let code = line[(start + 9)..<(start + 12)]
        guard code.allSatisfy(HTTPSyntax.isDigit), code.first != UInt8(ascii: "0") else {
            throw .malformed("HTTP", "status code is not three digits")
        }
        let status = code.reduce(0) { $0 * 10 + Int($1 &- UInt8(ascii: "0")) }
        var reason = ""
        if line.count > 12 {
            guard line[start + 12] == HTTPSyntax.space else {
                throw .malformed("HTTP", "status code is not three digits")
            }
            let phrase = line[(start + 13)...]
            guard phrase.allSatisfy(HTTPSyntax.isFieldValueByte) else {
                throw .malformed("HTTP", "control character in the reason phrase")
            }
            reason = String(decoding: phrase, as: UTF8.self)
        }
        return HTTPResponse(status: status, reason: reason, version: version, headers: headers)
    }
}
