import Net
import Support
import TVModel
import Wire

/// The remote session on port 6466 over TLS with the bridge's certificate: opened on demand,
/// read by one task that feeds `AndroidTVRemoteSession` and sends what it answers, dropped when
/// the TV goes silent for `AndroidTVRemoteSession.idleTimeout`. What the TV pushes is handed to
/// `changed`; a session that ends says why through `lost`.
actor AndroidTVLink {
    struct Configuration: Sendable {
        var host: String
        var port: UInt16
        var identity: TLSIdentitySource
        /// SHA-256 of the TV's certificate, pinned at pairing.
        var pin: [UInt8]?
        var wanted: AndroidTVFeatures
        var connectTimeout: Duration
        /// How long the TV has from the connection to RemoteStart.
        var readyTimeout: Duration
    }

    private(set) var configuration: Configuration
    var connection: TLSConnection?
    var session: AndroidTVRemoteSession?
    /// Bumped at each open: a reader of an older connection stops touching the state.
    private var generation = 0
    private var ready: Wakeup?
    private var failure: DriverError?
    /// Waiting for the TV to push a state (`waitForState`): woken at every change.
    private var watchers: [Wakeup] = []
    /// The open under way: a poll and a command arriving together share it.
    private var opening: Task<Result<Void, DriverError>, Never>?
    /// Set when the TV presents another certificate than the pinned one: nothing connects
    /// until it is paired again (`pinned`), so an impostor is not asked over and over.
    private var blocked: DriverError?
    /// The driver shut down: nothing opens the session again (a poll still in flight would).
    var isShutDown = false
    /// The reconnection after a lost session (`AndroidTVLink+Reconnect.swift`).
    var reconnecting: Task<Void, Never>?
    var reconnectRun = 0
    let reconnectWake = Wakeup()
    let logger: Logger
    let changed: @Sendable (TVSnapshot) -> Void
    let lost: @Sendable (DriverError) -> Void
    /// The TV presented another certificate than the pinned one: (pinned, seen), hex.
    let certificateChanged: @Sendable (String, String) -> Void

    init(
        configuration: Configuration, logger: Logger, changed: @escaping @Sendable (TVSnapshot) -> Void,
        lost: @escaping @Sendable (DriverError) -> Void,
        certificateChanged: @escaping @Sendable (String, String) -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.logger = logger
        self.changed = changed
        self.lost = lost
        self.certificateChanged = certificateChanged
    }

    /// What the TV has pushed on the open session; nil while none is open.
    var snapshot: TVSnapshot? { session.map { $0.snapshot() } }
    var volume: AndroidTVRemoteSession.Volume? { session?.volume }
    var isOn: Bool? { session?.started }
    var device: AndroidTVRemoteMessage.Device? { session?.device }

    func pinned(_ pin: [UInt8]?) {
        configuration.pin = pin
        blocked = nil
        close()
    }

    func updateHost(_ host: String) {
        configuration.host = host
        close()
    }

    /// Opens the session unless it is open and the TV said RemoteStart.
    func open() async throws(DriverError) {
        if connection != nil, session?.ready == true { return }
        if let blocked { throw blocked }
        if isShutDown { throw DriverError(.unreachable, "the driver has shut down") }
        if let opening { return try await opening.value.get() }
        let task = Task { await self.openNow() }
        opening = task
        let result = await task.value
        opening = nil
        try result.get()
    }

    private func openNow() async -> Result<Void, DriverError> {
        do throws(DriverError) {
            try await openSession()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private func openSession() async throws(DriverError) {
        close()
        generation += 1
        let current = generation
        let opened = try await connect()
        guard current == generation else {
            opened.close()
            throw DriverError(.unreachable, "the connection was replaced while it opened")
        }
        connection = opened
        session = AndroidTVRemoteSession(wanted: configuration.wanted, connectedAt: LoopClock.current.now)
        failure = nil
        let wakeup = Wakeup()
        ready = wakeup
        Task { await self.read(opened, generation: current) }
        _ = await wakeup.wait(timeout: configuration.readyTimeout)
        guard current == generation, session?.ready == true else {
            let error =
                failure
                ?? DriverError(
                    .timeout,
                    "the TV opened its remote session but did not start it within \(configuration.readyTimeout.components.seconds) s"
                )
            if current == generation { close() }
            throw error
        }
    }

    /// Sends `messages` in order on the open session (opening it first).
    func send(_ messages: [AndroidTVRemoteMessage]) async throws(DriverError) {
        try await open()
        guard let connection else { throw DriverError(.unreachable, "the remote session closed") }
        do {
            for message in messages {
                try await connection.write(
                    message.framed(), deadline: LoopClock.current.now + configuration.connectTimeout)
            }
        } catch {
            close()
            throw DriverError(.unreachable, "cannot send to the TV: \(error)")
        }
    }

    /// Waits until what the TV pushed satisfies `condition`, for at most `timeout`: after a key
    /// that toggles (POWER, VOLUME_MUTE), the next command must see what it did.
    /// - Returns: whether it did; false when the session closed or the time ran out.
    func waitForState(timeout: Duration, _ condition: @Sendable (AndroidTVRemoteSession) -> Bool) async -> Bool {
        let deadline = LoopClock.current.now + timeout
        while let session {
            if condition(session) { return true }
            let remaining = deadline - LoopClock.current.now
            guard remaining > .zero else { return false }
            let wakeup = Wakeup()
            watchers.append(wakeup)
            _ = await wakeup.wait(timeout: remaining)
        }
        return false
    }

    private func wakeWatchers() {
        for watcher in watchers { watcher.signal() }
        watchers.removeAll()
    }

    /// The text insertion the TV expects now (its last batch edit's counters).
    func insertion(_ text: String) -> AndroidTVRemoteMessage? { session?.insertion(text) }

    func close() {
        generation += 1
        connection?.close()
        connection = nil
        session = nil
        ready?.signal()
        ready = nil
        wakeWatchers()
    }

    private func connect() async throws(DriverError) -> TLSConnection {
        let config = configuration
        let identity = try await config.identity.forDriver()
        do {
            let tcp = try await TCPConnection.connect(
                host: config.host, port: config.port, timeout: config.connectTimeout)
            let context = try TLSContext.client(
                TLSConfiguration(trust: .selfSigned(pinned: config.pin), identity: identity))
            return try await TLSConnection.connect(
                over: tcp, context: context, serverName: nil, deadline: LoopClock.current.now + config.connectTimeout)
        } catch let error as NetError where error.kind == .certificateChanged {
            let pinned = config.pin.map { Digest.hex($0) } ?? ""
            let seen = error.presentedFingerprint ?? ""
            let refusal = Self.driverError(error)
            blocked = refusal
            logger.warning("the TV's certificate changed (pinned \(pinned.prefix(16))…, now \(seen.prefix(16))…)")
            certificateChanged(pinned, seen)
            throw refusal
        } catch let error as NetError {
            throw Self.driverError(error)
        } catch {
            throw DriverError(.unreachable, "cannot connect to the TV: \(error)")
        }
    }

    /// A refused certificate means the pairing is gone (the TV forgot us, or was reset); a
    /// plain failure is only "not now".
    static func driverError(_ error: NetError) -> DriverError {
        switch error.kind {
        case .certificateRefused: DriverError(.unauthorized, AndroidTVPairingHelp.notPaired)
        case .certificateChanged:
            DriverError(.unauthorized, "the TV's TLS certificate changed since pairing; pair again if you trust it")
        case .timedOut: DriverError(.timeout, "the TV did not answer: \(error)")
        default: DriverError(.unreachable, "cannot reach the TV's remote port: \(error)")
        }
    }

    private func read(_ connection: TLSConnection, generation current: Int) async {
        var frames = AndroidTVFrames(connection)
        var ending: DriverError
        while true {
            guard current == generation, let deadline = session?.idleDeadline else { return }
            let bytes: [UInt8]?
            do {
                bytes = try await frames.next(deadline: deadline)
            } catch let error as NetError where error.kind == .timedOut {
                ending = DriverError(
                    .unreachable, "the TV was silent for \(AndroidTVRemoteSession.idleTimeout.components.seconds) s")
                break
            } catch let error as NetError {
                ending = Self.driverError(error)
                break
            } catch {
                ending = DriverError(.badResponse, "the TV sent a message that cannot be read: \(error)")
                break
            }
            guard current == generation else { return }
            guard let bytes else {
                ending = DriverError(.unreachable, "the TV closed the remote session")
                break
            }
            do {
                let message = try AndroidTVRemoteMessage(decoding: bytes[...])
                await handle(message, on: connection)
            } catch {
                logger.warning("ignoring a message from the TV that does not parse", [("error", "\(error)")])
            }
        }
        guard current == generation else { return }
        failure = ending
        close()
        lost(ending)
        if ending.kind != .unauthorized { startReconnecting() }
    }

    private func handle(_ message: AndroidTVRemoteMessage, on connection: TLSConnection) async {
        guard var session else { return }
        let effects = session.received(message, at: LoopClock.current.now)
        self.session = session
        for effect in effects {
            switch effect {
            case .send(let answer):
                try? await connection.write(
                    answer.framed(), deadline: LoopClock.current.now + configuration.connectTimeout)
            case .changed:
                changed(session.snapshot())
                wakeWatchers()
            case .refused(let echoed):
                logger.warning("the TV refused a message", [("message", echoed.map { "\($0)" } ?? "unreadable")])
            case .log(let level, let line):
                logger.log(level, line)
            }
        }
        if session.ready { ready?.signal() }
    }
}
