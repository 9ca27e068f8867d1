/// The protocol version of an HTTP/1.x message (RFC 9112 §2.3).
///
/// Only 1.0 and 1.1 are spoken; the parsers refuse other versions as `.unsupported`.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The digit before the dot.
    public var major: Int
    /// The digit after the dot.
    public var minor: Int

    /// A version; only 1.0 and 1.1 are spoken.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0: connections close after each response unless `keep-alive` is sent.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1, what we send.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `HTTP/1.1`, as written on the start line.
    public var description: String { "HTTP/\(major).\(minor)" }

    /// Parses `HTTP-version` (RFC 9112 §2.3): `HTTP/` DIGIT `.` DIGIT, case-sensitive.
    ///
    /// - Throws: `.malformed` when the bytes are not a version at all, `.unsupported` for a
    ///   well-formed version other than 1.0 or 1.1.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(WireError) -> HTTPVersion {
        let prefix: [UInt8] = Array("HTTP/".utf8)
        guard bytes.count == 8, bytes.prefix(5).elementsEqual(prefix),
            HTTPSyntax.isDigit(bytes[bytes.startIndex + 5]),
            bytes[bytes.startIndex + 6] == UInt8(ascii: "."),
            HTTPSyntax.isDigit(bytes[bytes.startIndex + 7])
        else {
            throw .malformed("HTTP", "invalid HTTP version")
        }
        let version = HTTPVersion(
            major: Int(bytes[bytes.startIndex + 5] &- UInt8(ascii: "0")),
            minor: Int(bytes[bytes.startIndex + 7] &- UInt8(ascii: "0")))
        guard version == .http1_0 || version == .http1_1 else {
            throw .unsupported("HTTP", "version \(version) is not supported")
        }
        return version
    }

    /// Whether a connection may carry another message after this one (RFC 9112 §9.3):
    /// HTTP/1.1 persists unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    func keepsAlive(_ headers: HTTPHeaders) -> Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        if self == .http1_0 { return headers.containsToken("keep-alive", in: "Connection") }
        return true
    }
}
