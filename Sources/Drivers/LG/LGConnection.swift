import Clients
import Net
import Support
import Wire

/// The SSAP WebSocket of one LG TV: connects (TLS on 3001 with the certificate pinned at the
/// first pairing; 3000 in clear only for a TV that has no 3001 and was never paired over TLS),
/// registers (silently with the client key, or with the TV's prompt), then carries requests
/// and subscriptions. What to decide is `LGSession`'s (pure); this actor holds the sockets and
/// carries out its actions. Answers are matched by id (`WebSocketRPC`); anything else the TV
/// sends is logged at debug level and dropped. The client key never reaches a log line.
actor LGConnection {
    typealias Configuration = LGSession.Configuration
    typealias Blocked = LGSession.Blocked

    var session: LGSession
    let logger: Logger
    let emit: @Sendable (DriverEvent) -> Void
    /// Subscription pushes (uri, payload) and the end of a connection (nil).
    let onPush: @Sendable (String?, JSONValue) -> Void
    /// Called once a lost socket is open and registered again.
    let onReconnected: @Sendable () -> Void

    /// The SSAP connection: requests matched to their answers by id, one connection at a time.
    let rpc = WebSocketRPC<String, Result<LGMessage, DriverError>>()
    var nextID = 1
    var pointer: WebSocketConnection?
    /// One connect at a time: later callers wait for it.
    var connecting: Task<Result<Void, DriverError>, Never>?
    /// The reconnecting after a lost socket, while it runs (`LGConnection+Reconnect`).
    var reconnecting: Task<Void, Never>?
    var reconnectRun = 0
    let reconnectWake = Wakeup()

    init(
        configuration: Configuration, logger: Logger, emit: @escaping @Sendable (DriverEvent) -> Void,
        onPush: @escaping @Sendable (String?, JSONValue) -> Void,
        onReconnected: @escaping @Sendable () -> Void = {}
    ) {
        session = LGSession(configuration: configuration)
        self.onPush = onPush
        self.onReconnected = onReconnected
        self.logger = logger
        self.emit = emit
    }

    var configuration: Configuration { session.configuration }
    var isConnected: Bool { rpc.isConnected }
    var hasClientKey: Bool { session.hasClientKey }

    /// Carries out the session's actions, in order.
    func perform(_ actions: [LGSessionAction]) {
        for action in actions {
            switch action {
            case .emit(let event): emit(event)
            case .log(let level, let message): logger.log(level, message)
            case .close: drop()
            }
        }
    }

    // MARK: connecting

    /// Opens and registers, unless open. A blocked connection (denied, certificate changed)
    /// fails at once with the reason.
    func ensureConnected(prompt: Bool) async throws(DriverError) {
        switch session.admission(prompt: prompt, connected: rpc.isConnected) {
        case .ready: return
        case .refused(let error): throw error
        case .connect: try await connectOnce()
        }
    }

    /// Opens and registers; a connect already under way is waited for instead.
    func connectOnce() async throws(DriverError) {
        if let connecting {
            try await connecting.value.get()
            return
        }
        let task = Task { () -> Result<Void, DriverError> in
            do throws(DriverError) {
                try await self.open()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        connecting = task
        let result = await task.value
        connecting = nil
        try result.get()
        if session.isShutDown {
            // Shut down while connecting: this connection is not kept.
            await shutdown()
            throw DriverError(.unreachable, "the driver was shut down")
        }
    }

    /// Forgets the client key and any block, connects and waits for the user's answer (see
    /// `LGSession.pair`).
    func pair() async throws(DriverError) {
        stopReconnecting()
        drop()
        session.pair()
        do {
            try await ensureConnected(prompt: true)
        } catch {
            session.pairingFailed()
            throw error
        }
    }

    func adoptSecrets(clientKey: String?, pin: String?) {
        session.adoptSecrets(clientKey: clientKey, pin: pin)
    }

    func updateHost(_ host: String) {
        session.configuration.host = host
        stopReconnecting()
        drop()
    }

    /// For good: stops reconnecting, closes the sockets and waits for their closing handshake,
    /// so a process exiting next leaves no TLS session half-used on another thread.
    func shutdown() async {
        session.shutDown()
        stopReconnecting()
        let closing = [rpc.detach(), pointer].compactMap { $0 }
        pointer = nil
        drop()
        for closing in closing { _ = try? await closing.close() }
    }

    /// Closes the connection and fails what waits on it.
    func drop() {
        session.dropped()
        let closing = [rpc.detach(), pointer].compactMap { $0 }
        pointer = nil
        for closing in closing { Task { try? await closing.close() } }
    }

    // MARK: reading

    /// The connection's one reader, on this actor: its end is seen at once, before anything
    /// else connects.
    func read(_ generation: Int) async {
        guard await rpc.read(generation, { receive($0) }) != nil else { return }
        logger.debug("the SSAP connection closed")
        drop()
        onPush(nil, .null)
        startReconnecting()
    }

    func receive(_ text: String) {
        switch session.route(text, awaited: rpc.isAwaited) {
        case .answer(let id, let message): rpc.answer(id, .success(message))
        case .push(let uri, let payload): onPush(uri, payload)
        case .registrationShown(let pairingType):
            let (endWait, actions) = session.registrationShown(pairingType: pairingType)
            perform(actions)
            if let endWait { rpc.answer(LGRegistration.id, .failure(endWait)) }
        case .ignored(let line):
            if let line { logger.debug(line) }
        }
    }

    func isSubscribed(_ uri: String) -> Bool { session.isSubscribed(uri) }
}
