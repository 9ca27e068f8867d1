import Wire

/// The two timers of a WebSocket session: the close handshake's timeout and the keepalive.
extension WebSocketSession {
    /// When `tick(now:)` next has something to do, or `nil` when no timer runs.
    public var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .closed:
            return nil
        case .closing:
            return sentClose?.deadline
        case .open:
            guard let interval = configuration.keepAliveInterval else { return nil }
            if let pingSentAt { return pingSentAt + configuration.keepAliveTimeout }
            return lastTraffic + interval
        }
    }

    /// Runs the timers that are due at `now`.
    ///
    /// - Closing and the peer never answered our close: the transport is closed (§7.1.1 lets
    ///   the closing endpoint give up).
    /// - Keepalive: after `keepAliveInterval` of silence a ping goes out; when nothing at all
    ///   arrives within `keepAliveTimeout` after it, the peer is declared dead (1006). No close
    ///   frame is sent then: a peer that does not read would never answer it anyway.
    public mutating func tick(now: ContinuousClock.Instant) -> [WebSocketSessionAction] {
        var actions: [WebSocketSessionAction] = []
        switch state {
        case .closed:
            break
        case .closing:
            guard let sentClose, now >= sentClose.deadline else { break }
            let waited = configuration.closeTimeout.shortDescription
            finish(
                WebSocketCloseReason(
                    code: sentClose.code ?? WebSocketCloseCode.noStatusReceived,
                    reason: "the peer did not answer our close frame within \(waited)", initiator: .local,
                    wasClean: false), into: &actions)
        case .open:
            guard let interval = configuration.keepAliveInterval else { break }
            if let pingSentAt {
                guard now >= pingSentAt + configuration.keepAliveTimeout else { break }
                let waited = configuration.keepAliveTimeout.shortDescription
                finish(
                    WebSocketCloseReason(
                        code: WebSocketCloseCode.abnormalClosure,
                        reason: "the peer sent nothing within \(waited) of a keepalive ping", initiator: .local,
                        wasClean: false), into: &actions)
            } else if now >= lastTraffic + interval {
                pingSentAt = now
                actions.append(.write(encode(.ping())))
            }
        }
        return actions
    }
}
