/// WebSocket close status codes (RFC 6455 §7.4.1, IANA "WebSocket Close Code Number Registry").
public enum WebSocketCloseCode {
    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure: UInt16 = 1000
    /// 1001: the endpoint is going away (server shutting down, TV entering standby).
    public static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the protocol.
    public static let protocolError: UInt16 = 1002
    /// 1003: a kind of data this endpoint cannot accept.
    public static let unsupportedData: UInt16 = 1003
    /// 1005: "no status code was present". Reported locally, never sent (§7.4.1).
    public static let noStatusReceived: UInt16 = 1005
    /// 1006: closed without a close frame. Reported locally, never sent (§7.4.1).
    public static let abnormalClosure: UInt16 = 1006
    /// 1007: data inconsistent with the message type, e.g. invalid UTF-8 in text (§8.1).
    public static let invalidPayloadData: UInt16 = 1007
    /// 1008: a policy violation.
    public static let policyViolation: UInt16 = 1008
    /// 1009: a message too big to process.
    public static let messageTooBig: UInt16 = 1009
    /// 1010: the client needed an extension the server did not negotiate.
    public static let mandatoryExtension: UInt16 = 1010
    /// 1011: the server hit an unexpected condition.
    public static let internalError: UInt16 = 1011
    /// 1015: TLS handshake failure. Reported locally, never sent (§7.4.1).
    public static let tlsHandshake: UInt16 = 1015

    /// Whether a peer may put `code` in a close frame (RFC 6455 §7.4.1, §7.4.2).
    ///
    /// Valid: 1000–1003, 1007–1011, 1012–1014 (registered with IANA since RFC 6455: service restart,
    /// try again later, bad gateway; real servers send them), and 3000–4999 (libraries and
    /// applications). Invalid: below 1000, the reserved 1004, the never-sent 1005, 1006 and 1015,
    /// the unassigned rest of 1016–2999, and 5000 and above.
    public static func isValidOnWire(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The code to close with after a `WireError` from the parser or assembler (§7.4.1):
    /// 1009 for size limits, 1007 for invalid UTF-8, 1002 for everything else.
    public static func forError(_ error: WireError) -> UInt16 {
        switch error.kind {
        case .tooLarge: messageTooBig
        case .malformed where error.reason.contains("UTF-8"): invalidPayloadData
        default: protocolError
        }
    }
}
