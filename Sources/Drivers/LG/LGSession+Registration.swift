import Net
import Support
import Wire

/// Opening and registering. The TLS port is tried first; the port in clear only when the TV
/// refuses connections on 3001 and has never spoken TLS (`hasSpokenTLS`: a TV paired over TLS
/// is never spoken to in clear again, a pairing included: the client key would cross the
/// network readable).
extension LGSession {
    /// Why the TLS port could not be used.
    enum SecureFailure: Equatable, Sendable {
        /// Nothing listens on 3001.
        case refused(String)
        /// The TLS layer's pin-mismatch message (it names the certificate presented).
        case certificateChanged(String)
        case other(timedOut: Bool, String)
    }

    /// What follows a failed TLS connect: the port in clear, or the caller's error.
    enum SecureFallback: Equatable, Sendable {
        case plain
        case fail(DriverError)
    }

    /// How a registration goes out: its message (with the key, or asking for the prompt or the
    /// PIN screen) and how long the TV may take.
    struct Registration: Equatable, Sendable {
        let message: String
        let timeout: Duration
        let hadKey: Bool
        let byPIN: Bool
    }

    mutating func secureFailed(_ failure: SecureFailure) -> (SecureFallback, [LGSessionAction]) {
        switch failure {
        case .refused where !hasSpokenTLS:
            guard configuration.allowCleartext else {
                // Said once, not at every retry: nothing changes until the user does.
                let said = cleartextRefusalSaid
                cleartextRefusalSaid = true
                return (
                    .fail(DriverError(.unauthorized, LGPairingHelp.cleartextNotAllowed)),
                    said ? [] : [.emit(.pairingRequired(LGPairingHelp.cleartextNotAllowed))]
                )
            }
            return (
                .plain,
                [
                    .warn(
                        "reaching the TV in clear on port \(configuration.plainPort) (allow_cleartext): it refused TLS on \(configuration.securePort), so its client key crosses the network readable"
                    )
                ]
            )
        case .certificateChanged(let message):
            let seen = Self.presentedFingerprint(message)
            let pinned = SamsungCertificatePolicy.normalize(configuration.pin ?? "")
            let blocked = Blocked.certificateChanged(pinned: pinned, seen: seen)
            self.blocked = blocked
            return (
                .fail(Self.error(blocked)),
                [
                    .warn("the TV's certificate changed (pinned \(pinned.prefix(16))…, now \(seen.prefix(16))…)"),
                    .emit(.certificateChanged(pinned: pinned, seen: seen)),
                ]
            )
        case .refused(let message), .other(timedOut: false, let message):
            return (.fail(DriverError(.unreachable, "cannot connect to the TV: \(message)")), [])
        case .other(timedOut: true, let message):
            return (.fail(DriverError(.timeout, "cannot connect to the TV: \(message)")), [])
        }
    }

    /// The fingerprint the TLS layer's pin-mismatch message names, normalised.
    static func presentedFingerprint(_ message: String) -> String {
        NetError.presentedFingerprint(in: message) ?? ""
    }

    /// Registers with the client key (silently) or asks the TV's user (the prompt, or the PIN
    /// screen when a PIN waits to be sent). A pairing asks the TV anew; the key it had stays
    /// until a new one is issued.
    mutating func register(fingerprint: String?) -> (Registration, [LGSessionAction]) {
        let key = isPairing ? nil : configuration.clientKey
        let byPIN = pinToSend != nil
        registeringFingerprint = fingerprint
        let registration = Registration(
            message: LGRegistration.message(clientKey: key, byPIN: byPIN),
            timeout: key == nil ? configuration.approvalTimeout : configuration.requestTimeout,
            hadKey: key != nil, byPIN: byPIN)
        guard key == nil, !byPIN else { return (registration, []) }
        return (registration, [.info("asking the TV for permission: choose Accept on the TV")])
    }

