/// Why opening a WebSocket or sending on one failed, in words a user can act on.
///
/// The one error type of the WebSocket client; `Net` and `Wire` errors are mapped to it once,
/// at the boundary (`description` reads like "ws://127.0.0.2:8060/ecp-session: the server
/// answered 403 Forbidden: …").
public struct WebSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The URL or an argument cannot be used (bad scheme, a header we set ourselves…).
        case invalidArgument
        /// No TCP connection (refused, unreachable, connect timeout).
        case connect
        /// The TLS handshake failed.
        case tls
        /// The peer's certificate differs from the pinned fingerprint.
        case certificateChanged
        /// The opening handshake did not complete before its deadline.
        case timeout
        /// The server refused the upgrade or answered something that is not a valid one.
        case handshake
        /// The connection is closing or closed: nothing more can be sent.
        case closed
    }

    public let kind: Kind
    public let message: String
    /// The HTTP status of a refused handshake (403, 404…), when the server answered one.
    public let status: Int?

    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { message }
}
