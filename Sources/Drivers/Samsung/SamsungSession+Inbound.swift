extension SamsungSession {
    /// A message arrived on the remote channel.
    public mutating func received(_ event: SamsungEvent, now: ContinuousClock.Instant)
        -> [SamsungSessionAction]
    {
        switch event {
        case .connected(let token):
            // Only an open connection (past the certificate check) can be approved.
            let endpoint: SamsungRemoteEndpoint
            switch state {
            case .awaitingApproval(let current, _), .ready(let current): endpoint = current
            default: return []
            }
            var actions: [SamsungSessionAction] = []
            // A token from a connection in clear never replaces one learned over TLS: with a
            // pin, only a secure connection's token is kept.
            let pinned = !SamsungCertificatePolicy.normalize(configuration.pinnedCertificate ?? "").isEmpty
            if let token, token != configuration.token, endpoint.secure || !pinned {
                configuration.token = token
                actions.append(.persistToken(token))
            }
            guard case .awaitingApproval = state else { return actions }
            state = .ready(endpoint)
            if !endpoint.secure { plainOnly = true }
            return actions + flushQueue()
        case .unauthorized:
            guard isConnected else { return [] }
            let plain = currentEndpoint.map { !$0.secure } ?? false
            return stopForPairing(
                SamsungPairingHelp.denied(clientName: configuration.clientName, plainPort: plain),
                kind: .unauthorized)
        case .timeOut:
            guard isConnected else { return [] }
            let seconds = Int(configuration.approvalTimeout.components.seconds)
            return stopForPairing(
                SamsungPairingHelp.unanswered(clientName: configuration.clientName, seconds: seconds),
                kind: .timeout)
        case .error(let message) where message.contains("unrecognized method value : ms.remote.control"):
            state = .unsupported(SamsungPairingHelp.legacyModel)
            return [.close] + failQueued(DriverError(.unsupported, SamsungPairingHelp.legacyModel))
        case .ignorable:
            return []
        case .error, .installedApps, .appLaunch, .appIcon, .other:
            return [.deliver(event)]
        }
    }

    var isConnected: Bool { currentEndpoint != nil }

    var currentEndpoint: SamsungRemoteEndpoint? {
        switch state {
        case .connecting(let endpoint), .awaitingApproval(let endpoint, _), .ready(let endpoint):
            endpoint
        default: nil
        }
    }
}
