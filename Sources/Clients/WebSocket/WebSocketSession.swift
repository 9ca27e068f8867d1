import Wire

/// The WebSocket protocol of one connection (RFC 6455 §5–§7) as a pure state machine.
///
/// It owns no socket and reads no clock: its driver (`WebSocketConnection`) feeds it received
/// bytes, send requests and timer ticks, each with the current instant, and performs the
/// `WebSocketSessionAction`s it returns. So framing, masking, the ping/pong and close handshakes,
/// keepalive and every way a peer can misbehave are tested without sockets or sleeping.
///
/// States: `.open` → (we send close) `.closing` → `.closed`, or `.open` → `.closed` directly when
/// the peer closes, the transport ends or the peer breaks the protocol (the connection is then
/// failed with 1002, 1007 or 1009 as RFC 6455 §7.4.1 asks).
public struct WebSocketSession: Sendable {
    public enum State: Equatable, Sendable {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's (RFC 6455 §7.1.2); nothing more is sent.
        case closing
        /// Done: every later event is ignored.
        case closed
    }

    public let role: WebSocketRole
    public let configuration: WebSocketConfiguration
    public private(set) var state: State = .open

    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    /// Source of masking keys (`SecureRandom.bytes` in production): RFC 6455 §5.3 wants them
    /// unpredictable, so a proxy cannot be fed chosen bytes.
    private let randomBytes: @Sendable (Int) -> [UInt8]
    /// The close frame we sent, and when we stop waiting for the answer.
    /// (Internal, not private: the timers live in `WebSocketSession+Timers.swift`.)
    var sentClose: (code: UInt16?, reason: String, deadline: ContinuousClock.Instant)?
    /// When the peer last sent anything, and when our unanswered keepalive ping left.
    var lastTraffic: ContinuousClock.Instant
    var pingSentAt: ContinuousClock.Instant?

    public init(
        role: WebSocketRole, configuration: WebSocketConfiguration = WebSocketConfiguration(),
        now: ContinuousClock.Instant, randomBytes: @escaping @Sendable (Int) -> [UInt8]
    ) {
        self.role = role
        self.configuration = configuration
        self.randomBytes = randomBytes
        parser = WebSocketFrameParser(role: role, maxFrameSize: configuration.maxFrameSize)
        assembler = WebSocketMessageAssembler(maxMessageSize: configuration.maxMessageSize)
        lastTraffic = now
    }

    // MARK: Receiving

