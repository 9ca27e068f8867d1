import Clients
import Net
import Support
import Wire

/// Opening and registering. The TLS port is tried first; the port in clear only when the TV
/// refuses connections on 3001 and has never spoken TLS (`hasSpokenTLS`: a TV paired over TLS
/// is never spoken to in clear again, a pairing included: the client key would cross the
/// network readable).
extension LGConnection {
    /// A certificate is pinned: the TV has spoken TLS.
    var hasSpokenTLS: Bool { !SamsungCertificatePolicy.normalize(configuration.pin ?? "").isEmpty }

    func open() async throws(DriverError) {
        let config = configuration
        var connected: WebSocketClient.Connected
        do {
            connected = try await connect(secure: true)
            isPlain = false
        } catch let error where error.kind == .connect && error.message.contains("refused") && !hasSpokenTLS {
            guard config.allowCleartext else {
                // Said once, not at every retry: nothing changes until the user does.
                if !cleartextRefusalSaid { emit(.pairingRequired(LGPairingHelp.cleartextNotAllowed)) }
                cleartextRefusalSaid = true
                throw DriverError(.unauthorized, LGPairingHelp.cleartextNotAllowed)
            }
            logger.warning(
                "reaching the TV in clear on port \(config.plainPort) (allow_cleartext): it refused TLS on \(config.securePort), so its client key crosses the network readable"
            )
            do {
                connected = try await connect(secure: false)
            } catch {
                throw DriverError(.unreachable, "cannot connect to the TV: \(error.message)")
            }
            isPlain = true
        } catch let error where error.kind == .certificateChanged {
            let seen = Self.presentedFingerprint(error.message)
            let pinned = SamsungCertificatePolicy.normalize(config.pin ?? "")
            blocked = .certificateChanged(pinned: pinned, seen: seen)
            logger.warning("the TV's certificate changed (pinned \(pinned.prefix(16))…, now \(seen.prefix(16))…)")
            emit(.certificateChanged(pinned: pinned, seen: seen))
            throw Self.error(blocked!)
        } catch {
            throw DriverError(
                error.kind == .timeout ? .timeout : .unreachable, "cannot connect to the TV: \(error.message)")
        }
        let current = rpc.attach(connected.connection)
        Task { await self.read(current) }
        try await register(fingerprint: connected.peerCertificateSHA256.map { Digest.hex($0) })
    }

    private func connect(secure: Bool) async throws(WebSocketError) -> WebSocketClient.Connected {
        let config = configuration
        let port = secure ? config.securePort : config.plainPort
        let host = config.host.contains(":") ? "[\(config.host)]" : config.host
        // A pairing takes the certificate presented, over TLS; `accept` compares it with the pin.
        let pinBytes = isPairing ? nil : config.pin.flatMap(SamsungChannel.bytes(hex:))
        return try await WebSocketClient.connect(
            url: "\(secure ? "wss" : "ws")://\(host):\(port)/",
            tls: secure ? TLSConfiguration(trust: .selfSigned(pinned: pinBytes)) : nil,
            connectTimeout: config.connectTimeout, handshakeTimeout: config.requestTimeout,
            configuration: WebSocketConfiguration(
                maxMessageSize: LGMessage.maxBytes, keepAliveInterval: config.keepAlive,
                keepAliveTimeout: config.keepAliveTimeout))
    }

    /// The fingerprint after "got " in the TLS layer's pin-mismatch message, normalised.
    static func presentedFingerprint(_ message: String) -> String {
        guard let range = message.firstRange(of: "got ") else { return "" }
        return SamsungCertificatePolicy.normalize(String(message[range.upperBound...].prefix(95)))
    }

    /// Registers with the client key (silently) or asks the TV's user (the prompt, or the PIN
    /// screen when the TV shows one: the PIN given to `pair(pin:)` is sent at once; without
    /// one the connection stays open for it).
    private func register(fingerprint: String?) async throws(DriverError) {
        // A pairing asks the TV anew; the key it had stays until a new one is issued.
        let key = isPairing ? nil : configuration.clientKey
        let timeout = key == nil ? configuration.approvalTimeout : configuration.requestTimeout
        if key == nil, pinToSend == nil { logger.info("asking the TV for permission: choose Accept on the TV") }
        registeringFingerprint = fingerprint
        let answer: LGMessage
        do throws(DriverError) {
            let message = LGRegistration.message(clientKey: key, byPIN: pinToSend != nil)
            do throws(DriverError) {
                answer = try await exchange(id: LGRegistration.id, message, timeout: timeout)
            } catch  where pinShown {
                guard let pin = pinToSend else {
                    emit(.pairingRequired(LGPairingHelp.pinShown))
                    throw error
                }
                answer = try await sendPIN(pin)
            }
        } catch  where pinShown {
            throw error
        } catch {
            try refuseRegistration(error, byPIN: pinToSend != nil, hadKey: key != nil)
        }
        try accept(answer)
    }

    /// A registration that failed: what the user must do, said once, until they pair again.
    func refuseRegistration(_ error: DriverError, byPIN: Bool, hadKey: Bool) throws(DriverError) -> Never {
        drop()
        isPairing = false
        let message: String
        switch error.kind {
        case .unauthorized: message = byPIN ? LGPairingHelp.wrongPIN : LGPairingHelp.denied
        case .timeout where !hadKey: message = LGPairingHelp.unanswered
        case .timeout: message = "the TV did not complete the registration: \(error.message)"
        default: throw error
        }
        blocked = .pairingRequired(message)
        logger.warning("pairing required: \(message)")
        emit(.pairingRequired(message))
        throw DriverError(.unauthorized, message)
    }

    /// `registered`: the key the TV issued and the certificate seen are kept (and emitted).
    func accept(_ answer: LGMessage) throws(DriverError) {
        let key = configuration.clientKey
        let pairing = isPairing
        isPairing = false
        guard answer.type == "registered", let issued = answer.payload["client-key"]?.stringValue,
            LGRegistration.isPlausibleKey(issued)
        else {
            drop()
            throw DriverError(.badResponse, "the TV answered the registration with \(answer)")
        }
        guard registeringFingerprint != nil || !hasSpokenTLS else {
            // In clear, from a TV that has spoken TLS: `open` never gets here, and a key from
            // such a registration never replaces one learned over TLS.
            drop()
            throw DriverError(.rejected, "a registration in clear with a TV once reached over TLS: ignored")
        }
        if let fingerprint = registeringFingerprint {
            let pinned = configuration.pin.map(SamsungCertificatePolicy.normalize)
            if pinned != fingerprint {
                // Only a pairing gets here with a pin (its TLS took the certificate presented).
                if let previous = pairing ? pinBeforePairing : nil,
                    SamsungCertificatePolicy.normalize(previous) != fingerprint
                {
                    logger.warning(
                        "pairing accepted a new TLS certificate from the TV at \(configuration.host) (pinned \(previous.prefix(16))…, now \(fingerprint.prefix(16))…)"
                    )
                }
                configuration.pin = fingerprint
                emit(.certificatePinned(fingerprint))
            }
        }
        pinBeforePairing = nil
        registeringFingerprint = nil
        if issued != key {
            configuration.clientKey = issued
            emit(.token(issued))
        }
        logger.debug("registered with the TV\(isPlain ? " (in clear, port \(configuration.plainPort))" : "")")
    }
}
