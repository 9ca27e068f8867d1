import Clients
import Net
import Support

/// The remote channel of one Samsung TV: drives a `SamsungSession` with what happens on the
/// WebSocket and carries out the actions it returns.
///
/// The I/O actions go through one serial queue (`OnDemandQueue`): opening the connection,
/// sending frames, pausing between a held key's Press and Release, strictly in order, so a
/// request's frames never interleave with another's. A `send` that finds the queue idle does its
/// own I/O on its own task, so a key goes from the driver to the socket without a hand-over;
/// otherwise a task carries the queue while there is work. A *reader* per connection hands every
/// frame to the session, and a loop timer wakes the session at its pairing deadline. A request's
/// outcome comes from the session's `.completed` / `.failed` actions, exactly once.
actor SamsungChannel {
    enum Work: Sendable {
        case open(SamsungRemoteEndpoint)
        case send(SamsungRemoteMessage)
        case pause(Duration)
        case completed(UInt64)
    }

    struct Timeouts: Sendable {
        var connect: Duration
        var handshake: Duration
        /// Ping after this long without a message from the TV (`SamsungDriverOptions.keepAlive`).
        var keepAlive: Duration
        /// Drop the channel when nothing arrives within this after a ping.
        var keepAliveTimeout: Duration

        /// The remote channel's WebSocket: pinged, and closed when the TV stops answering.
        var webSocket: WebSocketConfiguration {
            WebSocketConfiguration(keepAliveInterval: keepAlive, keepAliveTimeout: keepAliveTimeout)
        }
    }

    var session: SamsungSession
    let timeouts: Timeouts
    let logger: Logger
    /// Reports what the bridge must hear about (token, pin, pairing); never blocks.
    let emit: @Sendable (DriverEvent) -> Void

    /// The connection, its reader and generation, and the requests `send` waits for, by id: a
    /// request's outcome comes from the session's actions, so the channel answers them itself.
    let rpc = WebSocketRPC<UInt64, Result<Void, DriverError>>()
    var nextID: UInt64 = 1
    var appListWaiters: [UInt64: CheckedContinuation<[SamsungInstalledApp]?, Never>] = [:]
    /// App-list requests by their request id → the waiter, so a failed request answers at once.
    var appListRequests: [UInt64: UInt64] = [:]
    /// Requests sent to the connection since it opened that failed to go out: the requests
    /// whose `.completed` comes after such a failure failed too.
    var sendFailure: DriverError?
    /// `ed.apps.icon` requests waiting for their reply, by icon path (`SamsungChannel+AppIcon.swift`).
    var iconWaiters: [String: [CheckedContinuation<String?, Never>]] = [:]
    /// The key a `Press` holds down until its `Release` went out (`SamsungChannel+KeyHold.swift`).
    var heldKey: String?
    /// The pin an explicit pairing set aside: a different certificate pinned by that pairing
    /// is a certificate change the user accepted, and is logged as one.
    var pinBeforePairing: String?
    private var work = OnDemandQueue<Work>()
    /// The deadline the session's timer is armed for, and which arming is current.
    private var tickerDeadline: ContinuousClock.Instant?
    private var tickerGeneration = 0
    private var isShutDown = false

    init(
        configuration: SamsungSession.Configuration, timeouts: Timeouts, logger: Logger,
        emit: @escaping @Sendable (DriverEvent) -> Void
    ) {
        session = SamsungSession(configuration: configuration)
        self.timeouts = timeouts
        self.logger = logger
        self.emit = emit
    }

    // MARK: requests

    /// Sends `steps` (connecting, and waiting for the TV's approval, when needed); returns
    /// once every step was handed to the connection.
    func send(_ steps: [SamsungRemoteStep]) async throws(DriverError) {
        guard !isShutDown else { throw DriverError(.unreachable, "the driver is shut down") }
        Trace.mark(.driverSend)
        let ticket: WebSocketRPC<UInt64, Result<Void, DriverError>>.Ticket
        do {
            ticket = try rpc.reserve(takeID(), timeout: nil)
        } catch {
            throw DriverError(.rejected, "\(error)")
        }
        if handle(session.submit(steps, id: ticket.id, now: LoopClock.current.now), callerCarries: true) {
            await carry(until: ticket)
        }
        let outcome: Result<Void, DriverError>
        do {
            outcome = try await rpc.reply(to: ticket)
        } catch {
            throw DriverError(.unreachable, "\(error)")
        }
        try outcome.get()
    }

    /// Asks for the installed apps when the channel is open (or may be opened without a
    /// prompt: `connect`), and waits `timeout` for the answer; `nil` when there is none.
    func installedApps(connect: Bool, timeout: Duration) async -> [SamsungInstalledApp]? {
        guard !isShutDown, session.isReady || connect else { return nil }
        let id = takeID()
        let steps: [SamsungRemoteStep] = [.message(.installedApps)]
        return await withCheckedContinuation { continuation in
            appListWaiters[id] = continuation
            LoopClock.current.startTask(at: LoopClock.current.now + timeout) { [weak self] in
                await self?.answerAppList(id, nil)
            }
            // The request's own outcome is not awaited: the answer (or the timeout) decides.
            let requestID = takeID()
            appListRequests[requestID] = id
            handle(session.submit(steps, id: requestID, now: LoopClock.current.now))
        }
    }

    /// Explicit pairing: forgets the token (the TV prompts, or re-issues one), accepts the
    /// certificate the TV has now, reconnects, and waits for the verdict.
    func pair() async throws(DriverError) {
        guard !isShutDown else { throw DriverError(.unreachable, "the driver is shut down") }
        if session.isConnected {
            dropConnection()
            handle(session.closed(now: LoopClock.current.now))
        }
        session.configuration.token = nil
        pinBeforePairing = pinnedCertificate
        handle(session.pair(now: LoopClock.current.now, acceptNewCertificate: true))
        // An empty request completes when the TV approves and fails with the session's
        // verdict (denied, unanswered, unreachable) otherwise.
        try await send([])
    }

    var pairingRequired: Bool {
        if case .pairingRequired = session.state { return true }
        return false
    }

    var hasToken: Bool { session.configuration.token != nil }
    var isReady: Bool { session.isReady }
    var plainOnly: Bool { session.plainOnly }

    func updateHost(_ host: String) {
        session.updateHost(host)
    }

    func adoptSecrets(token: SamsungToken?, certificatePin: String?) {
        session.adoptSecrets(token: token, pinnedCertificate: certificatePin)
    }

    func shutdown() {
        isShutDown = true
        dropConnection()
        tickerGeneration += 1
        work.cancelAll()
        rpc.answerAll(.failure(DriverError(.unreachable, "the driver is shut down")))
        for (_, waiter) in appListWaiters { waiter.resume(returning: nil) }
        appListWaiters.removeAll()
        answerIcons(nil)
    }

    // MARK: actions

    private func takeID() -> UInt64 {
        defer { nextID &+= 1 }
        return nextID
    }

    /// Carries out the session's actions: I/O goes to the queue in order; events, failures
    /// and closing happen at once. True when the caller asked to carry the queue and must now
    /// do so (nobody else was).
    @discardableResult
    func handle(_ actions: [SamsungSessionAction], callerCarries: Bool = false) -> Bool {
        var mustCarry = false
        for action in actions {
            logger.trace("session: \(action)")
            if let item = Work(action) {
                if enqueue(item, callerCarries: callerCarries) { mustCarry = true }
                continue
            }
            switch action {
            case .open, .send, .pause, .completed: break
            case .failed(let id, let error): finish(id, .failure(error))
            case .persistToken(let token): emit(.token(token.value))
            case .pinCertificate(let pin):
                let previous = pinBeforePairing
                pinBeforePairing = nil
                if let previous, previous != SamsungCertificatePolicy.normalize(pin) {
                    let host = session.configuration.host
                    logger.warning(
                        "pairing accepted a new TLS certificate from the TV at \(host) (pinned \(previous.prefix(16))…, now \(pin.prefix(16))…)"
                    )
                }
                emit(.certificatePinned(pin))
            case .certificateChanged(let pinned, let seen):
                logger.warning(
                    "the TV's certificate changed (pinned \(pinned.prefix(16))…, now \(seen.prefix(16))…)")
                emit(.certificateChanged(pinned: pinned, seen: seen))
            case .pairingRequired(let message):
                logger.warning("pairing required: \(message)")
                emit(.pairingRequired(message))
            case .deliver(let event): deliver(event)
            case .close: dropConnection()
            }
        }
        scheduleTick()
        return mustCarry
    }

    func finish(_ id: UInt64, _ result: Result<Void, DriverError>) {
        // Ids that are not a `send`'s (an app list's) answer nothing.
        rpc.answer(id, result)
        if let waiter = appListRequests.removeValue(forKey: id), case .failure = result {
            answerAppList(waiter, nil)
        }
    }

    private func deliver(_ event: SamsungEvent) {
        switch event {
        case .installedApps(let apps):
            for (id, _) in appListWaiters { answerAppList(id, apps) }
        case .appIcon(let path, let image):
            answerIcons(path, image)
        case .appLaunch(let succeeded, let detail):
            if !succeeded { logger.info("the TV refused an app launch: \(detail.prefix(120))") }
        default:
            logger.debug("remote channel: \(event)")
        }
    }

    func answerAppList(_ id: UInt64, _ apps: [SamsungInstalledApp]?) {
        appListWaiters.removeValue(forKey: id)?.resume(returning: apps)
    }

    /// Closes the current connection; its reader's end is then ignored (new generation).
    func dropConnection() {
        guard let closing = rpc.detach() else { return }
        Task { try? await closing.close() }
    }

    /// Queues `item`; true when the caller asked to carry the queue and nobody else does.
    private func enqueue(_ item: Work, callerCarries: Bool) -> Bool {
        guard !isShutDown else { return false }
        if callerCarries { return work.addCarriedByCaller(item) }
        _ = work.add(item) { Task { await self.performQueued() } }
        return false
    }

    /// The queue's carrier: performs the I/O actions in order while there are any.
    private func performQueued() async {
        while !Task.isCancelled, let item = work.next() { await perform(item) }
    }

    /// A sender carrying the queue: performs the I/O actions until its own request is done,
    /// then leaves what others queued meanwhile to a carrier task.
    private func carry(until ticket: WebSocketRPC<UInt64, Result<Void, DriverError>>.Ticket) async {
        while !Task.isCancelled, !rpc.isAnswered(ticket), let item = work.next() { await perform(item) }
        work.handOff { Task { await self.performQueued() } }
    }

    /// Keeps one loop timer armed for the session's deadline.
    private func scheduleTick() {
        let deadline = session.nextDeadline
        guard deadline != tickerDeadline else { return }
        tickerGeneration += 1
        tickerDeadline = deadline
        guard let deadline, !isShutDown else { return }
        let generation = tickerGeneration
        LoopClock.current.startTask(at: deadline) { [weak self] in await self?.tick(generation) }
    }

    private func tick(_ generation: Int) {
        guard generation == tickerGeneration else { return }
        tickerDeadline = nil
        handle(session.tick(now: LoopClock.current.now))
    }
}
