extension SamsungSession {
    /// TLS is up on a secure endpoint: decide on the certificate before the WebSocket upgrade
    /// (which carries the token). When the result contains `.close`, do not upgrade.
    public mutating func tlsEstablished(certificateFingerprint: String, now: ContinuousClock.Instant)
        -> [SamsungSessionAction]
    {
        guard case .connecting(let endpoint) = state, endpoint.secure else { return [] }
        let accepting = acceptsNewCertificate
        acceptsNewCertificate = false
        switch SamsungCertificatePolicy.evaluate(
            pinned: configuration.pinnedCertificate, seen: certificateFingerprint)
        {
        case .changed(_, let seen) where accepting:
            // A pairing, over TLS: the user trusts the TV as it is now (the channel warns).
            configuration.pinnedCertificate = seen
            certificateChecked = true
            return [.pinCertificate(seen)]
        case .pinFirstUse(let pin):
            configuration.pinnedCertificate = pin
            certificateChecked = true
            return [.pinCertificate(pin)]
        case .matches:
            certificateChecked = true
            return []
        case .changed(let pinned, let seen):
            state = .certificateChanged(pinned: pinned, seen: seen)
            let error = DriverError(
                .unauthorized, SamsungPairingHelp.certificateChanged(pinned: pinned, seen: seen))
            return [.certificateChanged(pinned: pinned, seen: seen), .close] + failQueued(error)
        }
    }

    /// The WebSocket is open: wait for the TV's verdict (the user may have to approve).
    public mutating func opened(now: ContinuousClock.Instant) -> [SamsungSessionAction] {
        guard case .connecting(let endpoint) = state else { return [] }
        // A secure connection whose certificate was never checked may have sent the token to
        // anyone: refuse to go on (a driver bug, caught here rather than trusted).
        if endpoint.secure && endpoint.token != nil && !certificateChecked {
            state = .idle
            let error = DriverError(
                .rejected, "the TV's certificate was not checked before the token was sent")
            return [.close] + failQueued(error)
        }
        state = .awaitingApproval(endpoint, deadline: now.advanced(by: configuration.approvalTimeout))
        return []
    }

    /// Connecting failed. For a TV never paired, a refused connection or a failed TLS
    /// handshake on 8002 falls back to 8001 (older TVs have no 8002, or a TLS stack we cannot
    /// talk to). A paired TV (`isPaired`) never falls back: whoever resets 8002 must not get
    /// the keys and text in clear. Anything else means the TV is not there, and the queued
    /// requests fail.
    public mutating func connectFailed(_ failure: SamsungConnectFailure, now: ContinuousClock.Instant)
        -> [SamsungSessionAction]
    {
        guard case .connecting(let endpoint) = state else { return [] }
        switch failure {
        case .refused where endpoint.secure && !isPaired, .tlsHandshakeFailed where endpoint.secure && !isPaired:
            let plain = plainEndpoint
            state = .connecting(plain)
            certificateChecked = false
            return [.open(plain)]
        default:
            state = .idle
            acceptsNewCertificate = false
            let error = Self.error(for: failure, endpoint: endpoint)
            guard endpoint.secure && isPaired else { return failQueued(error) }
            return failQueued(
                DriverError(
                    error.kind,
                    error.message + " (the TV is paired: tv2mqtt reaches it only over TLS, never on port 8001 in clear)"
                ))
        }
    }

    static func error(for failure: SamsungConnectFailure, endpoint: SamsungRemoteEndpoint)
        -> DriverError
    {
        let place = "the TV's remote channel (port \(endpoint.port))"
        switch failure {
        case .refused: return DriverError(.unreachable, "\(place) refused the connection")
        case .tlsHandshakeFailed(let reason):
            return DriverError(.unreachable, "TLS with \(place) failed: \(reason)")
        case .timedOut: return DriverError(.timeout, "\(place) did not answer in time")
        case .unreachable(let reason):
            return DriverError(.unreachable, "\(place) is unreachable: \(reason)")
        case .upgradeRejected(let status):
            return DriverError(.rejected, "\(place) refused the WebSocket upgrade (HTTP \(status))")
        }
    }

    /// The connection ended (either side). Back to idle unless stopped; queued requests fail.
    public mutating func closed(now: ContinuousClock.Instant) -> [SamsungSessionAction] {
        switch state {
        case .connecting, .awaitingApproval, .ready:
            state = .idle
            return failQueued(DriverError(.unreachable, "the TV closed the remote channel"))
        case .idle, .pairingRequired, .certificateChanged, .unsupported:
            return []
        }
    }

    /// Checks the pairing deadline.
    public mutating func tick(now: ContinuousClock.Instant) -> [SamsungSessionAction] {
        guard case .awaitingApproval(_, let deadline) = state, now >= deadline else { return [] }
        let seconds = Int(configuration.approvalTimeout.components.seconds)
        return stopForPairing(
            SamsungPairingHelp.unanswered(clientName: configuration.clientName, seconds: seconds),
            kind: .timeout)
    }

    mutating func stopForPairing(_ message: String, kind: DriverError.Kind) -> [SamsungSessionAction] {
        state = .pairingRequired(message)
        return [.pairingRequired(message), .close] + failQueued(DriverError(kind, message))
    }
}
