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
/// poll; it reopens with a backoff (1 s doubling to 30 s) when it drops. Only the TV's own
/// messages count (`SamsungArtChannel+Receive.swift`), and what they mean is the ledger's
/// call (`SamsungArtLedger`).
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
            let query = SamsungRemoteEndpoint.secure(
                host: host, clientName: clientName, token: token, port: port
            )
            .query
            return URLParts(
                scheme: "wss", host: host, port: port, path: SamsungArtChannel.path, query: query
            )
            .description
        }
    }

    /// How a connection ended.
    enum Ending {
        /// The TV never let us in (or the connection failed): the art mode is unknown.
        case refused
        /// The TV closed an admitted connection: reconnect soon.
        case closed
        /// We closed it because it stopped answering or contradicted itself: reconnect with a
        /// growing backoff, keeping the art mode last believed.
        case reopened
    }

    let timeouts: SamsungChannel.Timeouts
    let logger: Logger
    /// Called with every change of the art mode (nil: unknown again, the channel closed).
    let changed: @Sendable (Bool?) -> Void

    /// The art mode as the TV last said; nil while unknown.
    var artMode: Bool? { ledger.artMode }
    var ledger = SamsungArtLedger()
    private var credentials: Credentials?
    private var runner: Task<Void, Never>?
    /// The driver shut down: nothing opens the channel again (a poll still in flight would).
    private var isShutDown = false
    /// The connection and its reader; the set requests waiting for the TV's word, by request
    /// id (the ledger recognises the reply, so the channel answers them itself).
    let rpc = WebSocketRPC<String, Result<Void, DriverError>>()
    /// The TV said `ms.channel.connect` or `ms.channel.ready` on the current connection.
    var admitted = false
    /// Who speaks for the TV on this connection: "host" and the ids it listed as the host.
    var hostIDs: Set<String> = ["host"]
    /// A connection attempt is under way (not waiting out a backoff).
    private var attempting = false
    /// The current connection was closed by us to reopen it.
    var reopening = false
    /// The TV's model, for the API-version log line.
    var model = "unknown model"
    /// The last art API version logged at info (later connections log a change only).
    var loggedVersion: String?
    /// Log lines already written once for these credentials (refusal, reopening, removal).
    var loggedOnce: Set<String> = []
    private var loggedFor: Credentials?
    /// Unknown event names already logged (at debug, once each).
    var seenEvents: Set<String> = []
    /// Signalled whenever a message was taken in or the connection dropped: what `wait` looks at
    /// (open, admitted, the art mode) may have changed.
    let changes = Wakeup()
    /// Which status-request timer is current (the loop timer armed by `armAnswerTimer`).
    var answerTimerGeneration = 0

    init(
        timeouts: SamsungChannel.Timeouts, logger: Logger, changed: @escaping @Sendable (Bool?) -> Void
    ) {
        self.timeouts = timeouts
        self.logger = logger
        self.changed = changed
    }

    var isConnected: Bool { rpc.isConnected && admitted }
    /// Connected, or trying to be.
    var isKeepingConnected: Bool { runner != nil }
    /// The channel is open and says art shows.
    var showsArt: Bool { isConnected && artMode == true }
    /// How long a request may wait for its answer.
    var answerTimeout: Duration { timeouts.handshake }

    /// Keeps the channel open with `credentials` (new credentials reconnect). `now`: a
    /// command needs the channel, so a reconnection waiting out its backoff starts at once.
    func keepConnected(_ credentials: Credentials, model: String? = nil, now: Bool = false) {
        guard !isShutDown else { return }
        if let model { self.model = model }
        let waiting = !rpc.isConnected && !attempting
        if self.credentials == credentials, runner != nil, !(now && waiting) { return }
        // Logged once per TV and pairing, not again each time the TV comes back.
        if loggedFor != credentials { loggedOnce = [] }
        loggedFor = credentials
        stop()
        self.credentials = credentials
        runner = Task { [weak self] in await self?.run(credentials) }
    }

    /// Closes the channel and stops reconnecting; the art mode becomes unknown.
    func stop() {
        runner?.cancel()
        runner = nil
        credentials = nil
        drop(forget: true)
    }

    /// Closes the channel for good: the driver is shutting down.
    func shutdown() {
        isShutDown = true
        stop()
    }

    /// Asks the TV for its art mode (at each poll) unless a status request is waiting already.
    func refresh() async {
        guard isConnected, !ledger.statusPending else { return }
        try? await send(.getArtMode(id: Self.newID()))
    }

    /// Waits up to `timeout` for the channel to be open and the art mode known.
    func current(timeout: Duration) async -> Bool? {
        await wait(until: timeout) { $0.artMode != nil && $0.isConnected }
        return isConnected ? artMode : nil
    }

    /// Waits until `condition` holds, `timeout` passes, or the caller is cancelled; looked at
    /// again whenever the channel changes (`changes`), not at a poll's tick.
    private func wait(until timeout: Duration, _ condition: (isolated SamsungArtChannel) -> Bool)
        async
    {
        let deadline = LoopClock.current.now + timeout
        while !condition(self), !Task.isCancelled {
            let left = deadline - LoopClock.current.now
            guard left > .zero else { return }
            _ = await changes.wait(timeout: left)
        }
    }

    /// Asks the TV to show art (`true`) or TV, and waits up to `timeout` for the TV to accept
    /// that very request (its reply carries our request id), then briefly for the new mode.
    func set(_ on: Bool, timeout: Duration) async throws(DriverError) {
        let deadline = LoopClock.current.now + timeout
        await wait(until: timeout) { $0.isConnected }
        guard isConnected else {
            throw DriverError(.timeout, "the TV's art channel did not open within \(timeout)")
        }
        if artMode == on { return }
        let request = SamsungArtRequest.setArtMode(on, id: Self.newID())
        let ticket: WebSocketRPC<String, Result<Void, DriverError>>.Ticket
        do {
            ticket = try rpc.reserve(request.id, timeout: deadline - LoopClock.current.now)
        } catch {
            throw DriverError(.rejected, "\(error)")
        }
        defer { rpc.abandon(ticket) }
        try await send(request)
        let confirmation: Result<Void, DriverError>
        do {
            confirmation = try await rpc.reply(to: ticket)
        } catch {
            throw DriverError(.timeout, "the TV did not confirm art mode \(on ? "on" : "off") within \(timeout)")
        }
        try confirmation.get()
        await refresh()
        await wait(until: min(deadline - LoopClock.current.now, .seconds(2))) { $0.artMode == on }
    }

    // MARK: connection

    private func run(_ credentials: Credentials) async {
        var backoff: Duration = .seconds(1)
        while !Task.isCancelled {
            switch await session(credentials) {
            case .closed: backoff = .seconds(1)
            case .reopened: break
            case .refused: drop(forget: true)
            }
            do {
                try await EventLoop.sleep(for: backoff)  // paced: the reconnect backoff
            } catch {
                return
            }
            backoff = min(backoff * 2, Self.maxBackoff)
        }
    }

    /// One connection, until it closes.
    private func session(_ credentials: Credentials) async -> Ending {
        attempting = true
        defer { attempting = false }
        do {
            let seen = try await SamsungChannel.certificateFingerprint(
                host: credentials.host, port: credentials.port, timeouts: timeouts)
            guard
                SamsungCertificatePolicy.evaluate(pinned: credentials.pin, seen: Digest.hex(seen))
                    == .matches
            else {
                logger.debug("art channel: the TV's certificate is not the pinned one; not connecting")
                return .refused
            }
        } catch {
            logger.debug("art channel: TLS check failed")
            return .refused
        }
        guard let pin = SamsungChannel.bytes(hex: credentials.pin) else { return .refused }
        let connected: WebSocketClient.Connected
        do {
            connected = try await WebSocketClient.connect(
                url: credentials.url, tls: TLSConfiguration(trust: .selfSigned(pinned: pin)),
                connectTimeout: timeouts.connect, handshakeTimeout: timeouts.handshake,
                configuration: timeouts.webSocket)
        } catch {
            logger.debug("art channel: connecting failed: \(error.message)")
            return .refused
        }
        guard !Task.isCancelled, self.credentials == credentials else {
            _ = try? await connected.connection.close()
            return .refused
        }
        let generation = rpc.attach(connected.connection)
        admitted = false
        reopening = false
        hostIDs = ["host"]
        ledger = SamsungArtLedger(artMode: ledger.artMode)
        logger.debug("art channel connected")
        var wasAdmitted = false
        let ending = await rpc.read(generation) { text in
            await receive(text)
            changes.signal()
            wasAdmitted = wasAdmitted || admitted
        }
        let reopened = reopening
        // Still the current connection when it ended (the reader let it go): forget it.
        if ending != nil { drop(forget: !reopened) }
        logger.debug("art channel closed")
        return reopened ? .reopened : wasAdmitted ? .closed : .refused
    }

    func send(_ request: SamsungArtRequest) async throws(DriverError) {
        guard let connection = rpc.connection else { throw DriverError(.unreachable, "the art channel is closed") }
        ledger.sent(request, now: LoopClock.current.now)
        if case .getArtMode = request { armAnswerTimer() }
        do {
            try await connection.send(text: request.text)
        } catch {
            drop(forget: true)
            throw DriverError(.unreachable, "sending to the art channel failed: \(error.message)")
        }
    }

    /// Forgets the connection (closing it); `forget`: and the art mode (kept when we reopen a
    /// channel that stopped answering, so the state does not flicker while it reconnects).
    func drop(forget: Bool) {
        answerTimerGeneration += 1
        if let closing = rpc.detach("the art channel closed") { Task { _ = try? await closing.close() } }
        admitted = false
        changes.signal()
        guard forget, ledger.artMode != nil else { return }
        ledger = SamsungArtLedger()
        changed(nil)
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
