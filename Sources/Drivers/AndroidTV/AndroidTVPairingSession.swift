import Net

/// One pairing on port 6467, as a pure state machine: the connection sends what it returns
/// and feeds it what the TV answers. The code the TV shows is bound to this connection and to
/// the client certificate, so the connection stays open from "code shown" to the code, and a
/// mistyped code (caught by its checksum, `AndroidTVPairingCode`) leaves it open for another
/// try.
///
/// ```
/// request ─ack─▶ options ─options─▶ configuration ─ack─▶ code shown ─code─▶ secret ─ack─▶ paired
///   any status but 200, or a message out of turn ──▶ failed
/// ```
struct AndroidTVPairingSession: Sendable {
    /// The service the TV's remote protocol pairs for: the name every client sends.
    static let serviceName = "atvremote"

    enum Phase: Equatable, Sendable {
        case requested, optionsSent, configurationSent, codeShown, secretSent, paired
        case failed(DriverError)
    }

    /// What the connection does next.
    enum Step: Equatable, Sendable {
        case send(AndroidTVPairingMessage)
        /// The TV shows its code: ask the user, keep the connection.
        case codeShown
        case paired
        case failed(DriverError)
    }

    private(set) var phase: Phase = .requested

    /// The first message, naming the bridge on the TV's screen.
    static func request(clientName: String) -> AndroidTVPairingMessage {
        AndroidTVPairingMessage(.pairingRequest(serviceName: serviceName, clientName: clientName))
    }

    mutating func received(_ message: AndroidTVPairingMessage) -> Step {
        guard message.status == AndroidTVPairingMessage.statusOK else {
            return fail(
                message.status == AndroidTVPairingMessage.statusBadSecret
                    ? DriverError(
                        .unauthorized,
                        "the TV refused the code (status 402); pair again and type the new code the TV shows")
                    : DriverError(.rejected, "the TV refused pairing with status \(message.status)"))
        }
        switch (phase, message.body) {
        case (.requested, .pairingRequestAck):
            phase = .optionsSent
            return .send(
                AndroidTVPairingMessage(
                    .options(
                        inputEncodings: [.sixHexDigits], outputEncodings: [],
                        preferredRole: AndroidTVPairingMessage.roleInput)))
        case (.optionsSent, .options):
            phase = .configurationSent
            return .send(
                AndroidTVPairingMessage(.configuration(.sixHexDigits, clientRole: AndroidTVPairingMessage.roleInput)))
        case (.configurationSent, .configurationAck):
            phase = .codeShown
            return .codeShown
        case (.secretSent, .secretAck):
            phase = .paired
            return .paired
        default:
            return fail(DriverError(.badResponse, "the TV answered pairing out of turn (\(message.body.name))"))
        }
    }

    /// The secret for the code the user typed.
    /// - Throws: `unauthorized` for a code of the wrong form or checksum, the session still
    ///   waiting for the right one; `badResponse` when the TV shows no code.
    mutating func secret(
        for code: String, client: RSAPublicKey, server: RSAPublicKey
    ) throws(DriverError) -> AndroidTVPairingMessage {
        guard phase == .codeShown else {
            throw DriverError(.badResponse, "the TV shows no pairing code on this connection")
        }
        let secret = try AndroidTVPairingCode(code).secret(client: client, server: server)
        phase = .secretSent
        return AndroidTVPairingMessage(.secret(secret))
    }

    private mutating func fail(_ error: DriverError) -> Step {
        phase = .failed(error)
        return .failed(error)
    }
}
