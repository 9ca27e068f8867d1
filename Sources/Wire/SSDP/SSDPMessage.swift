/// A received SSDP datagram (UPnP Device Architecture 2.0 §1): HTTP/1.1-shaped text over UDP with
/// a start line, header fields and no body.
public enum SSDPMessage: Equatable, Sendable {
    /// `M-SEARCH * HTTP/1.1`: a control point looking for devices (§1.3.2).
    case search(SSDPHeaders)
    /// `HTTP/1.1 200 OK`: a device answering a search (§1.3.3).
    case response(SSDPHeaders)
    /// `NOTIFY * HTTP/1.1`: a device advertising itself (§1.2).
    case notify(SSDPHeaders)

    /// The largest datagram accepted. Real ones are a few hundred bytes; UPnP asks devices to keep
    /// them under one Ethernet frame, so anything this big is garbage or an attack.
    public static let maxDatagramSize = 8192
    /// The most header fields accepted (Samsung sends about ten).
    public static let maxHeaderCount = 64

    /// The message's header fields.
    public var headers: SSDPHeaders {
        switch self {
        case .search(let headers), .response(let headers), .notify(let headers): headers
        }
    }

    /// Parses one whole datagram.
    ///
    /// Lines may end in CRLF or, as some devices send, a bare LF; the final blank line may be
    /// missing because a datagram cannot be truncated mid-stream. Refused as `malformed`: an empty
    /// datagram, a bare CR or a control byte inside a line, invalid UTF-8, a line without a colon,
    /// a field name that is not an RFC 9110 token (which also rules out obsolete line folding), and
    /// anything but whitespace after the blank line (SSDP has no body). A method or status other
    /// than M-SEARCH, NOTIFY and 200 is `unsupported`; too many bytes or fields is `tooLarge`.
    public static func parse(_ datagram: some Collection<UInt8>) throws(WireError) -> SSDPMessage {
        guard datagram.count <= maxDatagramSize else {
            throw .tooLarge("SSDP", "datagram of \(datagram.count) bytes exceeds \(maxDatagramSize)")
        }
        let bytes = Array(datagram)
        guard !bytes.isEmpty else { throw .malformed("SSDP", "empty datagram") }

        var lines = SSDPLineIterator(bytes: bytes)
        guard let startLine = try lines.next(), !startLine.isEmpty else {
            throw .malformed("SSDP", "no start line")
        }
        let kind = try parseStartLine(startLine)

        var headers = SSDPHeaders()
        while let line = try lines.next() {
            if line.isEmpty {
                guard lines.remainder.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) else {
                    throw .malformed("SSDP", "body after the header fields")
                }
                break
            }
            guard headers.fields.count < maxHeaderCount else {
                throw .tooLarge("SSDP", "more than \(maxHeaderCount) header fields")
            }
            let field = try parseField(line)
            headers.add(field.name, field.value)
        }
        switch kind {
        case .search: return .search(headers)
        case .response: return .response(headers)
        case .notify: return .notify(headers)
        }
    }

    private enum Kind {
        case search
        case response
        case notify
    }

    private static func parseStartLine(_ line: ArraySlice<UInt8>) throws(WireError) -> Kind {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        let versions: [[UInt8]] = [Array("HTTP/1.1".utf8), Array("HTTP/1.0".utf8)]
        if parts[0].starts(with: "HTTP/".utf8) {
            // Status line: HTTP-version SP status-code SP [reason-phrase] (RFC 9112 §4).
            guard versions.contains(where: { $0.elementsEqual(parts[0]) }), parts.count >= 2,
                parts[1].count == 3, parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { throw .malformed("SSDP", "bad status line") }
            guard parts[1].elementsEqual("200".utf8) else {
                throw .unsupported("SSDP", "response status \(String(decoding: parts[1], as: UTF8.self))")
            }
            return .response
        }
        // Request line: method SP "*" SP HTTP-version (UPnP DA 2.0 §1.2.2, §1.3.2).
        guard parts.count == 3, versions.contains(where: { $0.elementsEqual(parts[2]) }),
            !parts[0].isEmpty, parts[0].allSatisfy(SSDPSyntax.isTokenByte)
        else { throw .malformed("SSDP", "bad start line") }
        guard parts[1].elementsEqual("*".utf8) else { throw .malformed("SSDP", "request target is not \"*\"") }
        if parts[0].elementsEqual("M-SEARCH".utf8) { return .search }
        if parts[0].elementsEqual("NOTIFY".utf8) { return .notify }
        throw .unsupported("SSDP", "method \(String(decoding: parts[0], as: UTF8.self))")
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(WireError) -> SSDPHeaderField {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed("SSDP", "header line without a colon")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(SSDPSyntax.isTokenByte) else {
            throw .malformed("SSDP", "bad header field name")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard let text = String(validating: value, as: UTF8.self) else {
            throw .malformed("SSDP", "header value is not valid UTF-8")
        }
        return SSDPHeaderField(name: String(decoding: name, as: UTF8.self), value: text)
    }
}

/// Splits a datagram into lines on LF, dropping one CR before it, and refuses control bytes.
private struct SSDPLineIterator {
    let bytes: [UInt8]
    var position = 0

    /// The bytes after the last line returned.
    var remainder: ArraySlice<UInt8> { bytes[position...] }

    mutating func next() throws(WireError) -> ArraySlice<UInt8>? {
        guard position < bytes.count else { return nil }
        let start = position
        var end = start
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        position = end < bytes.count ? end + 1 : end
        var line = bytes[start..<end]
        if line.last == 0x0D { line = line.dropLast() }
        // Horizontal tab is the only control byte allowed in a field line (RFC 9110 §5.5).
        guard line.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else {
            throw .malformed("SSDP", "control byte or bare CR in a line")
        }
        return line
    }
}

/// Character classes shared by the SSDP parser.
enum SSDPSyntax {
    /// RFC 9110 §5.6.2 tchar: letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
