import Net

/// The pinned certificate seen from outside a connection: proving a new address (before the
/// bridge moves the TV there) and clearing `certificateChanged` once the pinned certificate
/// is back (someone else had answered on the TV's address, and has gone).
extension SamsungChannel {
    /// The pin, when the TV has one.
    var pinnedCertificate: String? {
        let pin = SamsungCertificatePolicy.normalize(session.configuration.pinnedCertificate ?? "")
        return pin.isEmpty ? nil : pin
    }

    /// Whether `host` presents the certificate `pin` on the TLS port (a handshake only: no
    /// HTTP byte, no token is sent).
    func presentsPin(_ pin: String, host: String) async -> Bool {
        guard
            let fingerprint = try? await Self.certificateFingerprint(
                host: host, port: session.configuration.securePort, timeouts: timeouts)
        else { return false }
        return SamsungCertificatePolicy.evaluate(pinned: pin, seen: Digest.hex(fingerprint)) == .matches
    }

    /// While stopped on a changed certificate: looks again (one TLS handshake, at the poll's
    /// pace), and goes back to normal when the TV presents the pinned certificate.
    func recheckChangedCertificate() async {
        guard case .certificateChanged = session.state, let pin = pinnedCertificate else { return }
        let host = session.configuration.host
        guard await presentsPin(pin, host: host) else { return }
        // The state may have moved on during the handshake (a pairing).
        guard case .certificateChanged = session.state, pinnedCertificate == pin else { return }
        logger.info("the TV presents its pinned certificate again: the remote channel is usable again")
        handle(session.certificateSeenAgain())
    }
}
