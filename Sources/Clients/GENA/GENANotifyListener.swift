import Net
import Support
import Synchronization
import Wire

/// One subscriber's place at the listener: the callback path its TV sends events to.
public struct GENARegistration: Hashable, Sendable {
    /// `/tv2mqtt/events/<random>`: part of the callback URL, unique per subscriber.
    public let path: String
}

/// The small HTTP server that receives UPnP event messages (GENA `NOTIFY`) for every TV of
/// the bridge, on one port.
///
/// Each subscriber registers with the address of its TV and gets a callback path; a NOTIFY
/// is handed on only when it comes from that address, to that path, with the SID the
/// subscriber holds now. A connection from an address that is no subscriber's TV is closed
/// right after `accept`, unanswered, so strangers take none of the `maxConnections` slots;
/// one address holds at most `maxConnectionsPerAddress`. Everything else is refused: 405 for
/// another method, 403 from another subscriber's TV, 412 for an unknown path or SID (UDA 1.1
/// §4.3.2), 400 for a malformed message; header section and body are bounded
/// (`GENANotify.maxHeaderBytes`, `maxBodyBytes`) and each connection has a 2-second deadline.
/// Answers are immediate (`Connection: close`).
///
/// The socket is bound at the first `register` and closed when the last subscriber leaves,
/// so a bridge without Samsung TVs (or whose TVs are all off) listens on nothing.
public final class GENANotifyListener: Sendable {
    /// What a subscriber does with an accepted message; a refusal is answered instead of 200.
    public typealias Delivery = @Sendable (GENANotify) -> GENANotifyRefusal?

    struct Subscriber {
        var host: String
        /// The SID of the subscription in force; nil while none is.
        var sid: String?
        /// A SUBSCRIBE is on its way: the initial event may arrive before its answer.
        var subscribing = false
        let deliver: Delivery
    }

    struct State {
        var listener: TCPListener?
        var accepting: Task<Void, Never>?
        var subscribers: [String: Subscriber] = [:]
        var connections: [Int: TCPConnection] = [:]
        var nextConnection = 0
    }

    /// The port asked for (0: any free port).
    public let port: UInt16
    /// The address to listen on (`0.0.0.0`: every IPv4 interface).
    public let bindHost: String
    /// The address put in callback URLs; nil: the local address of the connection to the TV.
    public let callbackHost: String?
    public static let maxConnections = 64
    /// Connections one address may hold at once: a TV sends its events one or two at a time.
    public static let maxConnectionsPerAddress = 4
    /// How long one connection may take to send its request (2 s but in tests).
    let connectionDeadline: Duration
    /// How long a NOTIFY that raced ahead of its SUBSCRIBE answer waits for the SID.
    static let subscribeRaceWait = Duration.seconds(1)
    let logger: Logger
    let state = Mutex(State())
    /// Signalled when a SUBSCRIBE's answer settles a SID (or a subscriber leaves): a NOTIFY
    /// that raced ahead of it looks again.
    private let sidSettled = Wakeup()

    public init(
        port: UInt16, bindHost: String = "0.0.0.0", callbackHost: String? = nil,
        connectionDeadline: Duration = .seconds(2), logger: Logger = .disabled
    ) {
        self.port = port
        self.connectionDeadline = connectionDeadline
        self.bindHost = bindHost
        self.callbackHost = callbackHost
        self.logger = logger.labeled("upnp-events")
    }

    /// The port bound now; nil while nothing listens.
    public var boundPort: UInt16? { state.withLock { $0.listener?.address.port } }

    /// Adds a subscriber for events from `host`, binding the port first if nobody listens yet.
    ///
    /// - Throws: `NetError` when the port cannot be bound (taken, no permission).
    public func register(host: String, deliver: @escaping Delivery) throws(NetError)
        -> GENARegistration
    {
        let path = "/tv2mqtt/events/" + Self.randomToken()
        try state.withLock { (state) throws(NetError) in
            if state.listener == nil {
                let listener = try TCPListener.bind(host: bindHost, port: port)
                state.listener = listener
                state.accepting = Task { [weak self] in
                    guard let self else { return }
                    await self.acceptLoop(listener)
                }
            }
            state.subscribers[path] = Subscriber(host: host, deliver: deliver)
        }
        return GENARegistration(path: path)
    }

    /// The TV moved: accept its events from `host` from now on.
    public func update(_ registration: GENARegistration, host: String) {
        state.withLock { $0.subscribers[registration.path]?.host = host }
    }

    /// A SUBSCRIBE is about to be sent (its initial event may beat its answer).
    public func subscribing(_ registration: GENARegistration) {
        state.withLock { state in
            state.subscribers[registration.path]?.subscribing = true
            state.subscribers[registration.path]?.sid = nil
        }
    }

    /// The subscription now in force (nil: none; every event is refused with 412).
    public func expect(sid: String?, for registration: GENARegistration) {
        state.withLock { state in
            state.subscribers[registration.path]?.subscribing = false
            state.subscribers[registration.path]?.sid = sid
        }
        sidSettled.signal()
    }

    /// The callback URL for `registration`: `http://<callbackHost or local>:<port><path>`;
    /// nil while nothing listens or no local address is known.
    public func callbackURL(for registration: GENARegistration, localAddress: SocketAddress?)
        -> String?
    {
        guard let port = boundPort, let host = callbackHost ?? localAddress?.ip else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "http://\(bracketed):\(port)\(registration.path)"
    }

