/// Why a request over a `WebSocketRPC` got no reply: each waiter gets one of these, never a hang.
public enum RPCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection is attached: nothing was sent.
    case notConnected
    /// The request could not be handed to the connection (the WebSocket's reason).
    case sendFailed(String)
    /// The reply did not come by the request's deadline.
    case timeout
    /// The connection the request went out on ended, or was detached or replaced, before the
    /// reply came (why: how it ended, or the owner's reason).
    case closed(String)
    /// A request with the same id still waits for its reply: nothing was sent.
    case duplicateID
    /// The waiting task was cancelled, or the request given up.
    case cancelled

    public var description: String {
        switch self {
        case .notConnected: "not connected"
        case .sendFailed(let why): "sending failed: \(why)"
        case .timeout: "no reply by the deadline"
        case .closed(let why): "the connection closed before the reply: \(why)"
        case .duplicateID: "a request with this id is still waiting for its reply"
        case .cancelled: "the request was given up"
        }
    }
}
