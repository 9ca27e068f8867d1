import Net
import Support
import TVModel
import Wire

/// The pairing connection on port 6467, held open from the code on the screen to the code
/// typed back: the TV binds the code to this connection and to the bridge's certificate.
actor AndroidTVPairer {
    private struct Pending {
        let connection: TLSConnection
        /// The certificate the code is bound to: the same one goes into the secret.
        let identity: TLSIdentity
        var frames: AndroidTVFrames
        var session: AndroidTVPairingSession
    }

    let host: String
    let port: UInt16
    let identity: TLSIdentitySource
    let clientName: String
    let timeout: Duration
    private var pending: Pending?

    init(host: String, port: UInt16, identity: TLSIdentitySource, clientName: String, timeout: Duration) {
        self.host = host
        self.port = port
        self.identity = identity
        self.clientName = clientName
        self.timeout = timeout
    }

    /// Asks the TV to pair; returns once it shows its code (the connection stays open).
    func start() async throws(DriverError) {
        close()
        let identity = try await self.identity.forDriver()
        let connection = try await connect(as: identity)
        var state = Pending(
            connection: connection, identity: identity, frames: AndroidTVFrames(connection), session: .init())
        var outgoing = AndroidTVPairingSession.request(clientName: clientName)
        do throws(DriverError) {
            while true {
                try await send(outgoing, on: connection)
                switch state.session.received(try await receive(&state)) {
                case .send(let message): outgoing = message
                case .codeShown:
                    pending = state
                    return
                case .paired: throw DriverError(.badResponse, "the TV acknowledged a secret it was never sent")
                case .failed(let error): throw error
                }
            }
        } catch {
            connection.close()
            throw error
        }
    }

    /// Sends the secret for `code`.
    /// - Returns: the TV's certificate's SHA-256, hex: the pin for the remote port.
    /// - Throws: a mistyped code (its check digits) leaves the connection open for another try;
    ///   any other failure ends it.
    func finish(code: String) async throws(DriverError) -> String {
        guard var state = pending else { throw DriverError(.pinRequired, AndroidTVPairingHelp.noCodeShown) }
        guard let client = state.identity.rsaPublicKey, let server = state.connection.peerRSAPublicKey else {
            close()
            throw DriverError(.badResponse, "the TV's certificate has no RSA key to pair with")
        }
        let secret = try state.session.secret(for: code, client: client, server: server)
        pending = nil
        defer { state.connection.close() }
        try await send(secret, on: state.connection)
        switch state.session.received(try await receive(&state)) {
        case .paired:
            guard let fingerprint = state.connection.peerCertificateSHA256 else {
                throw DriverError(.badResponse, "the TV presented no certificate")
            }
            return Digest.hex(fingerprint)
        case .failed(let error): throw error
        case .send, .codeShown: throw DriverError(.badResponse, "the TV answered the secret out of turn")
        }
    }

    func close() {
        pending?.connection.close()
        pending = nil
    }

    private func connect(as identity: TLSIdentity) async throws(DriverError) -> TLSConnection {
        do {
            let tcp = try await TCPConnection.connect(host: host, port: port, timeout: timeout)
            let context = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: identity))
            return try await TLSConnection.connect(
                over: tcp, context: context, serverName: nil, deadline: LoopClock.current.now + timeout)
        } catch {
            throw DriverError(.unreachable, "cannot open the TV's pairing port \(port): \(error)")
        }
    }

    private func send(_ message: AndroidTVPairingMessage, on connection: TLSConnection) async throws(DriverError) {
        do {
            try await connection.write(
                ProtobufDelimited.encode(message.encoded()), deadline: LoopClock.current.now + timeout)
        } catch {
            throw DriverError(.unreachable, "pairing: cannot write to the TV: \(error)")
        }
    }

    private func receive(_ state: inout Pending) async throws(DriverError) -> AndroidTVPairingMessage {
        let bytes: [UInt8]?
        do {
            bytes = try await state.frames.next(deadline: LoopClock.current.now + timeout)
        } catch let error as NetError where error.kind == .timedOut {
            throw DriverError(.timeout, "the TV did not answer pairing within \(timeout.components.seconds) s")
        } catch {
            throw DriverError(.badResponse, "pairing: \(error)")
        }
        guard let bytes else {
            throw DriverError(.unreachable, "the TV closed the pairing connection")
        }
        do {
            return try AndroidTVPairingMessage(decoding: bytes[...])
        } catch {
            throw DriverError(.badResponse, "pairing: \(error)")
        }
    }
}