    /// Removes a subscriber; the last one out closes the socket and every connection.
    public func unregister(_ registration: GENARegistration) {
        let (listener, accepting, connections) = state.withLock {
            state -> (TCPListener?, Task<Void, Never>?, [TCPConnection]) in
            state.subscribers[registration.path] = nil
            guard state.subscribers.isEmpty, let listener = state.listener else { return (nil, nil, []) }
            defer {
                state.listener = nil
                state.accepting = nil
                state.connections = [:]
            }
            return (listener, state.accepting, Array(state.connections.values))
        }
        sidSettled.signal()
        accepting?.cancel()
        listener?.close()
        for connection in connections { connection.close() }
    }

    private func acceptLoop(_ listener: TCPListener) async {
        while !Task.isCancelled {
            let connection: TCPConnection
            do {
                connection = try await listener.accept()
            } catch {
                if Task.isCancelled || state.withLock({ $0.listener !== listener }) { return }
                try? await EventLoop.sleep(for: .milliseconds(50))  // paced: accept failed; retry soon
                continue
            }
            // Checked before a slot is taken and before anything is read: a host that is no
            // subscriber's TV, or one holding its share of slots already, is closed at once.
            let remote = connection.remote.ip
            let id = state.withLock { state -> Int? in
                guard state.listener === listener, state.connections.count < Self.maxConnections,
                    state.subscribers.values.contains(where: { $0.host == remote }),
                    state.connections.values.count(where: { $0.remote.ip == remote })
                        < Self.maxConnectionsPerAddress
                else { return nil }
                state.nextConnection += 1
                state.connections[state.nextConnection] = connection
                return state.nextConnection
            }
            guard let id else {
                connection.close()
                continue
            }
            Task { [weak self] in
                await self?.serve(connection)
                connection.close()
                _ = self?.state.withLock { $0.connections.removeValue(forKey: id) }
            }
        }
    }

    /// Reads one request (within the deadline and the size bounds), answers it, closes.
    private func serve(_ connection: TCPConnection) async {
        let deadline = LoopClock.current.now + connectionDeadline
        var parser = HTTPRequestParser(
            maxHeaderBytes: GENANotify.maxHeaderBytes, maxBodyBytes: GENANotify.maxBodyBytes)
        var request: HTTPRequest?
        do {
            while request == nil {
                let bytes = try await connection.read(maxBytes: 16 * 1024, deadline: deadline)
                if bytes.isEmpty {
                    request = try parser.finish()
                    if request == nil { return }
                    break
                }
                parser.append(bytes)
                request = try parser.next()
            }
        } catch let error as WireError {
            let status = error.kind == .tooLarge ? 413 : 400
            logger.debug(
                "refused a NOTIFY",
                [("from", connection.remote.ip), ("status", "\(status)"), ("why", "\(error)")])
            await answer(connection, status: status)
            return
        } catch {
            return  // reset, closed or too slow: nothing to answer
        }
        guard let request else { return }
        let status = await handle(request, from: connection.remote.ip)
        await answer(connection, status: status)
    }

    /// The status for one request; delivers it when accepted.
    func handle(_ request: HTTPRequest, from remote: String) async -> Int {
        let path =
            request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
        let refusal: (Int, String)? = await check(request, path: path, from: remote)
        if let (status, why) = refusal {
            logger.debug("refused a NOTIFY", [("from", remote), ("status", "\(status)"), ("why", why)])
            return status
        }
        return 200
    }

    private func check(_ request: HTTPRequest, path: String, from remote: String) async -> (
        Int, String
    )? {
        guard request.method == "NOTIFY" else { return (405, "method \(request.method.prefix(16))") }
        guard let subscriber = state.withLock({ $0.subscribers[path] }) else {
            return (412, "unknown callback path")
        }
        guard subscriber.host == remote else { return (403, "not from the TV at \(subscriber.host)") }
        let notify: GENANotify
        do {
            notify = try GENANotify.parse(request)
        } catch {
            return (error.status, error.reason)
        }
        guard await awaitSID(path: path) == notify.sid else { return (412, "unknown SID") }
        if let refusal = subscriber.deliver(notify) { return (refusal.status, refusal.reason) }
        return nil
    }

    /// The SID held for `path`; while a SUBSCRIBE is on its way, waits up to
    /// `subscribeRaceWait` for its answer (woken when it comes, not at a poll's next tick).
    private func awaitSID(path: String) async -> String? {
        let giveUp = LoopClock.current.now + Self.subscribeRaceWait
        while true {
            let (sid, subscribing) = state.withLock {
                ($0.subscribers[path]?.sid, $0.subscribers[path]?.subscribing ?? false)
            }
            let left = giveUp - LoopClock.current.now
            if sid != nil || !subscribing || left <= .zero || Task.isCancelled { return sid }
            _ = await sidSettled.wait(timeout: left)
        }
    }

    private func answer(_ connection: TCPConnection, status: Int) async {
        var response = HTTPResponse(status: status)
        response.headers.set(name: "Connection", value: "close")
        if let bytes = try? response.encode() {
            try? await connection.write(bytes, deadline: LoopClock.current.now + connectionDeadline)
        }
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
