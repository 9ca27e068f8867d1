/// How the body of a message is delimited (RFC 9112 §6.3).
enum HTTPBodyFraming: Equatable, Sendable {
    /// No body at all (HEAD, 1xx, 204, 304, or a request without length).
    case none
    /// Exactly this many bytes (`Content-Length`).
    case length(Int)
    /// `Transfer-Encoding: chunked` (RFC 9112 §7.1).
    case chunked
    /// Everything until the server closes the connection (a response with neither).
    case untilClose
}

/// Parsing of the header section shared by requests and responses (RFC 9112 §2–§6).
enum HTTPHead {
    /// Splits a complete head into its start line and header fields.
    ///
    /// - Parameter bytes: the start line, the field lines and the blank line ending them,
    ///   each ended by CRLF or a bare LF (RFC 9112 §2.2 allows recognising a bare LF).
    static func split(_ bytes: ArraySlice<UInt8>) throws(WireError) -> (
        startLine: ArraySlice<UInt8>, headers: HTTPHeaders
    ) {
        var startLine: ArraySlice<UInt8>? = nil
        var headers = HTTPHeaders()
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == HTTPSyntax.lf {
                let end = index > lineStart && bytes[index - 1] == HTTPSyntax.cr ? index - 1 : index
                let line = bytes[lineStart..<end]
                if startLine == nil {
                    startLine = line
                } else if !line.isEmpty {
                    let field = try parseFieldLine(line)
                    headers.add(name: field.name, value: field.value)
                }
                lineStart = index + 1
            }
            index += 1
        }
        guard let startLine, !startLine.isEmpty else {
            throw .malformed("HTTP", "message has no start line")
        }
        return (startLine, headers)
    }

    /// Parses `field-name ":" OWS field-value OWS` (RFC 9112 §5).
    ///
    /// - Throws: `.malformed` for a continuation line (obsolete line folding, RFC 9112 §5.2),
    ///   a missing colon, whitespace before the colon or another non-token name
    ///   (RFC 9112 §5.1), or a control character in the value (RFC 9110 §5.5).
    static func parseFieldLine(_ line: ArraySlice<UInt8>) throws(WireError) -> (name: String, value: String) {
        guard let first = line.first, !HTTPSyntax.isWhitespace(first) else {
            throw .malformed("HTTP", "obsolete line folding is not accepted")
        }
        guard let colon = line.firstIndex(of: HTTPSyntax.colon) else {
            throw .malformed("HTTP", "header line without a colon")
        }
        let name = line[line.startIndex..<colon]
        guard HTTPSyntax.isToken(name) else {
            throw .malformed("HTTP", "invalid header name")
        }
        let value = HTTPSyntax.trimmed(line[(colon + 1)...])
        guard value.allSatisfy(HTTPSyntax.isFieldValueByte) else {
            throw .malformed("HTTP", "control character in the value of a header")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// The message's `Content-Length`, or `nil` when it has none.
    ///
    /// A repeated field or a list of identical values is accepted (RFC 9110 §8.6).
    ///
    /// - Throws: `.malformed` for values that disagree, are empty, negative, not decimal or
    ///   overflow: a length we cannot trust makes every later message on the connection
    ///   unreadable (RFC 9112 §6.3 item 5).
    static func contentLength(_ headers: HTTPHeaders) throws(WireError) -> Int? {
        var result: Int? = nil
        for value in headers.values(for: "Content-Length") {
            for element in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let digits = HTTPSyntax.trimmed(ArraySlice(element))
                guard !digits.isEmpty, digits.allSatisfy(HTTPSyntax.isDigit) else {
                    throw .malformed("HTTP", "Content-Length is not a decimal number")
                }
                var length = 0
                for digit in digits {
                    let (times10, overflow1) = length.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(Int(digit &- UInt8(ascii: "0")))
                    guard !overflow1, !overflow2 else {
                        throw .malformed("HTTP", "Content-Length overflows")
                    }
                    length = sum
                }
                if let result, result != length {
                    throw .malformed("HTTP", "conflicting Content-Length values")
                }
                result = length
            }
        }
        return result
    }

    /// Decides how the body is delimited (RFC 9112 §6.3), after the rules that make a
    /// response bodiless (HEAD, 1xx, 204, 304) have been applied by the caller.
    ///
    /// - Parameter isRequest: a request with neither header has no body; a response runs
    ///   until the connection closes.
    /// - Throws: `.malformed` for both `Transfer-Encoding` and `Content-Length` (a request
    ///   smuggling signal, RFC 9112 §6.3 item 3), `Transfer-Encoding` in HTTP/1.0
    ///   (RFC 9112 §6.1), a coding list that does not end in `chunked`, or a bad length;
    ///   `.unsupported` for codings other than `chunked` (gzip…); `.tooLarge` for a
    ///   length above `maxBodyBytes`, before any of the body is read.
    static func framing(
        version: HTTPVersion, headers: HTTPHeaders, isRequest: Bool, maxBodyBytes: Int
    ) throws(WireError) -> HTTPBodyFraming {
        let codings = headers.values(for: "Transfer-Encoding")
        if !codings.isEmpty {
            guard !headers.contains("Content-Length") else {
                throw .malformed("HTTP", "both Transfer-Encoding and Content-Length")
            }
            guard version != .http1_0 else {
                throw .malformed("HTTP", "Transfer-Encoding in an HTTP/1.0 message")
            }
            let list = codings.flatMap(HTTPSyntax.listElements)
            guard let last = list.last, HTTPSyntax.equalsIgnoringCase(last.utf8, "chunked".utf8) else {
                throw .malformed("HTTP", "Transfer-Encoding does not end with chunked")
            }
            guard list.count == 1 else {
                throw .unsupported("HTTP", "transfer codings other than chunked are not supported")
            }
            return .chunked
        }
        if let length = try contentLength(headers) {
            guard length <= maxBodyBytes else {
                throw .tooLarge("HTTP", "Content-Length \(length) exceeds the limit of \(maxBodyBytes) bytes")
            }
            return length == 0 ? .none : .length(length)
        }
        return isRequest ? .none : .untilClose
    }
}
