import Clients
import Net
import Support
import Wire

/// The Frame's art channel: `wss://HOST:8002/api/v2/channels/com.samsung.art-app`, with the
/// same client name, token and pinned certificate as the remote channel (`SamsungChannel`).
///
/// It is opened only for a TV whose certificate is pinned, and only over TLS: the
/// certificate is checked by a bare TLS handshake first (no HTTP byte, no token sent), then
/// the upgrade goes to a connection that accepts only the pinned certificate. There is no
/// cleartext fallback. While the TV answers, the channel is kept open so art-mode changes
/// made with the TV's own remote arrive as events (`art_mode_changed`), not at the next
/// poll; it reopens with a backoff (1 s doubling to 30 s) when it drops.
actor SamsungArtChannel {
    public static let path = "/api/v2/channels/com.samsung.art-app"
    /// The longest wait between reconnection attempts.
    static let maxBackoff: Duration = .seconds(30)

    /// Where and as whom to connect; equal credentials keep the running connection.
    struct Credentials: Equatable, Sendable {
        var host: String
        var port: UInt16
        var clientName: String
        var token: SamsungToken?
        /// The remote channel's pin (hex): the art channel never pins on its own.
        var pin: String

        /// The URL with the token: for the WebSocket client only, never for a log.
        var url: String {
            let query = SamsungRemoteEndpoint.secure(host: host, clientName: clientName, token: token, port: port)
                .query
            return URLParts(scheme: "wss", host: host, port: port, path: SamsungArtChannel.path, query: query)
                .description
        }
    }

    let timeouts: SamsungChannel.Timeouts
    let logger: Logger
    /// Called with every change of the art mode (nil: unknown again, the channel closed).
    let changed: @Sendable (Bool?) -> Void

    /// The art mode as the TV last said; nil while unknown.
    private(set) var artMode: Bool?
    private var credentials: Credentials?
    private var runner: Task<Void, Never>?
    private var connection: WebSocketConnection?
    /// The TV said `ms.channel.connect` or `ms.channel.ready` on the current connection.
    private var admitted = false
    /// A connection attempt is under way (not waiting out a backoff).
    private var attempting = false
    /// The refusal was logged for these credentials (once, not at every reconnection).
    private var refusalLogged = false

    init(timeouts: SamsungChannel.Timeouts, logger: Logger, changed: @escaping @Sendable (Bool?) -> Void) {
        self.timeouts = timeouts
        self.logger = logger
        self.changed = changed
    }

    var isConnected: Bool { connection != nil && admitted }

    /// Keeps the channel open with `credentials` (new credentials reconnect). `now`: a
    /// command needs the channel, so a reconnection waiting out its backoff starts at once.
    func keepConnected(_ credentials: Credentials, now: Bool = false) {
        let waiting = connection == nil && !attempting
        if self.credentials == credentials, runner != nil, !(now && waiting) { return }
        if self.credentials != credentials { refusalLogged = false }
        stop()
        self.credentials = credentials
        runner = Task { [weak self] in await self?.run(credentials) }
    }

    /// Closes the channel and stops reconnecting; the art mode becomes unknown.
    func stop() {
        runner?.cancel()
        runner = nil
        credentials = nil
        drop()
    }

    /// Waits up to `timeout` for the channel to be open and the art mode known.
    func current(timeout: Duration) async -> Bool? {
        await wait(until: timeout) { $0.artMode != nil && $0.isConnected }
        return isConnected ? artMode : nil
    }

    /// Waits until `condition` holds, `timeout` passes, or the caller is cancelled.
    private func wait(until timeout: Duration, _ condition: (isolated SamsungArtChannel) -> Bool) async {
        let deadline = ContinuousClock.now + timeout
        while !condition(self), ContinuousClock.now < deadline {
            do {
                try await EventLoop.sleep(for: .milliseconds(50))
            } catch {
                return  // cancelled: never spin
            }
        }
    }

    /// Asks the TV to show art (`true`) or TV, and waits up to `timeout` for it to say so.
    func set(_ on: Bool, timeout: Duration) async throws(DriverError) {
        let deadline = ContinuousClock.now + timeout
        await wait(until: timeout) { $0.isConnected }
        guard isConnected else {
            throw DriverError(.timeout, "the TV's art channel did not open within \(timeout)")
        }
        if artMode == on { return }
        try await send(.setArtMode(on, id: Self.newID()))
        await wait(until: deadline - ContinuousClock.now) { $0.artMode == on }
        guard artMode == on else {
            throw DriverError(.timeout, "the TV did not confirm art mode \(on ? "on" : "off") within \(timeout)")
        }
    }

    // MARK: connection

    private func run(_ credentials: Credentials) async {
        var backoff: Duration = .seconds(1)
        while !Task.isCancelled {
            if await session(credentials) { backoff = .seconds(1) }
            do {
                try await EventLoop.sleep(for: backoff)
            } catch {
                return
            }
            backoff = min(backoff * 2, Self.maxBackoff)
        }
    }

    /// One connection, until it closes. Returns whether the TV admitted us.
    private func session(_ credentials: Credentials) async -> Bool {
        attempting = true
        defer { attempting = false }
        do {
            let seen = try await SamsungChannel.certificateFingerprint(
                host: credentials.host, port: credentials.port, timeouts: timeouts)
            guard
                SamsungCertificatePolicy.evaluate(pinned: credentials.pin, seen: Digest.hex(seen)) == .matches
            else {
                logger.debug("art channel: the TV's certificate is not the pinned one; not connecting")
                return false
            }
        } catch {
            logger.debug("art channel: TLS check failed")
            return false
        }
        guard let pin = SamsungChannel.bytes(hex: credentials.pin) else { return false }
        let connected: WebSocketClient.Connected
        do {
            connected = try await WebSocketClient.connect(
                url: credentials.url, tls: TLSConfiguration(trust: .selfSigned(pinned: pin)),
                connectTimeout: timeouts.connect, handshakeTimeout: timeouts.handshake,
                configuration: timeouts.webSocket)
        } catch {
            logger.debug("art channel: connecting failed: \(error.message)")
            return false
        }
        guard !Task.isCancelled, self.credentials == credentials else {
            _ = try? await connected.connection.close()
            return false
        }
        connection = connected.connection
        admitted = false
        logger.debug("art channel connected")
        var wasAdmitted = false
        for await message in connected.connection.incoming {
            guard case .text(let text) = message else {
                if case .closed = message { break }
                continue
            }
            await receive(text)
            wasAdmitted = wasAdmitted || admitted
            if Task.isCancelled { break }
        }
        if connection === connected.connection { drop() }
        logger.debug("art channel closed")
        return wasAdmitted
    }

    private func receive(_ text: String) async {
        let event: SamsungArtEvent
        do {
            event = try SamsungArtEvent.decode(Array(text.utf8))
        } catch {
            logger.debug("ignored an art-channel message: \(error.message)")
            return
        }
        switch event {
        case .connected, .ready:
            guard !admitted else { return }
            admitted = true
            try? await send(.getArtMode(id: Self.newID()))
        case .artMode(let on, _):
            guard artMode != on else { return }
            artMode = on
            logger.debug("art mode \(on ? "on" : "off")")
            changed(on)
        case .unauthorized:
            if !refusalLogged {
                refusalLogged = true
                logger.info("the TV refused the art channel; pair again (tv2mqtt pair) if art mode stays unknown")
            }
            drop()
        case .error(let message):
            logger.debug("art channel: \(message)")
        case .other:
            break
        }
    }

    private func send(_ request: SamsungArtRequest) async throws(DriverError) {
        guard let connection else { throw DriverError(.unreachable, "the art channel is closed") }
        do {
            try await connection.send(text: request.text)
        } catch {
            drop()
            throw DriverError(.unreachable, "sending to the art channel failed: \(error.message)")
        }
    }

    /// Forgets the connection (closing it) and the art mode.
    private func drop() {
        if let closing = connection {
            connection = nil
            Task { _ = try? await closing.close() }
        }
        admitted = false
        if artMode != nil {
            artMode = nil
            changed(nil)
        }
    }

    /// A request id in the uuid4 form samsungtvws sends.
    static func newID() -> String {
        var bytes = SecureRandom.bytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Digest.hex(bytes)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }.joined(separator: "-")
    }
}