    /// The registration's `response`: the prompt or the PIN screen is on the TV. On the PIN
    /// screen the registration's wait ends with `pinRequired` (the PIN goes next).
    mutating func registrationShown(pairingType: String?) -> (endWait: DriverError?, [LGSessionAction]) {
        guard pairingType == "PIN" else {
            // The prompt is on screen; `registered` or `error` follows.
            return (nil, [.info("the TV shows its pairing prompt: choose Accept on the TV")])
        }
        pinShown = true
        return (
            DriverError(.pinRequired, LGPairingHelp.pinShown),
            pinToSend == nil ? [.info(LGPairingHelp.pinShown)] : []
        )
    }

    /// The PIN screen is up after the registration's wait: the PIN to send now, or nil (the
    /// user is told, and the connection stays open for `pair(pin:)`).
    mutating func pinScreen() -> (pin: String?, [LGSessionAction]) {
        guard let pin = pinToSend else { return (nil, [.emit(.pairingRequired(LGPairingHelp.pinShown))]) }
        pinShown = false
        return (pin, [])
    }

    /// The PIN goes out (`pairing/setPin`): the screen is no longer waiting for it.
    mutating func sendingPIN() { pinShown = false }

    /// A registration that failed: what the user must do, said once, until they pair again.
    mutating func registrationFailed(_ error: DriverError, byPIN: Bool, hadKey: Bool) -> (
        DriverError, [LGSessionAction]
    ) {
        isPairing = false
        let message: String
        switch error.kind {
        case .unauthorized: message = byPIN ? LGPairingHelp.wrongPIN : LGPairingHelp.denied
        case .timeout where !hadKey: message = LGPairingHelp.unanswered
        case .timeout: message = "the TV did not complete the registration: \(error.message)"
        default: return (error, [.close])
        }
        blocked = .pairingRequired(message)
        return (
            DriverError(.unauthorized, message),
            [.close, .warn("pairing required: \(message)"), .emit(.pairingRequired(message))]
        )
    }

    /// `registered`: the key the TV issued and the certificate seen are kept (and emitted);
    /// anything else closes the connection with the error.
    mutating func registered(_ answer: LGMessage) -> (DriverError?, [LGSessionAction]) {
        let key = configuration.clientKey
        let pairing = isPairing
        isPairing = false
        guard answer.type == "registered", let issued = answer.payload["client-key"]?.stringValue,
            LGRegistration.isPlausibleKey(issued)
        else {
            return (DriverError(.badResponse, "the TV answered the registration with \(answer)"), [.close])
        }
        guard registeringFingerprint != nil || !hasSpokenTLS else {
            // In clear, from a TV that has spoken TLS: `open` never gets here, and a key from
            // such a registration never replaces one learned over TLS.
            return (
                DriverError(.rejected, "a registration in clear with a TV once reached over TLS: ignored"), [.close]
            )
        }
        var actions: [LGSessionAction] = []
        if let fingerprint = registeringFingerprint,
            configuration.pin.map(SamsungCertificatePolicy.normalize) != fingerprint
        {
            // Only a pairing gets here with a pin (its TLS took the certificate presented).
            if let previous = pairing ? pinBeforePairing : nil,
                SamsungCertificatePolicy.normalize(previous) != fingerprint
            {
                actions.append(
                    .warn(
                        "pairing accepted a new TLS certificate from the TV at \(configuration.host) (pinned \(previous.prefix(16))…, now \(fingerprint.prefix(16))…)"
                    ))
            }
            configuration.pin = fingerprint
            actions.append(.emit(.certificatePinned(fingerprint)))
        }
        pinBeforePairing = nil
        registeringFingerprint = nil
        if issued != key {
            configuration.clientKey = issued
            actions.append(.emit(.token(issued)))
        }
        actions.append(
            .debug("registered with the TV\(isPlain ? " (in clear, port \(configuration.plainPort))" : "")"))
        return (nil, actions)
    }
}
