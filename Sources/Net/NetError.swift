import Glibc

/// Why a network operation failed, in words a user can act on.
///
/// The one error type of the `Net` module. `description` reads like
/// "connect to 127.0.0.2:8060: connection refused".
public struct NetError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Nothing listens at the address (ECONNREFUSED).
        case refused
        /// A deadline passed (connect, read, write or TLS handshake).
        case timedOut
        /// The connection was closed: by us (`close()`), or by the peer while we were writing.
        case closed
        /// The peer reset the connection (ECONNRESET, EPIPE).
        case reset
        /// No route to the host or network (EHOSTUNREACH, ENETUNREACH).
        case unreachable
        /// The local address or port is taken (EADDRINUSE).
        case addressInUse
        /// A host name did not resolve, or an address could not be parsed.
        case badAddress
        /// The TLS handshake or a TLS record failed (certificate not trusted, protocol error…).
        case tls
        /// The peer's certificate differs from the pinned fingerprint.
        case certificateChanged
        /// The peer refused our client certificate with a TLS alert (certificate_unknown,
        /// bad_certificate, unknown_ca…): a peer that pins its clients does not know ours.
        case certificateRefused
        /// The operation is not allowed in this state (e.g. two concurrent reads on one socket).
        case misuse
        /// Any other system call failure.
        case system
    }

    public let kind: Kind
    /// What we were doing: "connect to 127.0.0.1:1883", "read from 127.0.0.2:8060"…
    public let operation: String
    public let detail: String

    public init(_ kind: Kind, _ operation: String, _ detail: String) {
        self.kind = kind
        self.operation = operation
        self.detail = detail
    }

    /// Maps an `errno` value from a failed system call.
    public static func errno(_ code: Int32, _ operation: String) -> NetError {
        let kind: Kind =
            switch code {
            case ECONNREFUSED: .refused
            case ETIMEDOUT: .timedOut
            case ECONNRESET, EPIPE, ECONNABORTED: .reset
            case EHOSTUNREACH, ENETUNREACH, ENETDOWN, EHOSTDOWN: .unreachable
            case EADDRINUSE: .addressInUse
            case EADDRNOTAVAIL, EAFNOSUPPORT, EINVAL: .badAddress
            default: .system
            }
        return NetError(kind, operation, String(cString: strerror(code)))
    }

    public var description: String { "\(operation): \(detail)" }
}

extension NetError {
    /// The fingerprint a `.certificateChanged` error says the peer presented (lowercase hex, no
    /// separators); nil for other errors.
    public var presentedFingerprint: String? {
        kind == .certificateChanged ? Self.presentedFingerprint(in: detail) : nil
    }

    /// The fingerprint after "got " in a text that carries a pin mismatch's detail (a layer
    /// above may wrap it in its own message), lowercase hex without separators.
    public static func presentedFingerprint(in text: String) -> String? {
        guard let got = text.firstRange(of: "got ") else { return nil }
        let hex = text[got.upperBound...].prefix { $0.isHexDigit || $0 == ":" }.filter { $0 != ":" }
        return hex.isEmpty ? nil : hex.lowercased()
    }
}