    /// Bytes from the transport, in any split: a frame may arrive a byte at a time or many in one read.
    public mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant)
        -> [WebSocketSessionAction]
    {
        guard state != .closed else { return [] }
        // Any traffic proves the peer alive: that is what the keepalive ping asks.
        lastTraffic = now
        pingSentAt = nil
        parser.append(bytes)
        var actions: [WebSocketSessionAction] = []
        while state != .closed {
            let message: WebSocketMessage
            do throws(WireError) {
                guard let frame = try parser.next() else { break }
                guard let complete = try assembler.push(frame) else { continue }
                message = complete
            } catch {
                fail(code: WebSocketCloseCode.forError(error), reason: error.reason, into: &actions)
                break
            }
            handle(message, into: &actions)
        }
        return actions
    }

    private mutating func handle(
        _ message: WebSocketMessage, into actions: inout [WebSocketSessionAction]
    ) {
        switch message {
        case .text(let text):
            actions.append(.deliver(.text(text)))
        case .binary(let bytes):
            actions.append(.deliver(.binary(bytes)))
        case .ping(let payload):
            // After our close frame nothing may follow it (§5.5.1), not even a pong.
            if state == .open { actions.append(.write(encode(.pong(payload)))) }
        case .pong:
            break  // solicited or not, it only counts as traffic (§5.5.3)
        case .close(let code, let reason):
            if let sentClose {
                // The answer to our close: the closing handshake is complete (§7.1.2).
                finish(
                    WebSocketCloseReason(
                        code: sentClose.code ?? WebSocketCloseCode.noStatusReceived, reason: sentClose.reason,
                        initiator: .local, wasClean: true), into: &actions)
            } else {
                // Echo the peer's code (§5.5.1); an empty close is answered with an empty one.
                actions.append(.write(encode(.close(code: code))))
                finish(
                    WebSocketCloseReason(
                        code: code ?? WebSocketCloseCode.noStatusReceived, reason: reason, initiator: .peer,
                        wasClean: true), into: &actions)
            }
        }
    }

    /// Fails the connection (§7.1.7): our close frame with `code` when we have not sent one yet,
    /// then the transport is closed without waiting — the peer already broke the protocol.
    private mutating func fail(
        code: UInt16, reason: String, into actions: inout [WebSocketSessionAction]
    ) {
        if state == .open { actions.append(.write(encode(.close(code: code, reason: reason)))) }
        finish(
            WebSocketCloseReason(code: code, reason: reason, initiator: .local, wasClean: false),
            into: &actions)
    }

    mutating func finish(_ reason: WebSocketCloseReason, into actions: inout [WebSocketSessionAction]) {
        state = .closed
        sentClose = nil
        pingSentAt = nil
        actions.append(.closeTransport(reason))
    }

    /// The transport ended: end of stream (`error` nil) or a read/write failure.
    public mutating func transportEnded(error: String?) -> [WebSocketSessionAction] {
        guard state != .closed else { return [] }
        var actions: [WebSocketSessionAction] = []
        let detail = error ?? "the peer closed the connection without a close frame"
        if let sentClose {
            finish(
                WebSocketCloseReason(
                    code: sentClose.code ?? WebSocketCloseCode.noStatusReceived, reason: detail,
                    initiator: .local,
                    wasClean: false), into: &actions)
        } else {
            finish(
                WebSocketCloseReason(
                    code: WebSocketCloseCode.abnormalClosure, reason: detail, initiator: .transport,
                    wasClean: false),
                into: &actions)
        }
        return actions
    }

    // MARK: Sending

    /// A text message in one frame.
    public mutating func send(text: String) throws(WebSocketError) -> [WebSocketSessionAction] {
        try send(frame: .text(text))
    }

    /// A binary message in one frame.
    public mutating func send(binary: [UInt8]) throws(WebSocketError) -> [WebSocketSessionAction] {
        try send(frame: .binary(binary))
    }

    /// A ping; the peer's pong (or anything else it sends) counts as traffic.
    public mutating func ping(_ payload: [UInt8] = []) throws(WebSocketError)
        -> [WebSocketSessionAction]
    {
        try send(frame: .ping(payload))
    }

    /// One frame as given: a fragment (`fin: false`, then `.continuation` frames), a ping or a pong.
    /// Close frames go through `close(code:reason:now:)`, which tracks the handshake.
    public mutating func send(frame: WebSocketFrame) throws(WebSocketError)
        -> [WebSocketSessionAction]
    {
        guard state == .open else {
            throw WebSocketError(.closed, "the WebSocket connection is closing")
        }
        guard frame.opcode != .close else {
            throw WebSocketError(.invalidArgument, "send close frames with close(code:reason:)")
        }
        if frame.opcode.isControl
            && (!frame.fin || frame.payload.count > WebSocketFrame.maxControlPayload)
        {
            throw WebSocketError(
                .invalidArgument, "a control frame is unfragmented and at most 125 bytes")
        }
        return [.write(encode(frame))]
    }

    /// Starts the closing handshake (§7.1.2): sends a close frame, then waits for the peer's
    /// until `closeTimeout`. A `nil` code sends an empty close frame. Does nothing once closing.
    ///
    /// - Throws: `.invalidArgument` for a code that may not be sent (§7.4.1: 1005, 1006, 1015,
    ///   reserved or out-of-range values).
    public mutating func close(code: UInt16?, reason: String = "", now: ContinuousClock.Instant)
        throws(WebSocketError)
        -> [WebSocketSessionAction]
    {
        if let code, !WebSocketCloseCode.isValidOnWire(code) {
            throw WebSocketError(.invalidArgument, "close code \(code) may not be sent")
        }
        guard state == .open else { return [] }
        state = .closing
        pingSentAt = nil
        sentClose = (code, reason, now + configuration.closeTimeout)
        return [.write(encode(.close(code: code, reason: code == nil ? "" : reason)))]
    }

    /// The frame's bytes, masked with a fresh key when we are the client (§5.1, §5.3).
    func encode(_ frame: WebSocketFrame) -> [UInt8] {
        guard role == .client else { return frame.encode(maskingKey: nil) }
        // Pad defensively: a short answer from the random source must not trap in encode.
        let key = Array((randomBytes(4) + [0, 0, 0, 0]).prefix(4))
        return frame.encode(maskingKey: key)
    }
}
