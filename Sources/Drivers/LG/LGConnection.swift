import Clients
import Net
import Support
import Wire

/// The SSAP WebSocket of one LG TV: connects (TLS on 3001 with the certificate pinned at the
/// first pairing; 3000 in clear only for a TV that has no 3001 and was never paired over TLS),
/// registers (silently with the client key, or with the TV's prompt), then carries requests
/// and subscriptions. Answers are matched by id; anything else the TV sends is logged at debug
/// level and dropped. The client key never reaches a log line.
actor LGConnection {
    struct Configuration: Sendable {
        var host: String
        var securePort: UInt16 = 3001
        var plainPort: UInt16 = 3000
        /// The key the TV issued at pairing (state file); nil before the first pairing.
        var clientKey: String?
        /// SHA-256 of the TV's certificate, hex (state file).
        var pin: String?
        var approvalTimeout: Duration = .seconds(60)
        var connectTimeout: Duration = .seconds(3)
        var requestTimeout: Duration = .seconds(5)
        var keepAlive: Duration = .seconds(20)
        var keepAliveTimeout: Duration = .seconds(10)
        /// A lost socket is reconnected after `reconnectFirst`, the wait doubling after each
        /// failed attempt up to `reconnectMax`, and starting again at `reconnectFirst` after a
        /// success.
        var reconnectFirst: Duration = .seconds(1)
        var reconnectMax: Duration = .seconds(60)
        /// Port 3000 in clear for a TV that refuses 3001 and never spoke TLS.
        var allowCleartext = false
    }

    /// Why the connection will not be made until the user acts (cleared by `pair`).
    enum Blocked: Equatable, Sendable {
        case pairingRequired(String)
        case certificateChanged(pinned: String, seen: String)
    }

    var configuration: Configuration
    let logger: Logger
    let emit: @Sendable (DriverEvent) -> Void
    /// Subscription pushes (uri, payload) and the end of a connection (nil).
    let onPush: @Sendable (String?, JSONValue) -> Void

    /// The SSAP connection: requests matched to their answers by id, one connection at a time.
    let rpc = WebSocketRPC<String, Result<LGMessage, DriverError>>()
    /// Whether the open connection is in clear (port 3000).
    var isPlain = false
    var blocked: Blocked?
    var nextID = 1
    /// Subscription ids → their URI, for the open connection.
    var subscriptions: [String: String] = [:]
    var pointer: WebSocketConnection?
    /// The TV shows its PIN screen for the open connection's registration (`pair(pin:)` next).
    var pinShown = false
    /// `pairing_required` for a TV without TLS that may not be reached in clear was said.
    var cleartextRefusalSaid = false
    /// The PIN to send as soon as the TV shows its PIN screen (`pair(pin:)`); never logged.
    var pinToSend: String?
    /// The open connection's certificate, until its registration completes.
    var registeringFingerprint: String?
    /// A pairing runs (`pair`): its registration goes without the key, and its TLS connection
    /// takes the certificate the TV presents (checked against the pin in `accept`).
    var isPairing = false
    /// Shut down: nothing connects again (a refresh or poll still running must not).
    var isShutDown = false
    /// The reconnecting after a lost socket, while it runs (`LGConnection+Reconnect`).
    var reconnecting: Task<Void, Never>?
    var reconnectRun = 0
    var reconnectDelay: Duration = .seconds(1)
    var nextAttempt: ContinuousClock.Instant?
    let reconnectWake = Wakeup()
    /// Called once a lost socket is open and registered again.
    let onReconnected: @Sendable () -> Void
    /// One connect at a time: later callers wait for it.
    var connecting: Task<Result<Void, DriverError>, Never>?

    init(
        configuration: Configuration, logger: Logger, emit: @escaping @Sendable (DriverEvent) -> Void,
        onPush: @escaping @Sendable (String?, JSONValue) -> Void,
        onReconnected: @escaping @Sendable () -> Void = {}
    ) {
        self.onPush = onPush
        self.onReconnected = onReconnected
        self.configuration = configuration
        self.logger = logger
        self.emit = emit
    }

    var isConnected: Bool { rpc.isConnected }
    var hasClientKey: Bool { configuration.clientKey != nil }

    // MARK: requests

    /// Sends a request and returns the response's payload; an `error` message or a payload
    /// with `returnValue: false` is a `.rejected` error. `prompt`: whether connecting may show
    /// the TV's pairing prompt (commands may; polls never do).
    func request(_ uri: String, _ payload: JSONValue? = nil, prompt: Bool = false)
        async throws(DriverError)
        -> JSONValue
    {
        try await ensureConnected(prompt: prompt)
        let id = takeID()
        let answer = try await exchange(
            id: id, LGMessage.encode(type: "request", id: id, uri: uri, payload: payload))
        if let refusal = answer.refusal {
            throw DriverError(.rejected, "\(uri): \(printable(refusal))")
        }
        return answer.payload
    }

    /// Subscribes to `uri`: its first answer is returned, later ones go to the push handler.
    func subscribe(_ uri: String) async throws(DriverError) -> JSONValue {
        try await ensureConnected(prompt: false)
        let id = takeID()
        subscriptions[id] = uri
        let answer: LGMessage
        do {
            answer = try await exchange(id: id, LGMessage.encode(type: "subscribe", id: id, uri: uri))
        } catch {
            subscriptions[id] = nil
            throw error
        }
        if let refusal = answer.refusal {
            subscriptions[id] = nil
            throw DriverError(.rejected, "\(uri): \(printable(refusal))")
        }
        return answer.payload
    }

    /// Sends `text` and waits `requestTimeout` for the message with `id` (the registration's
    /// id is the same for the prompt and for the PIN sent after it).
    func exchange(id: String, _ text: String, timeout: Duration? = nil) async throws(DriverError)
        -> LGMessage
    {
        let waitFor = timeout ?? configuration.requestTimeout
        let answer: Result<LGMessage, DriverError>
        do {
            answer = try await rpc.call(text, awaiting: id, timeout: waitFor)
        } catch {
            throw Self.failure(error, waited: waitFor)
        }
        let message = try answer.get()
        if message.type == "error" {
            throw DriverError(
                Self.errorKind(message.error), "the TV refused: \(printable(message.error ?? "error"))")
        }
        return message
    }

    private static func failure(_ error: RPCError, waited: Duration) -> DriverError {
        switch error {
        case .notConnected: DriverError(.unreachable, "the TV closed the connection")
        case .sendFailed(let why): DriverError(.unreachable, "sending to the TV failed: \(why)")
        case .timeout: DriverError(.timeout, "the TV did not answer within \(waited)")
        case .closed, .cancelled: DriverError(.unreachable, "the connection closed")
        case .duplicateID: DriverError(.rejected, "\(error)")
        }
    }

    private static func errorKind(_ error: String?) -> DriverError.Kind {
        guard let error else { return .rejected }
        if error.hasPrefix("401") || error.hasPrefix("403") { return .unauthorized }
        return .rejected
    }

    func takeID() -> String {
        defer { nextID += 1 }
        return "\(nextID)"
    }

    // MARK: connecting

    /// Opens and registers, unless open. A blocked connection (denied, certificate changed)
    /// fails at once with the reason.
    func ensureConnected(prompt: Bool) async throws(DriverError) {
        if isShutDown { throw DriverError(.unreachable, "the driver was shut down") }
        if rpc.isConnected { return }
        if let blocked { throw Self.error(blocked) }
        guard prompt || configuration.clientKey != nil else {
            throw DriverError(.unauthorized, LGPairingHelp.notPaired)
        }
        // Polls leave a lost socket to the backoff; a user's command still tries at once.
        if !prompt, reconnecting != nil {
            throw DriverError(.unreachable, "the TV closed the connection: reconnecting with backoff")
        }
        try await connectOnce()
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
        if isShutDown {
            // Shut down while connecting: this connection is not kept.
            await shutdown()
            throw DriverError(.unreachable, "the driver was shut down")
        }
    }

    static func error(_ blocked: Blocked) -> DriverError {
        switch blocked {
        case .pairingRequired(let message): DriverError(.unauthorized, message)
        case .certificateChanged:
            DriverError(
                .unauthorized, "the TV's TLS certificate changed since pairing; pair again if you trust it")
        }
    }

    /// Forgets the client key and any block, connects and waits for the user's answer.
    /// Pairs (again): registers without the key, so the TV asks its user. The pin and the key
    /// are kept until the TV issues a new key: a TV once on TLS is reached over TLS only, and
    /// a changed certificate is accepted over TLS only (with a warning, `accept`), never by
    /// falling back to port 3000, where whoever answers would get the registration in clear.
    func pair() async throws(DriverError) {
        stopReconnecting()
        drop()
        blocked = nil
        pinBeforePairing = configuration.pin
        isPairing = true
        do {
            try await ensureConnected(prompt: true)
        } catch {
            // The PIN screen waits for `pair(pin:)`, still pairing; anything else ends it.
            if !pinShown { isPairing = false }
            throw error
        }
    }

    /// The pin a pairing set aside, to log a certificate the user accepted by pairing again.
    var pinBeforePairing: String?

    func adoptSecrets(clientKey: String?, pin: String?) {
        if let clientKey { configuration.clientKey = clientKey }
        if let pin { configuration.pin = pin }
        blocked = nil
    }

    func updateHost(_ host: String) {
        configuration.host = host
        stopReconnecting()
        drop()
    }

    /// For good: stops reconnecting, closes the sockets and waits for their closing handshake,
    /// so a process exiting next leaves no TLS session half-used on another thread.
    func shutdown() async {
        isShutDown = true
        stopReconnecting()
        let closing = [rpc.detach(), pointer].compactMap { $0 }
        pointer = nil
        drop()
        for closing in closing { _ = try? await closing.close() }
    }

    /// Closes the connection and fails what waits on it.
    func drop() {
        pinShown = false
        subscriptions.removeAll()
        let closing = [rpc.detach(), pointer].compactMap { $0 }
        pointer = nil
        for closing in closing { Task { try? await closing.close() } }
    }

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
        let message: LGMessage
        do {
            message = try LGMessage.decode(Array(text.utf8))
        } catch {
            logger.debug("ignored an SSAP message: \(error.message)")
            return
        }
        guard let id = message.id else {
            logger.debug("ignored an SSAP message without an id: \(message)")
            return
        }
        if let uri = subscriptions[id], !rpc.isAwaited(id) {
            if message.type == "response" { onPush(uri, message.payload) }
            return
        }
        if id == LGRegistration.id, message.type == "response" {
            registrationShown(message)
            return
        }
        guard rpc.isAwaited(id) else {
            logger.debug("ignored an SSAP \(message) that answers nothing asked")
            return
        }
        // Only these answer: an unknown type carrying our id is not taken as a success.
        guard ["response", "error", "registered"].contains(message.type) else {
            logger.debug("ignored an SSAP \(message) of an unknown type")
            return
        }
        rpc.answer(id, .success(message))
    }
}

extension LGConnection {
    func isSubscribed(_ uri: String) -> Bool { subscriptions.values.contains(uri) }
}
