import Clients
import Net
import Wire

/// Connecting, sending and reading.
///
/// The token and the certificate: the session must see the TV's certificate before the
/// upgrade request (which carries the token in its URL) is sent, but `WebSocketClient` runs
/// TLS and the upgrade in one call. So a secure connection is opened in two steps:
///
/// 1. a TLS handshake alone (no HTTP byte is sent) to read the certificate's fingerprint,
///    handed to `session.tlsEstablished` — which pins it on first use, or stops with
///    `certificateChanged` when it differs from the pin;
/// 2. only when the session goes on, the real connection with `.selfSigned(pinned:)` set to
///    the (now always present) pin, so the upgrade — and the token — can only go to that same
///    certificate: a TV swapped between the two steps fails the TLS handshake instead.
///
/// The second handshake costs a few milliseconds per connection, and the connection is kept
/// open, so it is paid once per (re)connect.
extension SamsungChannel {
    func perform(_ work: Work) async {
        switch work {
        case .open(let endpoint):
            sendFailure = nil
            await open(endpoint)
        case .send(let message):
            guard sendFailure == nil else { return }
            let generation = rpc.generation
            guard let connection = rpc.connection else {
                sendFailure = DriverError(.unreachable, "the TV closed the remote channel")
                return
            }
            logger.debug("send \(message.summary)")
            do {
                try await connection.send(text: message.text)
                noteSent(message)
            } catch {
                sendFailure = DriverError(.unreachable, "sending to the TV failed: \(error.message)")
                guard generation == rpc.generation else { return }
                rpc.detach()
                connectionEnded()
            }
        case .pause(let duration):
            guard sendFailure == nil else { return }
            try? await EventLoop.sleep(for: duration)
        case .completed(let id):
            finish(id, sendFailure.map { .failure($0) } ?? .success(()))
        }
    }

    private func stillConnecting(_ endpoint: SamsungRemoteEndpoint) -> Bool {
        session.state == .connecting(endpoint)
    }

    private func open(_ endpoint: SamsungRemoteEndpoint) async {
        guard stillConnecting(endpoint) else { return }
        logger.debug("connecting to \(endpoint)")
        var tls: TLSConfiguration?
        if endpoint.secure {
            let fingerprint: [UInt8]
            do {
                fingerprint = try await Self.certificateFingerprint(
                    host: endpoint.host, port: endpoint.port, timeouts: timeouts)
            } catch {
                handle(session.connectFailed(error.failure, now: LoopClock.current.now))
                return
            }
            handle(
                session.tlsEstablished(
                    certificateFingerprint: Digest.hex(fingerprint), now: LoopClock.current.now))
            // A changed certificate stopped the session: no upgrade, so no token goes out.
            guard stillConnecting(endpoint) else { return }
            guard let pin = session.configuration.pinnedCertificate, let pinBytes = Self.bytes(hex: pin)
            else {
                handle(
                    session.connectFailed(
                        .unreachable("the pinned certificate is unreadable"), now: LoopClock.current.now))
                return
            }
            tls = TLSConfiguration(trust: .selfSigned(pinned: pinBytes))
        }
        let connected: WebSocketClient.Connected
        do {
            connected = try await WebSocketClient.connect(
                url: endpoint.url.description, tls: tls, connectTimeout: timeouts.connect,
                handshakeTimeout: timeouts.handshake, configuration: timeouts.webSocket)
        } catch {
            guard stillConnecting(endpoint) else { return }
            handle(session.connectFailed(Self.failure(error), now: LoopClock.current.now))
            return
        }
        guard stillConnecting(endpoint) else {
            _ = try? await connected.connection.close()
            return
        }
        let current = rpc.attach(connected.connection)
        Task { await self.read(current) }
        logger.debug("connected to \(endpoint)")
        handle(session.opened(now: LoopClock.current.now))
    }

    /// The connection's one reader, on this actor: its end reaches the session at once.
    private func read(_ generation: Int) async {
        guard await rpc.read(generation, { receive($0) }) != nil else { return }
        connectionEnded()
    }

    private func receive(_ text: String) {
        let event: SamsungEvent
        do {
            event = try SamsungEvent.decode(Array(text.utf8))
        } catch {
            logger.debug("ignored a remote-channel message: \(error.message)")
            return
        }
        handle(session.received(event, now: LoopClock.current.now))
    }

    /// The current connection ended (the reader saw it, or a send failed): the session hears it.
    private func connectionEnded() {
        logger.debug("the remote channel closed")
        handle(session.closed(now: LoopClock.current.now))
    }

    struct ConnectFailed: Error {
        let failure: SamsungConnectFailure
    }

    /// Step 1: a TLS handshake without the upgrade, for the certificate's SHA-256.
    static func certificateFingerprint(host: String, port: UInt16, timeouts: Timeouts)
        async throws(ConnectFailed) -> [UInt8]
    {
        let tcp: TCPConnection
        do {
            tcp = try await TCPConnection.connect(host: host, port: port, timeout: timeouts.connect)
        } catch {
            throw ConnectFailed(failure: failure(connecting: error))
        }
        do {
            let context = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil)))
            let secure = try await TLSConnection.connect(
                over: tcp, context: context, serverName: host,
                deadline: LoopClock.current.now + timeouts.handshake)
            defer { secure.close() }
            guard let fingerprint = secure.peerCertificateSHA256 else {
                throw NetError(.tls, "TLS handshake", "the TV presented no certificate")
            }
            return fingerprint
        } catch let error as NetError where error.kind == .timedOut {
            tcp.close()
            throw ConnectFailed(failure: .timedOut)
        } catch {
            tcp.close()
            throw ConnectFailed(failure: .tlsHandshakeFailed((error as? NetError)?.detail ?? "\(error)"))
        }
    }

    static func failure(connecting error: any Error) -> SamsungConnectFailure {
        guard let error = error as? NetError else { return .unreachable("\(error)") }
        switch error.kind {
        case .refused: return .refused
        case .timedOut: return .timedOut
        default: return .unreachable(error.detail)
        }
    }

    /// A WebSocket client error as the session reads it (its messages never hold the token).
    static func failure(_ error: WebSocketError) -> SamsungConnectFailure {
        switch error.kind {
        case .connect:
            return error.message.contains("refused") ? .refused : .unreachable(error.message)
        case .timeout: return .timedOut
        case .tls: return .tlsHandshakeFailed(error.message)
        // The certificate changed between the check and the upgrade: not a reason to fall
        // back to 8001, and nothing was sent to it.
        case .certificateChanged: return .unreachable(error.message)
        case .handshake: return error.status.map { .upgradeRejected($0) } ?? .unreachable(error.message)
        case .invalidArgument, .closed: return .unreachable(error.message)
        }
    }

    /// A pin's bytes (`SamsungCertificatePolicy` keeps pins as lowercase hex).
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(SamsungCertificatePolicy.normalize(hex).utf8)
        guard !digits.isEmpty else { return nil }
        return HexDigits.bytes(digits)
    }
}
