import Clients
import Net
import Support
import Wire

/// Opening and registering: the sockets, with `LGSession` deciding (the port in clear, the
/// certificate, the registration's outcome).
extension LGConnection {
    func open() async throws(DriverError) {
        var connected: WebSocketClient.Connected
        do {
            connected = try await connect(secure: true)
            session.isPlain = false
        } catch {
            let (fallback, actions) = session.secureFailed(Self.secureFailure(error))
            perform(actions)
            if case .fail(let failure) = fallback { throw failure }
            do {
                connected = try await connect(secure: false)
            } catch {
                throw DriverError(.unreachable, "cannot connect to the TV: \(error.message)")
            }
            session.isPlain = true
        }
        let current = rpc.attach(connected.connection)
        Task { await self.read(current) }
        try await register(fingerprint: connected.peerCertificateSHA256.map { Digest.hex($0) })
    }

    private static func secureFailure(_ error: WebSocketError) -> LGSession.SecureFailure {
        switch error.kind {
        case .connect where error.message.contains("refused"): .refused(error.message)
        case .certificateChanged: .certificateChanged(error.message)
        default: .other(timedOut: error.kind == .timeout, error.message)
        }
    }

    private func connect(secure: Bool) async throws(WebSocketError) -> WebSocketClient.Connected {
        let config = configuration
        let port = secure ? config.securePort : config.plainPort
        let host = config.host.contains(":") ? "[\(config.host)]" : config.host
        // A pairing takes the certificate presented, over TLS; `registered` compares it with the pin.
        let pinBytes = session.pinToTrust.flatMap(SamsungChannel.bytes(hex:))
        return try await WebSocketClient.connect(
            url: "\(secure ? "wss" : "ws")://\(host):\(port)/",
            tls: secure ? TLSConfiguration(trust: .selfSigned(pinned: pinBytes)) : nil,
            connectTimeout: config.connectTimeout, handshakeTimeout: config.requestTimeout,
            configuration: WebSocketConfiguration(
                maxMessageSize: LGMessage.maxBytes, keepAliveInterval: config.keepAlive,
                keepAliveTimeout: config.keepAliveTimeout))
    }

    /// Registers with the client key (silently) or asks the TV's user (the prompt, or the PIN
    /// screen when the TV shows one: the PIN given to `pair(pin:)` is sent at once; without
    /// one the connection stays open for it).
    private func register(fingerprint: String?) async throws(DriverError) {
        let (registration, actions) = session.register(fingerprint: fingerprint)
        perform(actions)
        let answer: LGMessage
        do throws(DriverError) {
            do throws(DriverError) {
                answer = try await exchange(id: LGRegistration.id, registration.message, timeout: registration.timeout)
            } catch  where session.pinShown {
                let (pin, actions) = session.pinScreen()
                perform(actions)
                guard let pin else { throw error }
                answer = try await sendPIN(pin)
            }
        } catch  where session.pinShown {
            throw error
        } catch {
            try refuseRegistration(error, byPIN: registration.byPIN, hadKey: registration.hadKey)
        }
        try accept(answer)
    }

    /// A registration that failed: the session says what the user must do.
    func refuseRegistration(_ error: DriverError, byPIN: Bool, hadKey: Bool) throws(DriverError) -> Never {
        let (refusal, actions) = session.registrationFailed(error, byPIN: byPIN, hadKey: hadKey)
        perform(actions)
        throw refusal
    }

    /// `registered`: the key the TV issued and the certificate seen are kept (and emitted).
    func accept(_ answer: LGMessage) throws(DriverError) {
        let (refusal, actions) = session.registered(answer)
        perform(actions)
        if let refusal { throw refusal }
    }
}
