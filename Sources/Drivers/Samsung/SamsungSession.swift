import TVModel

/// The remote-channel session with one Samsung TV, as a pure state machine: the driver feeds
/// it what happened on the connection (and the time) and carries out the actions it returns.
///
/// ```
/// idle ──connect──▶ connecting(8002) ──TLS failed / refused, never paired──▶ connecting(8001)
///                       │ tlsEstablished: pin, or certificate changed ──▶ certificateChanged
///                       ▼ opened
///               awaitingApproval (deadline) ──ms.channel.connect──▶ ready (persist a new token)
///                       │ unauthorized / timeOut / deadline ──▶ pairingRequired
/// ```
/// Requests submitted before `ready` wait in a bounded queue and go out in order once the TV
/// approves; in `ready` they go out at once. A dropped connection returns to `idle`, and the
/// next request reconnects. `pairingRequired`, `certificateChanged` and `unsupported` wait
/// for `pair(now:acceptNewCertificate:)`: retrying on every command would pester the TV.
public struct SamsungSession: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        /// The name on the TV's prompt; the token is bound to it.
        public var clientName: String
        public var token: SamsungToken?
        /// SHA-256 of the TV's certificate (hex), pinned on first use.
        public var pinnedCertificate: String?
        public var securePort: UInt16
        public var plainPort: UInt16
        /// How long the user has to answer the prompt on the TV (HA allows 31 s).
        public var approvalTimeout: Duration
        /// Requests waiting for approval, at most.
        public var maxQueued: Int

        public init(
            host: String, clientName: String, token: SamsungToken? = nil,
            pinnedCertificate: String? = nil,
            securePort: UInt16 = SamsungRemoteEndpoint.securePort,
            plainPort: UInt16 = SamsungRemoteEndpoint.plainPort,
            approvalTimeout: Duration = .seconds(30), maxQueued: Int = TVCommand.queueLimit
        ) {
            self.host = host
            self.clientName = clientName
            self.token = token
            self.pinnedCertificate = pinnedCertificate
            self.securePort = securePort
            self.plainPort = plainPort
            self.approvalTimeout = approvalTimeout
            self.maxQueued = maxQueued
        }
    }

    public enum State: Equatable, Sendable {
        case idle
        case connecting(SamsungRemoteEndpoint)
        case awaitingApproval(SamsungRemoteEndpoint, deadline: ContinuousClock.Instant)
        case ready(SamsungRemoteEndpoint)
        /// Stopped until `pair`: the user must act on the TV (the message says what).
        case pairingRequired(String)
        /// Stopped until `pair(acceptNewCertificate: true)`: the token is withheld.
        case certificateChanged(pinned: String, seen: String)
        /// A TV this protocol cannot drive (2014/2015 models).
        case unsupported(String)
    }

    public internal(set) var state: State = .idle
    public internal(set) var configuration: Configuration
    /// Set once 8002 failed and 8001 worked for a TV never paired: later connections go
    /// straight to 8001. Ignored once the TV has a token or a pin (`isPaired`).
    public internal(set) var plainOnly = false
    var queue: [(id: UInt64, steps: [SamsungRemoteStep])] = []
    /// The certificate was checked on the current secure connection.
    var certificateChecked = false
    /// A pairing accepts a changed certificate on its TLS connection (`pair(acceptNewCertificate: true)`),
    /// the pin kept until then: a TV once on TLS is never reached on 8001 to pair.
    var acceptsNewCertificate = false

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// When `tick` must next be called (the pairing deadline), if any.
    public var nextDeadline: ContinuousClock.Instant? {
        if case .awaitingApproval(_, let deadline) = state { return deadline }
        return nil
    }

    /// A token or a pinned certificate: the TV is then only ever reached over TLS on 8002 with
    /// the pin checked (README › Security). A failure there is a failure, never a reason to send
    /// keys and typed text (a password in the keyboard entity) in clear to whoever answers on 8001.
    public var isPaired: Bool {
        configuration.token != nil || !SamsungCertificatePolicy.normalize(configuration.pinnedCertificate ?? "").isEmpty
    }

    public var isReady: Bool {
        if case .ready = state { return true }
        return false
    }

    /// The TV answers on a new address (DHCP): later connections use it.
    public mutating func updateHost(_ host: String) {
        configuration.host = host
    }

    /// A token and pin saved by another tv2mqtt process (`tv2mqtt pair` while the daemon runs):
    /// the next connection uses them, and a session stopped for pairing or for a changed
    /// certificate starts over (the user has just paired). An open connection stays.
    public mutating func adoptSecrets(token: SamsungToken?, pinnedCertificate: String?) {
        configuration.token = token
        configuration.pinnedCertificate = pinnedCertificate
        switch state {
        case .pairingRequired, .certificateChanged:
            state = .idle
            plainOnly = false
        default: break
        }
    }

    var secureEndpoint: SamsungRemoteEndpoint {
        .secure(
            host: configuration.host, clientName: configuration.clientName, token: configuration.token,
            port: configuration.securePort)
    }

    var plainEndpoint: SamsungRemoteEndpoint {
        .plain(
            host: configuration.host, clientName: configuration.clientName, port: configuration.plainPort)
    }

    /// Opens the channel when idle (nothing otherwise).
    public mutating func connect(now: ContinuousClock.Instant) -> [SamsungSessionAction] {
        guard case .idle = state else { return [] }
        let endpoint = plainOnly && !isPaired ? plainEndpoint : secureEndpoint
        state = .connecting(endpoint)
        certificateChecked = false
        return [.open(endpoint)]
    }

    /// Explicit pairing (`tv2mqtt pair`, `tv/pair`): leaves a stopped state and connects, so
    /// the TV shows its prompt. `acceptNewCertificate` takes the certificate the TV presents
    /// over TLS on 8002 (the user trusts the TV as it is now), the pin kept until then, so a
    /// TV with a pin is still never reached on 8001.
    public mutating func pair(now: ContinuousClock.Instant, acceptNewCertificate: Bool)
        -> [SamsungSessionAction]
    {
        var actions: [SamsungSessionAction] = []
        switch state {
        case .pairingRequired, .unsupported: state = .idle
        case .certificateChanged:
            guard acceptNewCertificate else { return [] }
            state = .idle
        case .idle: break
        case .connecting, .awaitingApproval, .ready: return []
        }
        // Pairing starts over on 8002: a token TV only approves there, and 8002 may have
        // failed earlier only because the TV was still booting.
        plainOnly = false
        acceptsNewCertificate = acceptNewCertificate
        actions += connect(now: now)
        return actions
    }

    /// Queues a request's steps (sent at once when ready), connecting if idle.
    /// `id` is the caller's, echoed in `.completed` / `.failed`.
    public mutating func submit(
        _ steps: [SamsungRemoteStep], id: UInt64, now: ContinuousClock.Instant
    )
        -> [SamsungSessionAction]
    {
        switch state {
        case .ready: return Self.actions(for: steps, id: id)
        case .pairingRequired(let message): return [.failed(id, DriverError(.unauthorized, message))]
        case .certificateChanged(let pinned, let seen):
            return [
                .failed(
                    id,
                    DriverError(
                        .unauthorized, SamsungPairingHelp.certificateChanged(pinned: pinned, seen: seen)))
            ]
        case .unsupported(let message): return [.failed(id, DriverError(.unsupported, message))]
        case .idle, .connecting, .awaitingApproval:
            guard queue.count < configuration.maxQueued else {
                return [
                    .failed(id, DriverError(.rejected, "too many commands are waiting for the TV to connect"))
                ]
            }
            queue.append((id, steps))
            return connect(now: now)
        }
    }

    static func actions(for steps: [SamsungRemoteStep], id: UInt64) -> [SamsungSessionAction] {
        steps.map { step in
            switch step {
            case .message(let message): .send(message)
            case .pause(let duration): .pause(duration)
            }
        } + [.completed(id)]
    }

    /// Fails every queued request with `error`.
    mutating func failQueued(_ error: DriverError) -> [SamsungSessionAction] {
        defer { queue.removeAll() }
        return queue.map { .failed($0.id, error) }
    }

    /// Sends every queued request, in order.
    mutating func flushQueue() -> [SamsungSessionAction] {
        defer { queue.removeAll() }
        return queue.flatMap { Self.actions(for: $0.steps, id: $0.id) }
    }
}
